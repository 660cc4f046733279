"""A stored tournament read as the core sees it: past rounds as ``RoundPlan``s, finished tables as
``TableResult``s, and its standings."""

from __future__ import annotations

from bot.storage.tournaments import WHOLE_MATCH, TournamentRow
from bot.tournaments.plan import History, RoundPlan
from bot.tournaments.standings import Line, TableResult, standings


def plans(t: TournamentRow) -> list[RoundPlan]:
    return [RoundPlan.from_json(r.plan) for r in t.played]


def history(t: TournamentRow) -> History:
    return History.of(plans(t))


def table_results(t: TournamentRow) -> list[TableResult]:
    out = []
    for r in t.played:
        plan = RoundPlan.from_json(r.plan)
        for match in r.matches:
            sides = match.results.get(WHOLE_MATCH)
            if sides is None:
                continue
            winners = [i for i, (_, won) in enumerate(sides) if won]
            out.append(
                TableResult(
                    r.round_no,
                    plan.tables[match.match_no].sides,
                    tuple(score for score, _ in sides),
                    winners[0] if len(winners) == 1 else None,
                )
            )
    return out


def current_standings(t: TournamentRow, method: str) -> list[Line]:
    adjustments: dict[int, float] = {}
    for a in t.adjustments:
        adjustments[a.entrant_id] = adjustments.get(a.entrant_id, 0) + a.delta
    byes = [(r.round_no, e) for r in t.played for e in RoundPlan.from_json(r.plan).byes]
    active = [e.id for e in t.entrants if e.status in ("registered", "checked_in", "dropped", "withdrawn")]
    return standings(active, table_results(t), byes, method, adjustments)
