"""Standings per format (bot/tournaments/standings.py), worked by hand."""

from __future__ import annotations

import pytest

from bot.tournaments.standings import CUMULATIVE, LEVELS, MATCH_POINTS, TableResult, standings


def test_match_points_with_buchholz_then_difference():
    # Round 1: A beats B 1000-800, C beats D 1000-950.  Round 2: A beats C 1000-900, B beats D 1000-700.
    a, b, c, d = 1, 2, 3, 4
    results = [
        TableResult(0, ((a,), (b,)), (1000, 800)),
        TableResult(0, ((c,), (d,)), (1000, 950)),
        TableResult(1, ((a,), (c,)), (1000, 900)),
        TableResult(1, ((b,), (d,)), (1000, 700)),
    ]
    lines = standings([a, b, c, d], results, [], MATCH_POINTS)
    # B and C both have 2; Buchholz: C met A (4) and D (0) = 4, B met A (4) and D (0) = 4; difference: B +100
    # (-200 then +300), C -50 (+50 then -100): B is second.
    assert [(ln.entrant, ln.score, ln.buchholz) for ln in lines] == [(a, 4, 4), (b, 2, 4), (c, 2, 4), (d, 0, 4)]
    assert [ln.place for ln in lines] == [1, 2, 3, 4]
    assert (lines[1].difference, lines[2].difference) == (100, -50)


def test_draws_byes_and_shared_places():
    results = [TableResult(0, ((1,), (2,)), (500, 500))]
    lines = standings([1, 2, 3], results, [(0, 3)], MATCH_POINTS)
    assert lines[0].entrant == 3 and lines[0].score == 2 and lines[0].byes == 1
    assert [(ln.place, ln.score, ln.drawn) for ln in lines[1:]] == [(2, 1, 1), (2, 1, 1)]


def test_a_declared_winner_beats_the_scores():
    # A game played "first to the target" can end with the loser ahead on this table's points (a set-back side).
    result = TableResult(0, ((1,), (2,)), (300, 450), winner=0)
    lines = standings([1, 2], [result], [], MATCH_POINTS)
    assert lines[0].entrant == 1 and lines[0].won == 1


def test_cumulative_melee_each_player_keeps_their_sides_points_and_byes_get_the_average():
    r0 = [TableResult(0, ((1, 2), (3, 4)), (1200, 800))]
    r1 = [TableResult(1, ((1, 3), (2, 5)), (700, 1300))]
    lines = standings(range(1, 6), r0 + r1, [(0, 5), (1, 4)], CUMULATIVE)
    got = {ln.entrant: ln.score for ln in lines}
    # 5's bye in round 0 is worth that round's average side score, (1200 + 800) / 2.
    assert got == {1: 1900, 2: 2500, 3: 1500, 4: 1800, 5: 2300}
    assert lines[0].entrant == 2


def test_levels_and_adjustments():
    results = [TableResult(0, ((1,), (2,)), (3, 1)), TableResult(1, ((1,), (2,)), (0, 2))]
    lines = standings([1, 2], results, [], LEVELS, adjustments={2: -2})
    assert [(ln.entrant, ln.score, ln.adjustment) for ln in lines] == [(1, 3, 0), (2, 1, -2)]
    with pytest.raises(ValueError):
        standings([1], [], [], "elo")
