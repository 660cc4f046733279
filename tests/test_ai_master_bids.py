"""The master's calls at Belote, Five Hundred and Two Hundred (rules/ai/master_bids.py): each call valued by the
contract it ends in, levels and counters scored by the game's own scoring on one shared play per contract."""

from __future__ import annotations

import random

import pytest

from rules import registry
from rules.actions import Action
from rules.ai import fallback, master_bids
from rules.ai.explain import explain_view
from rules.ai.heuristic import HeuristicPlayer
from rules.ai.knowledge import Knowledge
from rules.ai.master import MasterPlayer
from rules.ai.sampler import sample_world
from rules.ai.view import build_view
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER
from tests.test_ai_variants import CASES


def _auction(game: str, seed: int, calls: int):
    """A deal whose auction the heuristic has run for ``calls`` calls (or to its last call); (match, history)."""
    rng = random.Random(seed)
    m = registry.new_match(game, {})
    m.start_deal(m.random_deal(rng))
    history: list[Action] = []
    while m.phase == BIDDING and len(history) < calls:
        a = HeuristicPlayer().choose_view(build_view(m, m.to_move, history), rng)
        m.apply(a)
        history.append(a)
    return m, history


def _facts(play):
    """What a play produced, apart from the contract's own result: Belote's card points, tricks and belote per
    team; Five Hundred's trick winners and partner."""
    if isinstance(play, dict):
        return play["card_points"], play["tricks"], play["belote"]
    return play


@pytest.mark.parametrize("game", ["belote", "five_hundred", "two_hundred"])
def test_a_call_scored_from_the_shared_play_is_the_engines_score_of_that_contract(game):
    """Every candidate call in sampled worlds: the contract's score computed from the play of the first call that
    ended in it (``_score``) equals what the engine scores when that very contract is played out the same way."""
    checked = 0
    for seed in range(20):
        m, history = _auction(game, seed, 1)
        if m.phase != BIDDING:
            continue
        view = build_view(m, m.to_move, history)
        k = Knowledge(view)
        base = HeuristicPlayer().choose_view(view, random.Random(0))
        world = sample_world(view, random.Random(seed), k)
        assert world is not None
        shared: dict = {}
        for call in master_bids.candidates(view, base):
            w = world.clone()
            w.apply(call)
            history = [*view.history, call]
            master_bids.finish_auction(w, history, random.Random(1))
            key = master_bids.contract_key(w) if w.phase != BIDDING else None
            if key is None:
                continue
            played = w.clone()
            play = master_bids._play(played, history, view.seat, k, random.Random(2))
            assert play is not None
            engine = k.ad.utility(played, view.seat, played.deal_results[-1])
            # The play does not depend on the level or a counter: one play per contract suit and holder.
            if key in shared:
                again = master_bids._play(w.clone(), history, view.seat, k, random.Random(2))
                assert _facts(again) == _facts(shared[key]) == _facts(play), (seed, call)
            shared[key] = play
            assert master_bids._score(w, view.seat, play, k) == engine, (seed, call)
            checked += 1
    assert checked >= 10


def test_nobody_outbids_their_own_side_when_the_auction_is_played_out():
    for seed in range(20):
        m, history = _auction("belote", seed, 0)
        master_bids.finish_auction(m, history, random.Random(seed))
        assert m.phase != BIDDING
        bids = [a for a in history if a.type == "bid"]
        for before, after in zip(bids, bids[1:], strict=False):
            assert (before.seat - after.seat) % 2 == 1, (seed, history)


def test_the_calls_shared_by_one_worlds_candidates_are_the_calls_made_without_sharing():
    """The Belote calls remembered by auction state within a world give the same auctions as asking each time."""
    compared = 0
    for seed in range(15):
        m, history = _auction("belote", seed, 1)
        if m.phase != BIDDING:
            continue
        view = build_view(m, m.to_move, history)
        k = Knowledge(view)
        world = sample_world(view, random.Random(seed), k)
        assert world is not None
        calls: dict = {}
        base = HeuristicPlayer().choose_view(view, random.Random(0))
        for call in master_bids.candidates(view, base):
            shared, plain = world.clone(), world.clone()
            for w, memo in ((shared, calls), (plain, None)):
                w.apply(call)
                master_bids.finish_auction(w, [*view.history, call], random.Random(1), memo)
            assert shared.current_auction.calls == plain.current_auction.calls, (seed, call)
            compared += 1
    assert compared > 20


@pytest.mark.parametrize("game", ["belote", "five_hundred", "two_hundred"])
def test_the_master_calls_legally_and_reproducibly_and_says_why(game):
    found = 0
    for seed in range(12):
        m, history = _auction(game, seed, 2)
        if m.phase != BIDDING:
            continue
        view = build_view(m, m.to_move, history)
        with fallback.strict():
            first = MasterPlayer(None, max_worlds=6).decide(view, random.Random(3))
            second = MasterPlayer(None, max_worlds=6).decide(view, random.Random(3))
        assert first.action in view.legal and first.action == second.action
        if first.stats:
            found += 1
            assert first.worlds == 6 and all(s.n == 6 for s in first.stats)
            action, line = explain_view("master", view, random.Random(1), 0.05)
            assert action in view.legal and "likely deals" in str(line)
    assert found


def test_a_counter_is_valued_as_the_doubled_score():
    """A counter's value in a world is exactly what doubling the same play's contract gives (made: (160 + value) x 2
    for the takers, failed: the same to the defenders); it is a candidate when ``SEARCH_COUNTERS`` says so or when
    it is the heuristic's call."""
    for seed in range(40):
        m, history = _auction("belote", seed, 4)
        if m.phase != BIDDING:
            continue
        view = build_view(m, m.to_move, history)
        counter = next((a for a in view.legal if a.type == "counter"), None)
        if counter is None:
            continue
        base = HeuristicPlayer().choose_view(view, random.Random(0))
        assert (counter in master_bids.candidates(view, base)) == (master_bids.SEARCH_COUNTERS or base == counter)
        k = Knowledge(view)
        world = sample_world(view, random.Random(seed), k)
        assert world is not None
        w = world.clone()
        w.apply(counter)
        history = [*view.history, counter]
        master_bids.finish_auction(w, history, random.Random(1))
        if w.current_auction.multiplier != 2:
            continue  # recountered
        play = master_bids._play(w.clone(), history, view.seat, k, random.Random(2))
        value = w.current_auction.high_level
        made_by_takers = play["made"]
        worth = (160 + (80 + 10 * value)) * 2
        takers = w.current_auction.high_seat & 1
        belote = play["belote"]
        mine = view.seat & 1
        change = [belote[0], belote[1]]
        change[takers if made_by_takers else 1 - takers] += worth
        assert master_bids._score(w, view.seat, play, k) == change[mine] - change[1 - mine]
        return
    pytest.fail("no counter position found")


@pytest.mark.parametrize(
    ("game", "options"), [c for c in CASES if c.values[0] in ("belote", "five_hundred", "two_hundred")]
)
def test_the_master_calls_in_every_option_set_without_falling_back(game: str, options: dict):
    """Every option set and table size of the three games whose calls the master values itself: the auctions of
    three deals called by the master (two worlds a call), the rest of each deal by the heuristic."""
    from rules.ai.master import MasterPlayer

    match = registry.new_match(game, options)
    rng = random.Random(f"{game}:{options}:calls")
    master = MasterPlayer(None, max_worlds=2)
    searched = 0
    with fallback.strict():
        for _ in range(3):
            if match.phase == GAME_OVER:
                break
            match.start_deal(match.random_deal(rng))
            history: list[Action] = []
            while match.phase not in (BETWEEN_DEALS, GAME_OVER):
                view = build_view(match, match.to_move, history)
                if match.phase == BIDDING:
                    decision = master.decide(view, rng)
                    searched += bool(decision.stats)
                    action = decision.action
                else:
                    action = HeuristicPlayer().choose_view(view, rng)
                assert action in view.legal or match.phase != BIDDING
                match.apply(action)
                history.append(action)
    # Five Hundred with five or six players: hands of eight cards, which the expert's candidates seldom bid on.
    assert searched or match.players > 4


def test_five_hundred_calls_are_the_plain_experts():
    """``EXPERT_CALLS``: at Five Hundred the master's calls are the expert's own search (unweighted worlds), the
    same call from the same worlds; the master's evaluation (``master_bids``) measured worse there."""
    from rules.ai.expert import ExpertPlayer
    from rules.ai.master import EXPERT_CALLS, OWN_BIDDING

    assert "five_hundred" in EXPERT_CALLS and "five_hundred" not in OWN_BIDDING
    compared = 0
    for seed in range(12):
        m, history = _auction("five_hundred", seed, 1)
        if m.phase != BIDDING:
            continue
        view = build_view(m, m.to_move, history)
        with fallback.strict():
            master = MasterPlayer(None, max_worlds=4).decide(view, random.Random(seed))
            expert = ExpertPlayer(None, max_worlds=4).decide(view, random.Random(seed))
        assert master.action == expert.action
        assert [s.action for s in master.stats] == [s.action for s in expert.stats]
        assert [s.values for s in master.stats] == [s.values for s in expert.stats]
        compared += bool(master.stats)
    assert compared


def test_the_master_leaves_the_heuristics_call_only_when_clearly_better_by_its_games_caution(monkeypatch):
    """A Belote call other than the heuristic's (the first candidate) is made only when it beats the heuristic's
    world by world by ``GAME_BID_CAUTION['belote']`` standard errors; with an endless caution, only for a call that
    gains the same amount in every world (no spread to weigh it against)."""
    caution = master_bids.GAME_BID_CAUTION["belote"]
    views = []
    for seed in range(16):
        m, history = _auction("belote", seed, seed % 3)
        if m.phase == BIDDING:
            views.append(build_view(m, m.to_move, history))
    left = 0
    for view in views:
        with fallback.strict():
            d = MasterPlayer(None, max_worlds=8).decide(view, random.Random(5))
        if not d.stats:
            continue
        base = d.stats[0]
        if d.action != base.action:
            left += 1
            best = next(s for s in d.stats if s.action == d.action)
            assert master_bids._clearly_better(best.values, base.values, caution)
    monkeypatch.setitem(master_bids.GAME_BID_CAUTION, "belote", 1e9)
    for view in views:
        with fallback.strict():
            d = MasterPlayer(None, max_worlds=8).decide(view, random.Random(5))
        if d.stats and d.action != d.stats[0].action:
            best = next(s for s in d.stats if s.action == d.action)
            gains = {v - r for v, r in zip(best.values, d.stats[0].values, strict=False)}
            assert len(gains) == 1 and gains.pop() > 0
    assert left  # the caution lets some calls through (else this test would not test it)


def test_own_side_holds_bid_reads_the_last_bid_of_the_auction():
    m, _ = _auction("two_hundred", 0, 0)
    first = m.to_move
    history = [Action(first, "bid", value=50), Action((first + 1) % 4, "pass")]
    view = build_view_of(m, history)
    assert view.seat == (first + 2) % 4
    assert master_bids.own_side_holds_bid(view, Knowledge(view))  # my partner's 50 is the high bid
    history = [Action(first, "bid", value=50), Action((first + 1) % 4, "bid", value=55)]
    view = build_view_of(m, history)
    assert not master_bids.own_side_holds_bid(view, Knowledge(view))  # the opponent's 55 is


def test_own_side_holds_bid_reads_a_kept_bid():
    """The seed's example: "North deals, East passes, South bids 60, West bids 75, North 'keeps' 75, East cannot
    bid, having already passed, South passes. If West passes now, North is the contractor" -- after North's keep the
    high bid is North and South's."""
    rng = random.Random(0)
    m = registry.new_match("two_hundred", {"dealer_keeps": True})
    m.start_deal(m.random_deal(rng))
    east = m.to_move
    south, west, north = ((east + i) % 4 for i in (1, 2, 3))
    history = [Action(east, "pass"), Action(south, "bid", value=60), Action(west, "bid", value=75)]
    view = build_view_of(m, history)
    assert view.seat == north and any(a.type == "keep" for a in view.legal)
    history.append(Action(north, "keep"))
    view = build_view_of(m, history)
    assert view.seat == south
    assert master_bids.own_side_holds_bid(view, Knowledge(view))  # my partner North kept West's 75
    history.append(Action(south, "pass"))
    view = build_view_of(m, history)
    assert view.seat == west
    assert not master_bids.own_side_holds_bid(view, Knowledge(view))  # West's own 75 was taken by North


def build_view_of(m, history):
    """The view of the seat to move after ``history`` is applied to a copy of ``m``."""
    w = m.clone()
    for a in history:
        w.apply(a)
    return build_view(w, w.to_move, history)


def test_a_raise_of_my_own_sides_bid_must_be_clearly_better_than_the_pass(monkeypatch):
    """``PASS_REFERENCE``: at Two Hundred, when my side holds the high bid, the caution's reference is the pass
    (the master's model of the auction has nobody outbid their own side, and a made contract scores its points, not
    its bid), so a raise is made only when it beats the pass world by world by the caution."""
    monkeypatch.setitem(master_bids.PASS_REFERENCE, "two_hundred", "own")
    caution = master_bids.GAME_BID_CAUTION.get("two_hundred", master_bids.BID_CAUTION)
    found = 0
    for seed in range(60):
        for calls in (1, 2, 3):
            m, history = _auction("two_hundred", seed, calls)
            if m.phase != BIDDING:
                continue
            view = build_view(m, m.to_move, history)
            k = Knowledge(view)
            base = HeuristicPlayer().choose_view(view, random.Random(0))
            if not (master_bids.own_side_holds_bid(view, k) and base.type == "bid"):
                continue
            with fallback.strict():
                d = MasterPlayer(None, max_worlds=8).decide(view, random.Random(5))
            assert d.action in view.legal
            if d.stats:
                found += 1
                passing = next(s for s in d.stats if s.action.type == "pass")
                if d.action.type != "pass":
                    best = next(s for s in d.stats if s.action == d.action)
                    assert master_bids._clearly_better(best.values, passing.values, caution)
    assert found  # positions where the heuristic raises its partner exist


def test_a_bid_over_the_other_sides_bid_is_valued_less_by_the_overcall_discount(monkeypatch):
    """``OVERCALL_DISCOUNT``: when the other side holds the high bid, every bid's value in every world is the same
    world's value less the discount (the pass's is unchanged); with my side's bid standing, or before any bid,
    nothing is taken off."""
    monkeypatch.setitem(master_bids.PASS_REFERENCE, "two_hundred", "own")
    kinds = set()
    for seed in range(30):
        for calls in (0, 1, 2):
            m, history = _auction("two_hundred", seed, calls)
            if m.phase != BIDDING:
                continue
            view = build_view(m, m.to_move, history)
            k = Knowledge(view)
            over = any(a.type == "bid" for a in history) and not master_bids.own_side_holds_bid(view, k)
            monkeypatch.setitem(master_bids.OVERCALL_DISCOUNT, "two_hundred", 0.0)
            with fallback.strict():
                plain = MasterPlayer(None, max_worlds=4).decide(view, random.Random(seed))
            monkeypatch.setitem(master_bids.OVERCALL_DISCOUNT, "two_hundred", 50.0)
            with fallback.strict():
                less = MasterPlayer(None, max_worlds=4).decide(view, random.Random(seed))
            assert less.action in view.legal
            if not plain.stats:
                continue
            kinds.add(over)
            for p, q in zip(plain.stats, less.stats, strict=True):
                assert p.action == q.action
                off = 50.0 if over and p.action.type == "bid" else 0.0
                assert q.values == pytest.approx([v - off for v in p.values])
    assert kinds == {True, False}  # both kinds of position were searched
