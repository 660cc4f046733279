"""A daylong against computers, the pure part: which instance a player gets, each instance's boards, and how a board
is scored against the field (docs/tournaments.md, "Daylong").

Each player plays the same set of boards alone with three computer players, whenever they like within the window.
To keep a board's cards from being passed on by those who have played it, the set is dealt in several *instances*,
each from its own seed: a player is given one instance when they start and is compared only with the players of
that instance (its *field*).  A board is scored by matchpoints within its field (2 for each player beaten, 1 for each
tie, rules/boards.py), as a percentage of the top so that fields of different sizes weigh the same; a player alone
in a field so far scores 50 %.

A board started but not finished when the window closes (or when the player withdraws), and a board not started by
then, scores ``UNFINISHED`` (40 %, bridge's "average minus" for a board missed through one's own doing) and is not
part of anyone else's comparison.  While the window is open the running standings average the boards each player
has finished; when it closes, every board of the set counts.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rules.boards import Board, matchpoints
from rules.errors import RecordError
from rules.registry import game_type, match_class

UNFINISHED = 40.0  # the percentage of a board not finished by the window's close
ALONE = 50.0  # the percentage of a board nobody else in the field has finished yet
MIN_BOARDS, MAX_BOARDS = 8, 12
MAX_INSTANCES = 8
SEATS = 4


def instance_seed(seed: int, instance: int) -> int:
    """An instance's own seed, from the daylong's: committed (its hash) when the daylong opens, revealed at the end."""
    digest = hashlib.sha256(f"cardtable-daylong:{seed}:{instance}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def board(seed: int, instance: int, number: int) -> Board:
    """Board ``number`` (from 0) of an instance: the dealer rotates with the number, as at every table."""
    return Board(number, instance_seed(seed, instance), SEATS)


def four_handed(game: str, options: Mapping[str, object]) -> dict[str, object] | None:
    """The options a daylong's tables play (a game with a ``players`` option is set to four), or None when they do
    not make a game of two partnerships at four (a preset for two, three or six players, say)."""
    out = dict(options)
    if any(o.name == "players" for o in match_class(game).OPTIONS):
        out["players"] = SEATS
    if SEATS not in game_type(game).seat_counts:
        return None
    teams = game_type(game).teams(SEATS, out)
    if len(teams) != 2 or any(len(team) != 2 for team in teams):
        return None
    try:
        match_class(game)(out)
    except (RecordError, ValueError):
        return None
    return out


def assign_instance(seed: int, user_id: int, taken: Sequence[int]) -> int:
    """The instance a new player plays: one of those with the fewest players so far (so fields stay even), chosen
    by a draw from the daylong's seed and the player, so that friends starting together cannot choose to share one.
    ``taken[i]``: how many players instance ``i`` has."""
    fewest = min(taken)
    candidates = [i for i, n in enumerate(taken) if n == fewest]
    return random.Random(f"{seed}:{user_id}").choice(candidates)


@dataclass(frozen=True)
class Played:
    """A finished board: the player, their instance, the board's number and its net from the player's side (their
    side's score change less the computers' opposite side's)."""

    player: int
    instance: int
    board: int
    net: int


def board_percentages(results: Iterable[Played]) -> dict[tuple[int, int], float]:
    """(player, board) -> the player's percentage on that board within their instance's field."""
    fields: dict[tuple[int, int], list[Played]] = defaultdict(list)
    for r in results:
        fields[(r.instance, r.board)].append(r)
    out: dict[tuple[int, int], float] = {}
    for played in fields.values():
        if len(played) == 1:
            out[(played[0].player, played[0].board)] = ALONE
            continue
        top = 2 * (len(played) - 1)
        for r, mp in zip(played, matchpoints([p.net for p in played]), strict=True):
            out[(r.player, r.board)] = 100.0 * mp / top
    return out


@dataclass
class DaylongLine:
    player: int
    instance: int
    place: int = 0
    percent: float = 0.0  # the average of the boards counted
    finished: int = 0  # boards finished
    counted: int = 0  # boards in the average (finished ones while open; the whole set once closed)


def daylong_standings(
    players: Mapping[int, int], results: Iterable[Played], boards: int, *, closed: bool
) -> list[DaylongLine]:
    """``players``: player -> instance, for everyone who started.  Best first; equal percentages share a place."""
    percentages = board_percentages(results)
    lines = {p: DaylongLine(p, instance) for p, instance in players.items()}
    for (player, _), percent in percentages.items():
        line = lines.get(player)
        if line is None:
            continue
        line.finished += 1
        line.percent += percent
    for line in lines.values():
        line.counted = boards if closed else line.finished
        if closed:
            line.percent += UNFINISHED * (boards - line.finished)
        line.percent = round(line.percent / line.counted, 2) if line.counted else 0.0
    ordered = sorted(lines.values(), key=lambda ln: (-ln.percent, -ln.finished, ln.player))
    for i, line in enumerate(ordered):
        same = i > 0 and (ordered[i - 1].percent, ordered[i - 1].finished) == (line.percent, line.finished)
        line.place = ordered[i - 1].place if same else i + 1
    return ordered
