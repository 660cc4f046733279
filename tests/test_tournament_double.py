"""The double elimination's brackets (bot/tournaments/double.py) over fields of 2 to 32 with any results: nobody
plays on after a second loss, everyone but the champion is out after exactly two, the champion has at most one,
and the whole event is 2n - 2 matches, or 2n - 1 with the bracket reset."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.double import DoubleState, advance_round, first_round, losses_of


def play(n: int, seed: int) -> tuple[int, list[tuple[DoubleState, set[int]]]]:
    rng = random.Random(seed)
    field = list(range(1, n + 1))
    state: DoubleState | None = first_round(field)
    rounds: list[tuple[DoubleState, set[int]]] = []
    met: set[frozenset[int]] = set()
    for round_no in range(4 * n + 4):
        assert state is not None
        lost = losses_of(rounds)
        for a, b in state.tables():
            assert lost.get(a, 0) < 2 and lost.get(b, 0) < 2, "a team with two losses was paired"
        won = {rng.choice(pair) for pair in state.tables()}
        rounds.append((state, won))
        met |= {frozenset(p) for p in state.tables()}
        outcome = advance_round(state, won, field, round_no, met)
        if outcome.next is None:
            assert outcome.champion is not None
            return outcome.champion, rounds
        state = outcome.next
    raise AssertionError("a double elimination must end")


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 32), st.integers(0, 10**6))
def test_everyone_but_the_champion_is_out_after_exactly_two_losses(n: int, seed: int) -> None:
    champion, rounds = play(n, seed)
    lost = losses_of(rounds)
    assert lost.get(champion, 0) <= 1
    assert all(lost.get(e, 0) == 2 for e in range(1, n + 1) if e != champion)
    matches = sum(len(state.tables()) for state, _ in rounds)
    assert matches in (2 * n - 2, 2 * n - 1)
    assert matches == 2 * n - 1 if lost.get(champion, 0) == 1 else matches == 2 * n - 2
    for state, _ in rounds:  # every team plays or has a bye, at most once, in a round
        seen = [e for t in state.tables() for e in t] + state.byes()
        assert len(seen) == len(set(seen))


def test_the_losers_bracket_winner_who_wins_the_final_forces_a_reset() -> None:
    state = first_round([1, 2])  # 1 beats 2, then 2 (from the losers' bracket) beats 1, then the reset decides
    assert state.tables() == [(1, 2)]
    out = advance_round(state, {1}, {1, 2}, 0)
    assert out.next is not None and out.next.final == (1, 2) and not out.next.reset
    out = advance_round(out.next, {2}, {1, 2}, 1)
    assert out.next is not None and out.next.reset
    out = advance_round(out.next, {2}, {1, 2}, 2)
    assert out.next is None and out.champion == 2


def test_the_winners_bracket_winner_wins_the_first_final_and_it_is_over() -> None:
    out = advance_round(DoubleState((), (), (1, 2)), {1}, {1, 2}, 5)
    assert out.next is None and out.champion == 1


def test_byes_go_to_the_top_seeds_and_droppers_avoid_an_immediate_rematch() -> None:
    state = first_round([1, 2, 3, 4, 5])
    assert sorted(state.byes()) == [1, 2, 3]
    assert state.tables() == [(4, 5)]
    # 8 teams: in round 2 the survivors of the losers' bracket's first round meet the round-2 droppers, and
    # nobody meets the team that just put them there.
    field = list(range(1, 9))
    state = first_round(field)
    met = {frozenset(p) for p in state.tables()}
    won = {min(p) for p in state.tables()}
    state = advance_round(state, won, field, 0, met).next  # type: ignore[assignment]
    assert state is not None and len(state.losers_tables()) == 2
    met |= {frozenset(p) for p in state.tables()}
    won = {min(p) for p in state.tables()}
    state = advance_round(state, won, field, 1, met).next  # type: ignore[assignment]
    assert state is not None
    assert not any(frozenset(p) in met for p in state.losers_tables())


def test_a_finalist_dropped_by_the_organiser_leaves_the_other_champion() -> None:
    out = advance_round(DoubleState((), (), (1, 2)), set(), {2}, 5)
    assert out.next is None and out.champion == 2


def test_a_team_dropped_leaves_both_brackets() -> None:
    field = [1, 2, 3, 4]
    state = first_round(field)
    out = advance_round(state, {1, 2}, {1, 2, 3}, 0)  # 4 lost and was then dropped
    assert out.next is not None
    assert 4 not in {e for t in out.next.tables() for e in t} | set(out.next.byes())
