"""Duplicate boards: one fixed deal played at every table of a round, and how a board's results are compared.

A board is its number and the round's seed: from them come the dealer (rotating with the number, as in bridge) and
the cards (``deal_rng``, the same generator a seeded record uses), so every table, and anyone checking afterwards
with the revealed seed, gets the same deal.  The cards are whatever the game deals: hands and a kitty, or (Da Bai
Fen) the whole stock in draw order; Da Bai Fen's trump rank is the starting level and its declarers are fixed by
the engine's ``board_declarers`` option, so that what the first deal's exposure race would decide is the board's.

Results are compared from the side of seats 0 and 2 (team 0), the board's "North-South": each table's net score on
the board is team 0's score change less team 1's.  Matchpoints give 2 for each table beaten and 1 for each tie; the
IMP-like scale turns the difference between two tables into a few points with a ceiling, so that one wild board
cannot decide a team match (docs/tournaments.md explains each game's scale).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.dealing import DealCards, deal_rng
from rules.errors import RecordError
from rules.game import Match
from rules.registry import game_type, match_class

# The bridge IMP table's steps: a difference of at least steps[k-1] points is worth k IMPs (24 at most).
BRIDGE_STEPS = (20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600, 750, 900, 1100, 1300, 1500, 1750, 2000,
                2250, 2500, 3000, 3500, 4000)  # fmt: skip
# Each game's steps, scaled so that a game's usual swing (a contract made at one table and failed at the other) is
# worth about what a game swing is worth in bridge (10 IMPs).  Da Bai Fen scores levels, a handful a deal: a level
# is worth 3, then the steps flatten.
IMP_STEPS: Mapping[str, tuple[int, ...]] = {
    "belote": BRIDGE_STEPS,
    "five_hundred": BRIDGE_STEPS,
    "two_hundred": tuple(max(1, round(s * 0.4)) for s in BRIDGE_STEPS),
    "da_bai_fen": (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8),
}


@dataclass(frozen=True)
class Board:
    number: int  # from 0, within the tournament
    seed: int  # the round's seed (committed as a hash before the round, revealed after)
    players: int = 4

    @property
    def dealer(self) -> int:
        return self.number % self.players

    def options(self, game: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The table's options for this board: Da Bai Fen's declarers are the dealer's team."""
        out = dict(options)
        if "board_declarers" in {o.name for o in match_class(game).OPTIONS}:
            out["board_declarers"] = self.dealer % 2
        return out

    def new_match(self, game: str, options: Mapping[str, Any]) -> Match:
        return match_class(game)(self.options(game, options), self.dealer)

    def cards(self, match: Match) -> DealCards:
        """The board's cards for a match of its game and options (a new generator each time: same seed, same deal)."""
        return match.random_deal(deal_rng(self.seed, self.number))


def probe(game: str, options: Mapping[str, Any]) -> Match:
    """A match of ``game`` with ``options``, to read what they imply (players, teams): seat 0 deals first unless the
    options are a board's whose declarers need another first dealer (Da Bai Fen's ``board_declarers``).  Raises the
    first dealer's ``RecordError`` when no first dealer accepts the options."""
    first_error: RecordError | None = None
    for dealer in range(max(game_type(game).seat_counts)):
        try:
            return match_class(game)(dict(options), dealer)
        except RecordError as e:
            first_error = first_error or e
    assert first_error is not None
    raise first_error


def board_net(deal_result: Mapping[str, Any]) -> int:
    """A table's result on a board, from team 0's side: its score change less team 1's."""
    change = deal_result["score_change"]
    return int(change[0]) - int(change[1])


def matchpoints(nets: Sequence[int]) -> list[int]:
    """Team 0's matchpoints at each table: 2 for each other table it beat, 1 for each it tied (team 1 at that table
    gets the top, 2 * (tables - 1), less this)."""
    return [sum(2 if x > y else 1 if x == y else 0 for j, y in enumerate(nets) if j != i) for i, x in enumerate(nets)]


def imps(game: str, difference: int) -> int:
    """The IMP-like value of the difference between two tables' nets on a board (signed)."""
    steps = IMP_STEPS.get(game, BRIDGE_STEPS)
    value = bisect_right(steps, abs(difference))
    return value if difference >= 0 else -value
