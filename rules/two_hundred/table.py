"""The table the options describe: who sits where, who bids, which sides score, and which pack is dealt.

A *position* holds cards and plays to tricks; a *seat* is a player of the record.  They are the same except in the
two-player game, where positions 2 and 3 are the silent partners of seats 0 and 1 (played by them).  A *unit* is
what the scores are kept for: a team in partnership games, a player otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from rules.cards import ACE, R2, R3, R4, R5, R6, R7, R8, R9, R10, card, make_pack
from rules.errors import RecordError
from rules.seats import partnership_teams, team_index
from rules.tricks import points_table

from .options import DEFAULT_LAYOUT, LAYOUT_PLAYERS

# "a 36-card pack is created by removing all the 2's, 3's, 4's, 6's"; the kitty game adds the sixes, the 10-card game
# with a kitty the fours, and "12-card hands and a kitty, using a full 52-card deck".
HIGH_RANKS = (ACE, ACE - 1, ACE - 2, ACE - 3, R10, R9, R8, R7, R5)
EXTRA_RANKS = (R6, R4, R3, R2)
PACK_SIZES = (36, 40, 44, 48, 52)

# "each ace: 10 points, each ten: 10 points, each five: 5 points, other cards: 0 points"
CARD_POINTS = points_table({card(r, s): v for s in range(4) for r, v in ((ACE, 10), (R10, 10), (R5, 5))})
POINT_CARDS = sum(1 << c for c in range(64) if CARD_POINTS[c])
TENS_AND_ACES = sum(1 << card(r, s) for s in range(4) for r in (ACE, R10))
FIVES = sum(1 << card(R5, s) for s in range(4))


def card_points(mask: int) -> int:
    """The card points in a set of cards."""
    return 10 * (mask & TENS_AND_ACES).bit_count() + 5 * (mask & FIVES).bit_count()


TOTAL_POINTS = 100
DEAL_KITTY = 4
SILENT_STACKS, STACK_HEIGHT = 3, 3


def pack_of_size(size: int) -> list[int]:
    ranks = HIGH_RANKS + EXTRA_RANKS[: (size - 36) // 4]
    return make_pack(sorted(ranks))


@dataclass(frozen=True)
class Table:
    players: int
    layout: str
    positions: int
    controller: tuple[int, ...]  # position -> the seat that plays its cards
    silent: tuple[bool, ...]  # the two-player game's silent partners
    units: int
    unit_of: tuple[int, ...]  # position -> scoring unit
    hand_size: int
    kitty: int  # the real kitty's size (0 or 4)
    drop_out: bool  # three teams of two: a team at -lose_at drops out

    @property
    def individual(self) -> bool:
        return self.layout in ("cutthroat", "called_partner")

    def unit_positions(self, unit: int) -> tuple[int, ...]:
        return tuple(p for p in range(self.positions) if self.unit_of[p] == unit)

    @cached_property
    def members(self) -> tuple[tuple[int, ...], ...]:
        """The positions of each unit."""
        return tuple(self.unit_positions(u) for u in range(self.units))

    def hand_size_with(self, active_positions: int) -> int:
        """Hand size once a team dropped out: "continue playing a four-player game" (9 cards each)."""
        return self.hand_size if active_positions == self.positions else 9

    def pack_for(self, active_positions: int) -> list[int]:
        return pack_of_size(active_positions * self.hand_size_with(active_positions) + self.kitty)


def build_table(options: dict) -> Table:
    players = options["players"]
    layout = options["teams"] or DEFAULT_LAYOUT[players]
    if players not in LAYOUT_PLAYERS[layout]:
        allowed = " or ".join(str(n) for n in LAYOUT_PLAYERS[layout])
        raise RecordError(f"option 'teams': {layout!r} needs {allowed} players, not {players}")
    kitty = DEAL_KITTY if options["kitty"] else 0
    if layout == "silent_partners":
        if kitty:
            raise RecordError("the two-player game has no kitty: the silent partners' stacks take its place")
        if options["hand_size"] not in (None, 9):
            raise RecordError("the two-player game deals 9 cards to each hand and stack")
        return Table(2, layout, 4, (0, 1, 0, 1), (False, False, True, True), 2, (0, 1, 0, 1), 9, 0, False)
    hand = options["hand_size"] or {3: 12, 4: 9, 5: 8, 6: 6}[players]
    size = players * hand + kitty
    if size not in PACK_SIZES:
        raise RecordError(
            f"{players} hands of {hand} cards" + (" and a 4-card kitty" if kitty else "")
            + f" need {size} cards; the packs are {', '.join(map(str, PACK_SIZES))} cards"
        )  # fmt: skip
    if layout == "pairs":
        units = players // 2
        unit_of = tuple(team_index(partnership_teams(players, units), players))
    elif layout == "threes":
        units, unit_of = 2, tuple(team_index(partnership_teams(players, 2), players))
    else:
        units, unit_of = players, tuple(range(players))
    seats = tuple(range(players))
    silent = (False,) * players
    return Table(players, layout, players, seats, silent, units, unit_of, hand, kitty, layout == "pairs" and units == 3)
