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
from rules.belote.auction import CAPOT, CONTRACT_VALUES
from rules.belote.scoring import DealTally, score_deal
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


def _taken(m: Match, counted: list[bool], sweep: int = 0) -> int:
    """The counted positions' points in the engine's own books (tricks completed so far); at Belote, with ``sweep``
    (the position's worth of the takers' capot to the counted side) once the takers have taken all eight tricks."""
    game = m.game_id
    if game == "belote":
        pts = TABLES[m.kind].points
        total = 0
        for i, (_, cards, winner) in enumerate(m._completed):
            if counted[winner]:
                total += sum(pts[c] for c in cards) + (LAST_TRICK_BONUS if i == 7 else 0)
        takers = m.current_auction.high_seat & 1
        if len(m._completed) == 8 and all(winner & 1 == takers for _, _, winner in m._completed):
            total += sweep
        return total
    if game == "five_hundred":
        return sum(10 for _, _, winner in m.tp.completed if counted[winner])
    if game == "two_hundred":
        pts = dd_worlds.TWO_HUNDRED_POINTS
        return sum(pts[c] for p, mask in enumerate(m.play.taken) if counted[p] for c in range(64) if mask >> c & 1)
    team = 0 if counted[0] else 1
    assert sum(POINTS) == 100
    return m.points[team]


def _minimax(m: Match, counted: list[bool], maximizers: list[bool], sweep: int = 0) -> int:
    if m.phase != PLAY:
        return _taken(m, counted, sweep)
    who = m.to_move
    values = []
    for move in _engine_moves(m):
        w = m.clone()
        dd_worlds.play_move(w, move)
        values.append(_minimax(w, counted, maximizers, sweep))
    return max(values) if maximizers[who] else min(values)


def _check(game: str, options: dict, seed: int, cards_left: int) -> None:
    m = _ending(game, options, seed, cards_left)
    if m is None:
        return
    _check_position(m)


def _check_position(m: Match) -> int:
    """The solver's value of the position (every path, every first guess, the line played) against the brute force;
    returns it."""
    seat = m.to_move
    pos = dd_worlds.position(m, seat)
    assert pos is not None
    expected = _minimax(m.clone(), pos.counted, pos.maximizers, pos.sweep) - _taken(m, pos.counted)
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
    assert _taken(w, pos.counted, pos.sweep) - _taken(m, pos.counted) == expected
    return expected


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


# --- Belote's capot in the value -------------------------------------------------------------------------------


def _auction(m: Match, bid, counter: bool, rng: random.Random) -> None:
    """The first seat bids ``bid`` (80 ... 160 or "capot") in a random suit; the next seat counters when asked; the
    rest pass."""
    m.apply(rng.choice([a for a in m.legal_actions() if a.type == "bid" and a.value == bid and a.suit is not None]))
    if counter:
        m.apply(next(a for a in m.legal_actions() if a.type == "counter"))
    while m.phase != PLAY:
        m.apply(next(a for a in m.legal_actions() if a.type == "pass"))


def _sweeping_ending(options: dict, bid, seed: int, cards_left: int) -> Match | None:
    """A Belote deal whose takers have taken every trick so far, stopped with at most ``cards_left`` cards in the
    mover's hand: the takers play their strongest legal card, the defenders their weakest (None when the defenders
    took a trick all the same)."""
    rng = random.Random(seed)
    m = registry.new_match("belote", options)
    m.start_deal(m.random_deal(rng))
    _auction(m, bid, False, rng)
    takers = m.current_auction.high_seat & 1
    while m.phase == PLAY:
        pos = dd_worlds.position(m, m.to_move)
        assert pos is not None
        if not pos.sweep_alive:
            return None
        if pos.hands[m.to_move].bit_count() <= cards_left and rng.random() < 0.5:
            return m
        es, st_, trump, led = pos.es, pos.st, pos.trump, pos.led
        mask = m.legal_card_mask()
        strength = {c: (es[c] == trump, es[c] == led, st_[c]) for c in range(mask.bit_length()) if mask >> c & 1}
        dd_worlds.play_move(m, (max if m.to_move & 1 == takers else min)(strength, key=strength.__getitem__))
    return None


@pytest.mark.parametrize(
    ("options", "bid"),
    [({}, 80), ({}, "capot"), ({"scoring": "announced"}, 120), ({"sans_atout": True, "tout_atout": True}, 100)],
    ids=["made-points", "capot-contract", "announced", "all-kinds"],
)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cards_left=st.integers(1, 3))
def test_the_takers_capot_is_in_the_value(options: dict, bid, seed: int, cards_left: int):
    """§9.2: "In the case of a capot, meaning all eight tricks won by the same team, the Dix de Der is worth 100
    points"; §10.1.1: a capot contract is made by "win[ning] all eight tricks".  With the takers holding every
    trick so far, the solver (every path) values the ending as the brute force does with the sweep's worth added
    when the takers take the rest, from either side's seat."""
    m = _sweeping_ending(options, bid, seed, cards_left)
    if m is None:
        return
    _check_position(m)


# (options, bid, countered, the worth by hand): a point contract made scores the takers' points + its value, so the
# capot's 90 more points are worth 45; countered or announced, a point contract scores the same with or without
# it.  A capot contract: made (252 + 250) against failed (160 + 250 to the defenders): (502 + 410) / 2; countered,
# (160 + 250) x 2 either way; announced, 250 made against 410 failed; with 162 for a failed contract, (502 + 412) / 2.
WORTH = [({}, 80, False, 45), ({}, 80, True, 0), ({"scoring": "announced"}, 80, False, 0), ({}, "capot", False, 456),
         ({}, "capot", True, 820), ({"scoring": "announced"}, "capot", False, 330),
         ({"failed_points": 162}, "capot", False, 457)]  # fmt: skip


@pytest.mark.parametrize(("options", "bid", "counter", "by_hand"), WORTH)
def test_what_the_takers_capot_is_worth_is_the_engines_score(options: dict, bid, counter: bool, by_hand: int):
    """The sweep's worth to the takers is half the change the engine's own scoring gives the difference between the
    sides' scores, between the takers taking all eight tricks and the same points with one empty trick lost (the
    value counts card points, each one to one side and not the other); to the defenders, minus that; nothing where
    the capot scores nothing (a countered or announced point contract)."""
    rng = random.Random(7)
    m = registry.new_match("belote", options)
    m.start_deal(m.random_deal(rng))
    _auction(m, bid, counter, rng)
    takers = m.current_auction.high_seat & 1

    def difference(points: int, tricks: int) -> int:
        a = m.current_auction
        tally = DealTally(takers, CONTRACT_VALUES[a.high_level], a.high_level == CAPOT, a.multiplier,
                          (points, 0) if takers == 0 else (0, points), (tricks, 8 - tricks) if takers == 0 else
                          (8 - tricks, tricks), (0, 0))  # fmt: skip
        change = score_deal(tally, m.rules).score_change
        return change[takers] - change[1 - takers]

    worth = (difference(252, 8) - difference(162, 7)) // 2
    assert worth == by_hand
    for seat in range(4):
        pos = dd_worlds.position(m, seat)
        assert pos is not None and pos.sweep_alive
        assert pos.sweep == (worth if seat & 1 == takers else -worth)
        assert pos.sweep_counted == (seat & 1 == takers)
