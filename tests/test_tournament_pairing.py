"""Pairing properties over random fields (issue 18): no rematch or repeated partner while one can be avoided, byes
fair, the same seed the same pairings, whist schedules perfectly balanced; rounds of every format well formed."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.pairing import (
    advance,
    bracket,
    bracket_positions,
    elimination_round,
    groups,
    melee_round,
    round_robin,
    swiss_round,
)
from bot.tournaments.plan import History, Pairing, RoundPlan, pair_key, seed_commitment
from bot.tournaments.whist import BASE_ROUNDS, schedule, whist_round

SETTINGS = settings(max_examples=25, deadline=None)


def _well_formed(plan: RoundPlan, field: list[int], side_size: int) -> None:
    seated = [e for t in plan.tables for e in t.entrants()]
    assert sorted(seated + list(plan.byes)) == sorted(field), "everyone plays or has a bye, once"
    for table in plan.tables:
        assert len(table.sides) == 2 and all(len(s) == side_size for s in table.sides)


def _perfect_without(field: list[int], forbidden: Counter, allowed_byes: set[int] | None = None) -> bool:
    """Whether the field can be paired with no pair from ``forbidden`` (an odd field: the bye to someone allowed)."""
    graph = nx.Graph()
    graph.add_nodes_from(field)
    graph.add_edges_from((a, b) for a, b in itertools.combinations(field, 2) if not forbidden[pair_key(a, b)])
    if len(field) % 2:
        graph.add_node(-1)
        graph.add_edges_from((-1, e) for e in (allowed_byes or set(field)))
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == graph.number_of_nodes()


def _random_results(plan: RoundPlan, rng: random.Random, scores: Counter) -> None:
    for table in plan.tables:
        winner = rng.randrange(len(table.sides))
        for e in table.sides[winner]:
            scores[e] += 2
    for e in plan.byes:
        scores[e] += 2


@SETTINGS
@given(n=st.integers(4, 64), rounds=st.integers(1, 7), seed=st.integers(0, 2**32))
def test_swiss_avoids_rematches_and_spreads_byes(n, rounds, seed):
    field = list(range(100, 100 + n))
    rng = random.Random(seed)
    scores: Counter = Counter()
    history: list[RoundPlan] = []
    for r in range(rounds):
        past = History.of(history)
        fewest = min(past.byes[e] for e in field)
        plan = swiss_round(field, scores, past, seed, r)
        _well_formed(plan, field, 1)
        rematches = [t for t in plan.tables if past.opponents[pair_key(t.sides[0][0], t.sides[1][0])]]
        allowed = {e for e in field if past.byes[e] == fewest}
        if _perfect_without(field, past.opponents, allowed):
            assert not rematches, f"round {r}: a rematch although a pairing without one exists"
        assert all(past.byes[e] == fewest for e in plan.byes), "the bye goes to someone with the fewest byes"
        assert plan == swiss_round(field, scores, past, seed, r), "same seed, same pairings"
        history.append(plan)
        _random_results(plan, rng, scores)
    byes = History.of(history).byes
    assert max(byes[e] for e in field) - min(byes[e] for e in field) <= 1


def test_swiss_keeps_score_groups_together():
    field = list(range(1, 9))
    scores = {1: 4, 2: 4, 3: 2, 4: 2, 5: 2, 6: 2, 7: 0, 8: 0}
    plan = swiss_round(field, scores, History.of([]), 7, 2)
    for table in plan.tables:
        a, b = table.sides[0][0], table.sides[1][0]
        assert scores[a] == scores[b]


def test_swiss_gives_the_bye_to_the_lowest_score_without_one():
    field = [1, 2, 3, 4, 5]
    scores = {1: 4, 2: 2, 3: 2, 4: 0, 5: 0}
    earlier = RoundPlan((Pairing(((1,), (2,))), Pairing(((3,), (5,)))), (4,))
    plan = swiss_round(field, scores, History.of([earlier]), 3, 1)
    assert plan.byes == (5,)


@SETTINGS
@given(n=st.integers(4, 64), rounds=st.integers(1, 6), seed=st.integers(0, 2**32), swiss=st.booleans())
def test_melee_never_repeats_a_partner_while_avoidable(n, rounds, seed, swiss):
    field = list(range(1, n + 1))
    rng = random.Random(seed)
    scores: Counter = Counter()
    history: list[RoundPlan] = []
    for r in range(rounds):
        past = History.of(history)
        plan = melee_round(field, past, seed, r, scores=scores if swiss else None, field_at_start=field)
        _well_formed(plan, field, 2)
        assert len(plan.byes) == n % 4 or whist_round(field, seed, r) == plan
        others = [past.byes[e] for e in field if e not in plan.byes]
        assert all(past.byes[e] <= min(others) for e in plan.byes), "byes go to those who have had fewest"
        playing = [e for e in field if e not in plan.byes]
        repeated = [t for t in plan.tables for side in t.sides if past.partners[pair_key(*side)]]
        if _perfect_without(playing, past.partners):
            assert not repeated, f"round {r}: a repeated partner although new partners for all exist"
        assert plan == melee_round(field, past, seed, r, scores=scores if swiss else None, field_at_start=field)
        history.append(plan)
        _random_results(plan, rng, scores)
    byes = History.of(history).byes
    assert max(byes[e] for e in field) - min(byes[e] for e in field) <= 1


@pytest.mark.parametrize("n", sorted(BASE_ROUNDS))
def test_whist_schedules_are_perfectly_balanced(n):
    rounds = [whist_round(list(range(10, 10 + n)), 5, r) for r in range(n)]
    plans = [p for p in rounds if p is not None]
    assert len(plans) == (n - 1 if n % 4 == 0 else n)
    seen = History.of(plans)
    for a, b in itertools.combinations(range(10, 10 + n), 2):
        assert seen.partners[pair_key(a, b)] == 1, "every pair partners exactly once"
        assert seen.opponents[pair_key(a, b)] == 2, "and opposes exactly twice"
    assert max(seen.byes.values(), default=1) == 1


def test_a_melee_keeps_the_whist_placement_when_each_round_has_its_own_seed():
    # Each round is drawn from its own seed; the schedule's placement is the tournament's, so it stays balanced.
    field = list(range(1, 17))
    rounds = [
        melee_round(field, History.of([]), 1000 + r, r, field_at_start=field, placement_seed=7) for r in range(15)
    ]
    seen = History.of(rounds)
    assert all(seen.partners[pair_key(a, b)] == 1 for a, b in itertools.combinations(field, 2))


def test_melee_uses_the_whist_schedule_only_for_the_field_that_started():
    field = list(range(1, 9))
    plan = melee_round(field, History.of([]), 11, 0, field_at_start=field)
    assert plan == whist_round(field, 11, 0)
    assert schedule(9) is None and whist_round(list(range(9)), 1, 0) is None
    shrunk = melee_round(field, History.of([]), 11, 0, field_at_start=[*field, 9])
    assert len(shrunk.tables) == 2


@pytest.mark.parametrize("n", [2, 5, 8, 11])
def test_round_robin_meets_everyone_once(n):
    plans = round_robin(list(range(n)), 3)
    seen = History.of(plans)
    assert all(seen.opponents[pair_key(a, b)] == 1 for a, b in itertools.combinations(range(n), 2))
    assert all(seen.byes[e] == (1 if n % 2 else 0) for e in range(n))
    assert plans == round_robin(list(range(n)), 3)


def test_groups_snake_the_seeds():
    assert groups(list(range(1, 9)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4]]


def test_single_elimination_bracket_and_advance():
    assert bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    slots = bracket([11, 12, 13, 14, 15, 16])  # 6 entrants: seeds 1 and 2 have byes
    first = elimination_round(slots)
    assert set(first.byes) == {11, 12} and len(first.tables) == 2
    nxt = advance(slots, {14, 16})
    assert sorted(e for e in nxt if e is not None) == [11, 12, 14, 16] and None not in nxt
    assert elimination_round(nxt).byes == () and len(elimination_round(nxt).tables) == 2
    with pytest.raises(ValueError, match="exactly one winner"):
        advance(slots, set())


def test_seed_commitment_is_a_hash_that_reveals_nothing_until_the_seed():
    assert seed_commitment(42) == seed_commitment(42) != seed_commitment(43)
    assert "42" not in seed_commitment(42) and len(seed_commitment(42)) == 64
