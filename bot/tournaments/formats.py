"""The formats played between fixed entrants (docs/tournaments.md): a round robin in snake groups with a knock-out
final between the group winners, single elimination, double elimination, and the best-of-N match that the
knock-out rounds play.  Pure: the service hands in what was played (``Played``) and gets the next round.

Each round's plan carries, besides its tables and byes, the knock-out's ``slots`` (the bracket as it stood when the
round was paired) so that the next round is worked out from stored rounds alone, after a restart too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from bot.tournaments import double
from bot.tournaments.pairing import advance, bracket, groups, round_robin
from bot.tournaments.plan import RoundPlan

ROUND_ROBIN, SINGLE, DOUBLE = "round_robin", "single_elimination", "double_elimination"
KNOCKOUT = "knockout"  # a plan's stage once a round robin's groups are over
DAYLONG = "daylong"  # a daylong's tournaments row (bot/tournaments/daylong_service.py): not played in rounds


@dataclass
class Played:
    """A round as the formats read it: its plan (with its ``slots`` when a knock-out round), and each finished
    table's winning side (None while it is being played, or level)."""

    plan: dict
    winners: list[int | None]

    def winning_entrants(self) -> set[int]:
        tables = RoundPlan.from_json(self.plan).tables
        return {e for table, w in zip(tables, self.winners, strict=True) if w is not None for e in table.sides[w]}

    def losing_entrants(self) -> set[int]:
        tables = RoundPlan.from_json(self.plan).tables
        out: set[int] = set()
        for table, w in zip(tables, self.winners, strict=True):
            if w is not None:
                out |= {e for i, side in enumerate(table.sides) if i != w for e in side}
        return out


def group_schedule(entrants: Sequence[int], group_count: int, seed: int) -> list[RoundPlan]:
    """Every group's round robin played side by side: round r is every group's round r (a group with fewer rounds
    sits the later ones out).  Entrants are dealt into the groups in a snake in the order they registered."""
    count = max(1, min(group_count, len(entrants) // 2))
    schedules = [round_robin(g, seed + i) for i, g in enumerate(groups(list(entrants), count))]
    rounds = []
    for r in range(max(len(s) for s in schedules)):
        tables = tuple(t for s in schedules if r < len(s) for t in s[r].tables)
        byes = tuple(e for s in schedules if r < len(s) for e in s[r].byes)
        rounds.append(RoundPlan(tables, byes))
    return rounds


def group_of(entrants: Sequence[int], group_count: int) -> list[list[int]]:
    count = max(1, min(group_count, len(entrants) // 2))
    return groups(list(entrants), count)


def knockout_plan(slots: Sequence[int | None]) -> dict:
    """A knock-out round's stored plan: its tables and byes from the bracket's slots, and the slots themselves."""
    tables, byes = [], []
    for i in range(0, len(slots), 2):
        pair = [e for e in (slots[i], slots[i + 1]) if e is not None]
        if len(pair) == 2:
            tables.append([[pair[0]], [pair[1]]])
        elif pair:
            byes.append(pair[0])
    return {"tables": tables, "byes": byes, "slots": list(slots), "stage": KNOCKOUT}


def next_knockout(last: Played) -> dict | None:
    """The round after a knock-out round, or None when it was the final (one entrant left)."""
    slots = advance(last.plan["slots"], last.winning_entrants())
    if sum(1 for e in slots if e is not None) <= 1:
        return None
    return knockout_plan(slots)


def champion(last: Played, field: Sequence[int] = (), rounds: Sequence[Played] = ()) -> int | None:
    if last.plan.get("stage") == double.STAGE:
        return _double_outcome(field, rounds).champion
    if last.plan.get("stage") != KNOCKOUT:
        return None
    slots = advance(last.plan["slots"], last.winning_entrants())
    left = [e for e in slots if e is not None]
    return left[0] if len(left) == 1 else None


def losses(rounds: Sequence[Played]) -> dict[int, int]:
    out: dict[int, int] = {}
    for r in rounds:
        for e in r.losing_entrants():
            out[e] = out.get(e, 0) + 1
    return out


def double_elimination_next(field: Sequence[int], rounds: Sequence[Played]) -> dict | None:
    """The next round's plan of a double elimination (winners' and losers' brackets, then the grand final), or
    None once it has a champion."""
    if not rounds:
        return double.first_round(field).plan()
    following = _double_outcome(field, rounds).next
    return None if following is None else following.plan()


def _double_outcome(field: Sequence[int], rounds: Sequence[Played]) -> double.Outcome:
    met = {frozenset(e for side in t for e in side) for r in rounds for t in r.plan["tables"]}
    last = rounds[-1]
    return double.advance_round(
        double.DoubleState.from_json(last.plan["double"]), last.winning_entrants(), set(field), len(rounds) - 1, met
    )


def best_of_winner(deal_winners: Sequence[int | None], best_of: int) -> int | None:
    """The side that has won a majority of a best-of-N match's deals (a level deal counts for neither side, and
    the match goes on until one side has the majority)."""
    need = best_of // 2 + 1
    for side in (0, 1):
        if sum(1 for w in deal_winners if w == side) >= need:
            return side
    return None


def deal_winner(score_change: Sequence[int]) -> int | None:
    a, b = int(score_change[0]), int(score_change[1])
    return None if a == b else (0 if a > b else 1)


def group_winners(group_lists: Sequence[Sequence[int]], places: Mapping[int, int]) -> list[int]:
    """Each group's best placed entrant (by the standings over the group rounds), groups in order."""
    return [min(g, key=lambda e: (places.get(e, 10**6), e)) for g in group_lists if g]


def knockout_seeds(winners: Sequence[int]) -> list[int | None]:
    return bracket(list(winners))
