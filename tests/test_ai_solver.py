"""The double-dummy solver (rules/ai/solver.py) is exact: on small endings of every game, its value equals a plain
minimax over the engine itself (every legal card the engine allows, the engine's own trick winners and points),
and so does the line it plays (``dd_worlds.finish``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import registry
from rules.actions import Action
from rules.ai import dd_worlds
from rules.ai.heuristic import HeuristicPlayer
from rules.ai.solver import Solver
from rules.ai.view import build_view
from rules.belote.tables import LAST_TRICK_BONUS, TABLES
from rules.cards import JK, NO_TRUMP
from rules.da_bai_fen.order import POINTS
from rules.game import PLAY, Match

# One option set per game and the variants whose play differs (obligations, players, sides, the Joker's suit).
CASES = [
    ("belote", {}),
    ("belote", {"partner_undertrump": False, "forced_undertrump": True}),
    ("belote", {"sans_atout": True, "tout_atout": True}),
    ("five_hundred", {}),
    ("five_hundred", {"players": 3}),
    ("five_hundred", {"players": 5}),
    ("two_hundred", {}),
    ("two_hundred", {"players": 3}),
    ("two_hundred", {"players": 6}),
    ("two_hundred", {"compulsory_trump_lead": True}),
    ("da_bai_fen", {}),
]


def _ending(game: str, options: dict, seed: int, cards_left: int) -> Match | None:
    """A deal of ``game`` played by the heuristic (bids) and at random (cards) until about ``cards_left`` cards
    remain in the seat to move's hand; None when the deal never reaches the play (thrown in)."""
    rng = random.Random(seed)
    m = registry.new_match(game, options)
    m.start_deal(m.random_deal(rng))
    history: list[Action] = []
    h = HeuristicPlayer()
    while m.phase != PLAY:
        if m.to_move is None:
            return None
        a = h.choose_view(build_view(m, m.to_move, history), rng)
        m.apply(a)
        history.append(a)
    while m.phase == PLAY:
        w = m
        pos = dd_worlds.position(w, w.to_move)
        if pos is not None and bin(pos.hands[_turn(pos)]).count("1") <= cards_left and rng.random() < 0.5:
            return m
        mask = m.legal_card_mask()
        cards = [c for c in range(mask.bit_length()) if mask >> c & 1]
        if not cards:
            return None
        dd_worlds.play_move(m, _move(m, rng.choice(cards), rng))
    return None


def _turn(pos) -> int:
    return pos.next_pos[pos.trick[-1][0]] if pos.trick else pos.leader


def _move(m: Match, c: int, rng: random.Random) -> int:
    if m.game_id == "five_hundred" and c == JK and m.trump == NO_TRUMP and not m.tp.trick:
        return c | (rng.choice(m.joker_lead_suits()) + 1) << 7
    return c


def _engine_moves(m: Match) -> list[int]:
    mask = m.legal_card_mask()
    out = []
    for c in range(mask.bit_length()):
        if not mask >> c & 1:
            continue
        if m.game_id == "five_hundred" and c == JK and m.trump == NO_TRUMP and not m.tp.trick:
            out += [c | (s + 1) << 7 for s in m.joker_lead_suits()]
        else:
            out.append(c)
    return out


def _taken(m: Match, counted: list[bool]) -> int:
    """The counted positions' points in the engine's own books (tricks completed so far)."""
    game = m.game_id
    if game == "belote":
        pts = TABLES[m.kind].points
        total = 0
        for i, (_, cards, winner) in enumerate(m._completed):
            if counted[winner]:
                total += sum(pts[c] for c in cards) + (LAST_TRICK_BONUS if i == 7 else 0)
        return total
    if game == "five_hundred":
        return sum(10 for _, _, winner in m.tp.completed if counted[winner])
    if game == "two_hundred":
        pts = dd_worlds.TWO_HUNDRED_POINTS
        return sum(pts[c] for p, mask in enumerate(m.play.taken) if counted[p] for c in range(64) if mask >> c & 1)
    team = 0 if counted[0] else 1
    assert sum(POINTS) == 100
    return m.points[team]


def _minimax(m: Match, counted: list[bool], maximizers: list[bool]) -> int:
    if m.phase != PLAY:
        return _taken(m, counted)
    who = m.to_move
    values = []
    for move in _engine_moves(m):
        w = m.clone()
        dd_worlds.play_move(w, move)
        values.append(_minimax(w, counted, maximizers))
    return max(values) if maximizers[who] else min(values)


def _check(game: str, options: dict, seed: int, cards_left: int) -> None:
    m = _ending(game, options, seed, cards_left)
    if m is None:
        return
    seat = m.to_move
    pos = dd_worlds.position(m, seat)
    assert pos is not None
    expected = _minimax(m.clone(), pos.counted, pos.maximizers) - _taken(m, pos.counted)
    assert Solver(pos.copy()).value() == expected
    # MTD(f) from any first guess (too low, exact, too high, out of range) reaches the same value.
    for guess in (0, expected - 7, expected, expected + 3, 10_000):
        assert Solver(pos.copy()).value(guess) == expected
    plain = Solver(pos.copy())
    plain.prune = False
    assert plain.value() == expected
    # The general path (the fast one's reference: the same search, a trick's state pushed and popped) and the
    # fast one with its table keyed by the exact hands instead of relative ranks.
    general = Solver(pos.copy())
    general.fast = False
    assert general.value() == expected
    exact_keys = Solver(pos.copy())
    exact_keys.rank_keys = False
    assert exact_keys.value() == expected
    # The solved line, played on the engine, takes what the solver promised.
    w = m.clone()
    assert dd_worlds.finish(w, seat)
    assert _taken(w, pos.counted) - _taken(m, pos.counted) == expected


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards_left=st.integers(1, 3))
def test_solver_matches_brute_force_on_small_endings(game: str, options: dict, seed: int, cards_left: int):
    _check(game, options, seed, cards_left)


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_the_solver_allows_the_engines_cards_through_a_whole_deal(game: str, options: dict):
    """From the first lead to the last card (Two Hundred's compulsory first trump lead included), the solver's legal
    cards are the engine's, and a random line keeps both in step (the same trick winners, the same leader)."""
    rng = random.Random(f"{game}:{options}")
    checked = 0
    for seed in range(6):
        m = _ending(game, options, seed, 99)
        if m is None:
            continue
        pos = dd_worlds.position(m, m.to_move)
        assert pos is not None
        solver = Solver(pos)
        while m.phase == PLAY:
            assert solver.turn() == m.to_move
            assert solver.legal(solver.turn()) == m.legal_card_mask()
            move = _move(m, rng.choice([c for c in range(70) if m.legal_card_mask() >> c & 1]), rng)
            solver.play(move)
            dd_worlds.play_move(m, move)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_the_fast_path_agrees_with_the_general_one_on_longer_endings(game: str, options: dict):
    """Four to six cards a hand (too many for the brute force): the fast path with relative-rank keys gives the
    general path's value, and so do solvers that share one table along a deal (what ``dd_worlds`` does: positions
    of one world after different plays, whose relative-rank keys must not meet a position that differs)."""
    rng = random.Random(f"long:{game}:{options}")
    checked = 0
    for seed in range(40):
        if checked >= 4:
            break
        m = _ending(game, options, seed, rng.choice((3, 4) if options.get("players") == 6 else (4, 5, 6)))
        if m is None:
            continue
        pos = dd_worlds.position(m, m.to_move)
        assert pos is not None
        if not Solver(pos.copy()).fast:
            continue
        shared: dict = {}
        w = m.clone()
        while w.phase == PLAY:
            p = dd_worlds.position(w, m.to_move)
            assert p is not None
            reference = Solver(p.copy())
            reference.fast = False
            expected = reference.value()
            assert Solver(p.copy(), None, shared).value() == expected
            moves = _engine_moves(w)
            dd_worlds.play_move(w, rng.choice(moves))
        checked += 1
    assert checked > 0 or game == "five_hundred"


def test_a_trick_led_by_the_joker_at_no_trumps_follows_the_suit_it_named():
    """Five Hundred at no trumps (a no-trump contract, or everyone passed): once the Joker has been led, naming a
    suit, it is in the trick, not in a hand, so the position takes the fast path; the others must still follow
    the suit it named.  The value equals the general path's (and the brute force's on the smallest endings)."""
    found = 0
    for seed in range(400):
        rng = random.Random(seed)
        m = registry.new_match("five_hundred", {})
        m.start_deal(m.random_deal(rng))
        history: list[Action] = []
        h = HeuristicPlayer()
        while m.phase != PLAY and m.to_move is not None:
            a = h.choose_view(build_view(m, m.to_move, history), rng)
            m.apply(a)
            history.append(a)
        if m.phase != PLAY or m.trump != NO_TRUMP:
            continue
        while m.phase == PLAY:
            tp = m.tp
            leading = not tp.trick
            if leading and tp.hands[m.to_move] >> JK & 1 and tp.hands[m.to_move].bit_count() <= 6:
                dd_worlds.play_move(m, JK | (rng.choice(m.joker_lead_suits()) + 1) << 7)
                pos = dd_worlds.position(m, m.to_move)
                assert pos is not None
                solver = Solver(pos.copy())
                assert solver.fast  # the Joker is out of the hands
                general = Solver(pos.copy())
                general.fast = False
                expected = general.value()
                assert solver.value() == expected, seed
                if pos.hands[m.to_move].bit_count() <= 3:
                    assert expected == _minimax(m.clone(), pos.counted, pos.maximizers) - _taken(m, pos.counted)
                found += 1
                break
            cards = [c for c in _engine_moves(m) if c & 127 != JK or not leading]
            dd_worlds.play_move(m, rng.choice(cards or _engine_moves(m)))
        if found >= 25:
            break
    assert found >= 25
