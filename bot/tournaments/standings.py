"""Standings as clubs keep them, from the tables' results (docs/tournaments.md says which format uses which).

- ``match_points`` (Swiss of teams, round robin, elimination): a won match 2, a drawn one 1, a bye 2; ties broken by
  Buchholz (the sum of the opponents' match points), then the points difference, then points scored.
- ``cumulative`` (a card club's concours, mêlée): each player's own total of the points their side scored, a bye worth
  the round's average side score; ties broken by matches won, then the points difference.
- ``levels`` (a game whose registry entry says its scores are levels): the same sum, of levels gained instead of points.
- ``matchpoints`` (duplicate): the same sum, of each board's matchpoints against the other tables that played it
  (rules/boards.py), so the luck of the cards cancels out.
An organiser's adjustment adds to the first figure, with its reason kept in the audit log.  Entrants still level
after every tiebreak share a place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from bot.tournaments.plan import Side

MATCH_POINTS, CUMULATIVE, LEVELS, MATCHPOINTS = "match_points", "cumulative", "levels", "matchpoints"
METHODS = (MATCH_POINTS, CUMULATIVE, LEVELS, MATCHPOINTS)
WIN, DRAW, BYE = 2, 1, 2


@dataclass(frozen=True)
class TableResult:
    """A finished table: its sides and each side's score in the game's own unit (points, or levels gained)."""

    round_no: int
    sides: tuple[Side, ...]
    scores: tuple[int, ...]
    winner: int | None = None  # the winning side's index; None when level (or decided by score: see ``won_by``)

    def won_by(self) -> int | None:
        if self.winner is not None:
            return self.winner
        best = max(self.scores)
        leaders = [i for i, s in enumerate(self.scores) if s == best]
        return leaders[0] if len(leaders) == 1 else None


@dataclass
class Line:
    """One entrant's row in the standings."""

    entrant: int
    place: int = 0
    score: float = 0  # match points, points or levels: the method's first figure, adjustments included
    played: int = 0
    won: int = 0
    drawn: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    buchholz: float = 0
    adjustment: float = 0
    opponents: list[int] = field(default_factory=list)

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against


def standings(
    entrants: Iterable[int],
    results: Iterable[TableResult],
    byes: Iterable[tuple[int, int]],
    method: str,
    adjustments: Mapping[int, float] | None = None,
) -> list[Line]:
    """Every entrant's line, best first.  ``byes``: (round, entrant) for each bye given."""
    if method not in METHODS:
        raise ValueError(f"unknown ranking method {method!r}")
    lines = {e: Line(e) for e in entrants}
    results = list(results)
    round_average: dict[int, list[int]] = defaultdict(list)
    for result in results:
        round_average[result.round_no].extend(result.scores)
        winner = result.won_by()
        for i, side in enumerate(result.sides):
            against = sum(s for j, s in enumerate(result.scores) if j != i)
            for e in side:
                line = lines.setdefault(e, Line(e))
                line.played += 1
                line.points_for += result.scores[i]
                line.points_against += against
                line.won += winner == i
                line.drawn += winner is None
                line.opponents.extend(o for j, other in enumerate(result.sides) if j != i for o in other)
                if method == MATCH_POINTS:
                    line.score += WIN if winner == i else DRAW if winner is None else 0
                else:
                    line.score += result.scores[i]
    for round_no, entrant in byes:
        line = lines.setdefault(entrant, Line(entrant))
        line.byes += 1
        if method == MATCH_POINTS:
            line.score += BYE
        else:
            scored = round_average.get(round_no, [])
            line.score += sum(scored) // len(scored) if scored else 0
    for entrant, delta in (adjustments or {}).items():
        line = lines.setdefault(entrant, Line(entrant))
        line.adjustment += delta
        line.score += delta
    for line in lines.values():
        line.buchholz = sum(lines[o].score for o in line.opponents if o in lines)
    return _ranked(list(lines.values()), method)


def _key(line: Line, method: str) -> tuple:
    if method == MATCH_POINTS:
        return (-line.score, -line.buchholz, -line.difference, -line.points_for)
    return (-line.score, -line.won, -line.difference)


def _ranked(lines: Sequence[Line], method: str) -> list[Line]:
    ordered = sorted(lines, key=lambda ln: (_key(ln, method), ln.entrant))
    for i, line in enumerate(ordered):
        same = i > 0 and _key(ordered[i - 1], method) == _key(line, method)
        line.place = ordered[i - 1].place if same else i + 1
    return ordered
