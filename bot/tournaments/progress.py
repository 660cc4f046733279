"""A stored tournament read as the core sees it: past rounds as ``RoundPlan``s, finished tables as
``TableResult``s, and its standings."""

from __future__ import annotations

from bot.storage.tournaments import WHOLE_MATCH, TournamentRow
from bot.tournaments.plan import History, RoundPlan
from bot.tournaments.standings import MATCHPOINTS, Line, TableResult, standings
from rules.boards import matchpoints


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


def duplicate_results(t: TournamentRow) -> list[TableResult]:
    """Each finished table's matchpoints, board by board against the round's other tables that played the board
    (from team 0's side: 2 a table beaten, 1 a tie; team 1 gets the top less that)."""
    out = []
    for r in t.played:
        plan = RoundPlan.from_json(r.plan)
        done = [m for m in r.matches if WHOLE_MATCH in m.results]
        totals = {m.match_no: [0, 0] for m in done}
        boards = sorted({b for m in done for b in m.results if b != WHOLE_MATCH})
        for board in boards:
            played = [m for m in done if board in m.results]
            nets = [m.results[board][0][0] - m.results[board][1][0] for m in played]
            top = 2 * (len(played) - 1)
            for m, mp in zip(played, matchpoints(nets), strict=True):
                totals[m.match_no][0] += mp
                totals[m.match_no][1] += top - mp
        for m in done:
            a, b = totals[m.match_no]
            out.append(TableResult(r.round_no, plan.tables[m.match_no].sides, (a, b)))
    return out


def current_standings(t: TournamentRow, method: str) -> list[Line]:
    adjustments: dict[int, float] = {}
    for a in t.adjustments:
        adjustments[a.entrant_id] = adjustments.get(a.entrant_id, 0) + a.delta
    byes = [(r.round_no, e) for r in t.played for e in RoundPlan.from_json(r.plan).byes]
    active = [e.id for e in t.entrants if e.status in ("registered", "checked_in", "dropped", "withdrawn")]
    results = duplicate_results(t) if method == MATCHPOINTS else table_results(t)
    return standings(active, results, byes, method, adjustments)
