"""The head-to-head formats' pure core (bot/tournaments/formats.py): round robin groups then a knock-out of their
winners, single and double elimination to one entrant left, and the best-of-N majority."""

from __future__ import annotations

import random

from bot.tournaments import formats
from bot.tournaments.plan import RoundPlan


def _play_knockout(plan: dict, rng: random.Random) -> formats.Played:
    return formats.Played(plan, [rng.randrange(2) for _ in plan["tables"]])


def test_single_elimination_runs_to_one_champion_with_byes_to_the_top_seeds():
    rng = random.Random(3)
    for n in range(2, 20):
        plan: dict | None = formats.knockout_plan(formats.knockout_seeds(list(range(n))))
        rounds = 0
        last = None
        while plan is not None:
            assert plan["tables"] or plan["byes"]
            last = _play_knockout(plan, rng)
            plan = formats.next_knockout(last)
            rounds += 1
        assert last is not None and formats.champion(last) is not None
        assert rounds == max(1, (n - 1).bit_length()), "log2 rounds, the last a final"
        assert len(last.plan["tables"]) == 1


def test_top_seeds_have_the_byes():
    plan = formats.knockout_plan(formats.knockout_seeds([10, 11, 12, 13, 14]))
    assert sorted(plan["byes"]) == [10, 11, 12] and plan["tables"] == [[[13], [14]]]


def test_double_elimination_runs_from_stored_plans_to_a_champion_with_at_most_one_loss():
    rng = random.Random(5)
    for n in range(2, 12):
        field = list(range(n))
        played: list[formats.Played] = []
        for _ in range(4 * n + 4):
            plan = formats.double_elimination_next(field, played)
            if plan is None:
                break
            assert RoundPlan.from_json(plan).tables, "every round of a double elimination plays a match"
            played.append(_play_knockout(plan, rng))
        else:
            raise AssertionError("a double elimination must end")
        lost = formats.losses(played)
        champion = formats.champion(played[-1], field, played)
        assert champion is not None and lost.get(champion, 0) <= 1
        assert all(lost.get(e, 0) == 2 for e in field if e != champion), "out after exactly two losses"


def test_round_robin_groups_meet_everyone_in_their_group_once():
    teams = list(range(10))
    schedule = formats.group_schedule(teams, 2, seed=9)
    groups = formats.group_of(teams, 2)
    assert [len(g) for g in groups] == [5, 5]
    met = [frozenset(e for side in t.sides for e in side) for r in schedule for t in r.tables]
    assert len(met) == len(set(met)) == 2 * 10, "each group of five: ten matches, none twice"
    for pair in met:
        assert any(pair <= set(g) for g in groups), "matches stay inside a group"
    winners = formats.group_winners(groups, {e: e for e in teams})
    assert winners == [min(g) for g in groups]


def test_best_of_three_is_a_majority_of_deals_won():
    assert formats.best_of_winner([0, 1], 3) is None
    assert formats.best_of_winner([0, None, 0], 3) == 0, "a level deal counts for neither side"
    assert formats.best_of_winner([1, 0, 1], 3) == 1
    assert formats.deal_winner([80, 82]) == 1 and formats.deal_winner([0, 0]) is None
