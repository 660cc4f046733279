"""The ``master`` level: registered wherever levels are listed, offered by the bot's computer seats, giving /hint's
suggestion, solving the ending, and weighting worlds by the other players' cards."""

from __future__ import annotations

import dataclasses
import random

import pytest

import cogs.hint
import rules.ai.players
from rules import registry
from rules.actions import Action
from rules.ai import fallback
from rules.ai.explain import explain_view
from rules.ai.heuristic import HeuristicPlayer
from rules.ai.knowledge import Knowledge
from rules.ai.master import BID_SURPRISE, MASTER_CAUTION, READ_CALLS, SURPRISE, MasterPlayer, _PlayJudge
from rules.ai.players import LEVELS, make_ai_player
from rules.ai.sampler import replay_world, sample_world
from rules.ai.view import build_view
from rules.cards import JK, cards_of
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY
from rules.players import PLAYERS, SEARCHING, STRONGEST, make_player
from tests.botkit.harness import bot_world


def test_the_master_is_a_level_everywhere_levels_are_listed():
    assert "master" in LEVELS and "master" in PLAYERS and "master" in SEARCHING and STRONGEST == "master"
    assert isinstance(make_player("master", 0.01), MasterPlayer)
    assert isinstance(make_ai_player("master", worlds=2), MasterPlayer)
    assert cogs.hint.HINT_LEVEL == "master"


def _deal_to(game: str, seed: int, cards_left: int, odd_seat: int | None = None):
    """A deal played by the heuristic (``odd_seat``: at random) until the seat to move holds ``cards_left``
    cards; (match, the deal's cards, history)."""
    rng = random.Random(seed)
    m = registry.new_match(game, {})
    cards = m.random_deal(rng)
    m.start_deal(cards)
    history: list[Action] = []
    while True:
        seat = m.to_move
        assert seat is not None
        view = build_view(m, seat, history)
        if m.phase == PLAY and view.hand_mask.bit_count() <= cards_left:
            return m, cards, history
        a = rng.choice(view.legal) if seat == odd_seat and m.phase == PLAY else HeuristicPlayer().choose_view(view, rng)
        m.apply(a)
        history.append(a)


def _views(game, seeds, cards_left):
    """(seed, the view of the seat to move) of heuristic deals of ``game`` played to each number of cards in hand."""
    for seed in seeds:
        for left in cards_left:
            m, _, history = _deal_to(game, seed, left)
            yield seed, build_view(m, m.to_move, history)


def test_in_the_ending_every_world_is_solved_and_the_hint_says_so():
    m, _, history = _deal_to("belote", 4, 3)
    view = build_view(m, m.to_move, history)
    with fallback.strict():
        decision = MasterPlayer(None, max_worlds=4).decide(view, random.Random(1))
        action, line = explain_view("master", view, random.Random(1), 0.05)
    assert decision.solved == 3 and decision.weighted and decision.worlds == 4
    assert action in view.legal
    line = str(line)
    assert "likely deals" in line and "for your side" in line, line
    assert "the last 3 tricks worked out card by card" in line, line


def test_worlds_that_explain_the_cards_played_weigh_more():
    """The real deal replayed: where everyone played the heuristic's card, weight 1; where a seat played at random,
    each of its surprising cards costs SURPRISE["belote"]."""
    for odd, expect_surprise in ((None, False), (1, True)):
        m, cards, history = _deal_to("belote", 11, 4, odd_seat=odd)
        view = build_view(m, 0 if m.to_move != 0 else 2, history)
        k = Knowledge(view)
        judge = _PlayJudge(view, k)
        world = replay_world(view, k, cards, [0] * 4, judge.observe)
        assert world is not None
        assert judge.judged >= 3
        if expect_surprise:
            assert judge.weight <= SURPRISE["belote"]
            assert judge.weight == pytest.approx(SURPRISE["belote"] ** judge.surprises)
        else:
            assert judge.weight == 1.0 and judge.surprises == 0


@pytest.fixture
async def world(tmp_path, monkeypatch):
    monkeypatch.setattr(rules.ai.players, "DEFAULT_BUDGET_S", 0.02)  # the computers think briefly in tests
    monkeypatch.setattr(cogs.hint, "HINT_BUDGET_S", 0.05)
    async with bot_world(tmp_path) as w:
        yield w


async def test_the_bot_seats_master_computers_that_play(world):
    async with world.running() as client:
        lobby = await world.new_table(world.alice, "belote")
        for _ in range(3):
            r = await world.select(world.alice, lobby, "cpu_level", ["master"])
        assert "(master)" in r.message.content or "🤖" in r.message.content
        table = client.manager.tables[int(lobby.custom_ids()[0].split(":")[1])]
        assert [s.computer for s in table.seats.values() if s.computer] == ["master"] * 3
        await world.click(world.alice, lobby, "start")
        await world.settle(client)
        # The computers bid (and play) until it is Alice's turn, or the deal was thrown in and dealt again.
        assert table.match is not None and table.match.to_move == table.seat_of(world.alice.id)
        assert len(table.record.deals[-1].actions) >= 1 or table.match.deal_index > 0


def test_da_bai_fen_worlds_are_weighted_by_the_play(monkeypatch):
    """Da Bai Fen's worlds are weighted by the play (read on the bitmasks since the twenty-second session)."""
    import rules.ai.master as master

    judges: list = []

    class Judge(master._PlayJudge):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            judges.append(self)

    monkeypatch.setattr(master, "_PlayJudge", Judge)
    m, _, history = _deal_to("da_bai_fen", 5, 8)
    view = build_view(m, m.to_move, history)
    with fallback.strict():
        decision = MasterPlayer(None, max_worlds=3).decide(view, random.Random(2))
    assert decision.action in view.legal and decision.worlds == 3
    assert judges and all(j.dbf for j in judges)


def test_five_hundred_worlds_are_not_weighted_by_the_play(monkeypatch):
    """Five Hundred's worlds are searched unweighted (reading the play cost worlds a decision and measured no
    better)."""
    import rules.ai.master as master

    def refuse(*args, **kwargs):
        raise AssertionError("the play was read")

    monkeypatch.setattr(master, "_PlayJudge", refuse)
    m, _, history = _deal_to("five_hundred", 5, 6)
    view = build_view(m, m.to_move, history)
    with fallback.strict():
        decision = MasterPlayer(None, max_worlds=3).decide(view, random.Random(2))
    assert decision.action in view.legal
    assert decision.worlds == 3 or decision.reason in ("only move", "only candidate")


def test_worlds_where_a_seat_would_not_have_made_its_calls_weigh_less():
    """The auction read as the play is: a world where another seat's pass or bid is not the call the heuristic
    would make from that world's hand costs BID_SURPRISE (a pass says as much as a bid)."""
    for game in sorted(READ_CALLS):
        for seed in range(40):
            rng = random.Random(seed)
            m = registry.new_match(game, {})
            cards = m.random_deal(rng)
            m.start_deal(cards)
            history: list[Action] = []
            odd = None
            while m.phase == "bidding":
                seat = m.to_move
                view = build_view(m, seat, history)
                a = HeuristicPlayer().choose_view(view, rng)
                if odd is None and seat != 0 and a.type == "bid":
                    # This seat passes with a hand the heuristic bids with.
                    a = next(x for x in view.legal if x.type == "pass")
                    odd = seat
                m.apply(a)
                history.append(a)
            if odd is not None and m.phase not in ("between_deals", "game_over"):
                break
        else:
            raise AssertionError(f"no {game} deal with a surprising pass")
        view = build_view(m, 0, history)
        k = Knowledge(view)
        judge = _PlayJudge(view, k)
        assert replay_world(view, k, cards, [0] * 4, judge.observe) is not None
        assert judge.weight <= BID_SURPRISE, game
        # The same auction without the surprising pass: every call is the heuristic's own.
        rng = random.Random(seed)
        m2 = registry.new_match(game, {})
        m2.start_deal(m2.random_deal(rng))
        plain: list[Action] = []
        while m2.phase == "bidding":
            a = HeuristicPlayer().choose_view(build_view(m2, m2.to_move, plain), rng)
            m2.apply(a)
            plain.append(a)
        view2 = build_view(m2, 0 if m2.to_move != 0 else 1, plain)
        k2 = Knowledge(view2)
        judge2 = _PlayJudge(view2, k2)
        world = replay_world(view2, k2, cards, [0] * 4, judge2.observe)
        assert world is not None and judge2.weight == 1.0, game


@pytest.mark.parametrize("game", ["belote", "two_hundred", "five_hundred", "da_bai_fen"])
def test_the_real_deal_played_by_the_heuristic_holds_no_surprise(game):
    """The judge predicts each card from what its player knew (the voids shown so far, whether trumps are still
    out): replaying the real deal of heuristic players finds no surprise.  Without that knowledge it found one to
    four in two Belote deals of three, weighing the true world down."""
    judged = 0
    for seed in range(12):
        m, cards, history = _deal_to(game, seed, 3)
        view = build_view(m, m.to_move, history)
        k = Knowledge(view)
        judge = _PlayJudge(view, k)
        discards = [0] * 4  # the real hidden discards (Five Hundred's soloist's), for the replay
        for a in history:
            if a.type == "discard":
                discards[a.seat] |= sum(1 << c for c in a.cards)
        assert replay_world(view, k, cards, discards, judge.observe) is not None
        assert judge.weight == 1.0 and judge.surprises == 0, (game, seed)
        judged += judge.judged
    assert judged >= 12 * 3, game  # cards with a choice were judged


def test_da_bai_fen_reads_the_play_on_its_bitmasks(monkeypatch):
    """At Da Bai Fen the judge asks the bitmask rollouts' pick (``dbf_rollout.pick``, as the heuristic plays at a
    table) which card each player would have chosen: every sampled world weighs what the general path's
    ``pick_card`` makes it weigh."""
    import rules.ai.expert as expert_mod

    worlds = surprised = 0
    for seed, view in _views("da_bai_fen", range(6), (18, 12, 8, 5)):
        k = Knowledge(view)
        for i in range(4):
            weights = []
            for fast in (True, False):
                monkeypatch.setattr(expert_mod, "FAST_DBF", fast)
                judge = _PlayJudge(view, k)
                assert judge.dbf == fast
                assert sample_world(view, random.Random(i), k, observe=judge.observe) is not None
                weights.append(judge.weight)
            assert weights[0] == weights[1], (seed, len(view.hand), i)
            worlds += 1
            surprised += weights[0] < 1.0
    assert surprised >= worlds // 4  # the worlds' players often play otherwise than the heuristic would: tested


# Early in the deal (before any solve) and in the solved ending, by game: cards in hand at the decisions tested.
_BEFORE_ENDING = {"da_bai_fen": (20, 16, 12), "belote": (8, 7, 6)}
_ENDING = {"da_bai_fen": (4, 2), "belote": (4, 3, 2)}


@pytest.mark.parametrize("game", ["da_bai_fen", "belote"])
def test_before_the_ending_the_master_searches_with_its_own_caution(game, monkeypatch):
    """The master's caution is its own table (``MASTER_CAUTION``: the expert's at Da Bai Fen, one standard error at
    Belote where the expert has none).  Set to two standard errors, early in the deal (before any solve) the master
    plays the best mean of the same worlds searched without a caution when that is better world by world by two
    standard errors, else the heuristic's card."""
    from rules.ai.expert import CAUTIOUS_GAMES, _clearly_better
    from rules.ai.heuristic import heuristic_action

    assert MASTER_CAUTION == {**CAUTIOUS_GAMES, "belote": 1.0} and "belote" not in CAUTIOUS_GAMES
    searched = kept = 0
    for seed, view in _views(game, range(12), _BEFORE_ENDING[game]):
        with fallback.strict():
            monkeypatch.setattr(MasterPlayer, "cautious_games", {})
            free = MasterPlayer(None, max_worlds=6).decide(view, random.Random(seed))
            if not free.reason.startswith("search"):
                continue
            monkeypatch.setattr(MasterPlayer, "cautious_games", {game: 2.0})
            mine = MasterPlayer(None, max_worlds=6).decide(view, random.Random(seed))
        assert mine.solved == 0
        base = heuristic_action(view, random.Random(seed))
        ref = next(s for s in free.stats if s.action == base)
        clear = free.action != base and _clearly_better(
            next(s for s in free.stats if s.action == free.action).values, ref.values, 2.0
        )
        assert mine.action == (free.action if clear else base)
        searched += 1
        kept += mine.action != free.action
    assert searched >= 10 and kept >= 1


@pytest.mark.parametrize("game", ["da_bai_fen", "belote"])
def test_the_solved_ending_plays_the_best_card_without_the_caution(game):
    """``UNCAUTIOUS_ENDINGS``: once every world is solved to the deal's end, the master plays the candidate with the
    best mean, also where the caution would have kept the heuristic's card (not better world by world by one
    standard error); before the ending the caution holds (the test above)."""
    from rules.ai.expert import _clearly_better
    from rules.ai.heuristic import heuristic_action

    searched = overruled = 0
    for seed, view in _views(game, range(16), _ENDING[game]):
        with fallback.strict():
            mine = MasterPlayer(None, max_worlds=6).decide(view, random.Random(seed))
        if not mine.reason.startswith("search"):
            continue
        assert mine.solved == len(view.hand)
        base = heuristic_action(view, random.Random(seed))
        best = max(mine.stats, key=lambda s: (s.mean, s.action == base))
        assert mine.action == best.action and mine.reason == "search"
        ref = next(s for s in mine.stats if s.action == base)
        searched += 1
        caution = MASTER_CAUTION[game]
        overruled += best.action != base and not _clearly_better(best.values, ref.values, caution)
    assert searched >= 10 and overruled >= 1


@pytest.mark.parametrize("game", ["five_hundred", "belote", "two_hundred"])
def test_aware_rollouts_play_the_cards_the_heuristic_plays_at_the_table(game):
    """A rollout with ``aware`` (the voids shown, whether trumps are still out) from the true world plays exactly the
    cards the heuristic player plays in the real deal; the plain rollouts, which skip both, differ in most deals."""
    from rules.ai.expert import rollout

    plain_differs = 0
    for seed in range(12):
        rng = random.Random(seed)
        m = registry.new_match(game, {})
        m.start_deal(m.random_deal(rng))
        history: list[Action] = []
        root = None
        while m.phase not in (BETWEEN_DEALS, GAME_OVER):
            view = build_view(m, m.to_move, history)
            if m.phase == PLAY and root is None and view.hand_mask.bit_count() == 6:
                root = (m.clone(), view, len(history))
            a = HeuristicPlayer().choose_view(view, rng)
            m.apply(a)
            history.append(a)
        if root is None:
            continue  # a deal thrown in before the play
        world, view, n = root
        real = [a.cards[0] for a in history[n:] if a.type == "play"]
        for aware in (True, False):
            w = world.clone()
            cards: list[int] = []
            play = w.play_card

            def record(c, *rest, play=play, cards=cards):
                cards.append(c)
                return play(c, *rest)

            w.play_card = record
            rollout(w, view.seat, Knowledge(view), random.Random(0), 0.0, aware=aware)
            if aware:
                assert cards == real, (game, seed)
            else:
                plain_differs += cards != real
    assert plain_differs >= 4


@pytest.mark.parametrize("game", ["five_hundred", "da_bai_fen", "belote"])
def test_rollouts_before_the_ending_end_in_a_solve(monkeypatch, game):
    """``ROLLOUT_SOLVE_FROM``: a rollout from a decision with more cards than the ending's plays the expert's
    rollout until the player to move holds that many cards, then the solver's line to the end of the deal (the
    same deal's score as solving there by hand)."""
    import rules.ai.master as master_mod
    from rules.ai import dd_worlds
    from rules.ai.expert import rollout
    from rules.ai.games import adapter_for

    monkeypatch.setitem(master_mod.ROLLOUT_SOLVE_FROM, game, 3)
    ad = adapter_for(game, {})
    solved_at: list[int] = []
    real_finish = dd_worlds.finish

    def spy(w, seat, *rest):
        left = ad.world_hand_mask(w, w.to_move).bit_count()
        done = real_finish(w, seat, *rest)
        if done:
            solved_at.append(left)
        return done

    monkeypatch.setattr(dd_worlds, "finish", spy)
    checked = 0
    for seed in range(6):
        m, _, history = _deal_to(game, seed, 7)
        view = build_view(m, m.to_move, history)
        k = Knowledge(view)
        world = sample_world(view, random.Random(seed), k)
        if world is None or k.hand.bit_count() <= master_mod.SOLVE_FROM[game]:
            continue
        master = MasterPlayer(None, max_worlds=1)
        master._tt = {}
        solved_at.clear()
        value, _ = master.rollout(world.clone(), view, k, random.Random(0))
        assert solved_at and solved_at[0] <= 3 and len(solved_at) == 1, solved_at
        assert master.solved == 0  # the hint's "last tricks worked out" is for the ending's decisions only
        # By hand: the expert's rollout until the mover holds 3 cards, then the solver.
        w = world.clone()
        monkeypatch.setattr(dd_worlds, "finish", real_finish)

        def at_three(x, seat=view.seat):
            return ad.world_hand_mask(x, x.to_move).bit_count() <= 3 and real_finish(x, seat, None, {})

        aware, sharp = master.rolls_aware(game), game in master_mod.SHARP_ROLLOUTS
        assert rollout(w, view.seat, k, random.Random(0), master.epsilon, at_three, aware, 3, sharp)[0] == value
        monkeypatch.setattr(dd_worlds, "finish", spy)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("game", "cards_left", "seeds", "at_least"), [("da_bai_fen", 9, 10, 6), ("belote", 7, 12, 8)])
def test_rollouts_play_the_sharp_policy(game, cards_left, seeds, at_least):
    """``SHARP_ROLLOUTS``: before the ending the master's rollouts play the sharp policy (the expert's rollout with
    ``sharp``: Da Bai Fen's ``dbf_rollout.pick``, Belote's ``PlayInfo.sharp``), reading the voids as
    ``AWARE_ROLLOUTS`` says, which plays another line than the heuristic's in some worlds."""
    import rules.ai.master as master_mod
    from rules.ai.expert import rollout

    assert game in master_mod.SHARP_ROLLOUTS and game in master_mod.AWARE_ROLLOUTS
    checked = differ = 0
    for seed in range(seeds):
        m, _, history = _deal_to(game, seed, cards_left)
        view = build_view(m, m.to_move, history)
        k = Knowledge(view)
        world = sample_world(view, random.Random(seed), k)
        if world is None or (game == "da_bai_fen" and world.trick and world.lead_size != 1):
            continue  # Da Bai Fen's multi-card tricks are played by the engine's general path
        master = MasterPlayer(None, max_worlds=1)
        value = master.rollout(world.clone(), view, k, random.Random(0))
        assert value == rollout(world.clone(), view.seat, k, random.Random(0), 0.0, aware=True, sharp=True)
        differ += value != rollout(world.clone(), view.seat, k, random.Random(0), 0.0, aware=True)
        checked += 1
    assert checked >= at_least and differ >= 3, (checked, differ)


def _after_a_hidden_discard(game: str, seed: int):
    """A deal played by the heuristic to seven cards in hand, seen from the seat after the one that laid its discard
    away: (that taker, the view, its Knowledge), or None if no one did."""
    m, _, history = _deal_to(game, seed, 7)
    discards = [a for a in history if a.type == "discard" and a.cards]
    if not discards:
        return None
    taker = discards[-1].seat
    view = build_view(m, (taker + 1) % m.players, history)
    return taker, view, Knowledge(view)


@pytest.mark.parametrize("game", ["da_bai_fen", "five_hundred"])
def test_sampled_discards_hold_no_card_the_levels_keep(game):
    """``PLAUSIBLE_DISCARDS``: the master's worlds lay the taker's hidden discard away as the levels lay theirs — no
    trump, and at Da Bai Fen no point card — where uniform worlds bury some; the worlds still replay the deal."""
    from rules.ai.master import never_discarded
    from rules.ai.sampler import allocate, sample_world

    checked = 0
    for seed in range(12):
        seen = _after_a_hidden_discard(game, seed)
        if seen is None:
            continue
        taker, view, k = seen
        if (k.public.get("contract") or {}).get("contract") in ("misere", "open_misere"):
            assert never_discarded(k) == 0  # a misère soloist lays its high cards away
            continue
        kept = never_discarded(k)
        order = k.order
        trumps = {c for c in range(len(order.es)) if k.ad.pack_mask >> c & 1 and order.es[c] == order.trump}
        assert trumps and all(kept >> c & 1 for c in trumps)
        points = {c for c in range(len(order.es)) if k.ad.pack_mask >> c & 1 and order.pts[c] > 0}
        if game == "da_bai_fen":
            assert points and all(kept >> c & 1 for c in points)
        rng = random.Random(seed)
        uniform_buries = 0
        for _ in range(10):
            alloc = allocate(k, rng, kept)
            assert alloc is not None and alloc.discards[taker].bit_count() == k.discard_count[taker]
            assert not alloc.discards[taker] & kept
            uniform = allocate(k, rng)
            assert uniform is not None
            uniform_buries += bool(uniform.discards[taker] & kept)
            assert sample_world(view, rng, k, kept=kept) is not None
        assert uniform_buries
        checked += 1
    assert checked >= 3


def test_a_discard_rule_the_cards_cannot_meet_is_dropped():
    """When the unseen cards cannot fill the hidden discards without a card the rule keeps, the world is sampled as
    before rather than not at all."""
    from rules.ai.sampler import allocate, sample_world

    m, _, history = _deal_to("da_bai_fen", 1, 7)
    taker = next(a.seat for a in history if a.type == "discard")
    view = build_view(m, (taker + 1) % 4, history)
    k = Knowledge(view)
    everything = k.unseen()
    assert allocate(k, random.Random(0), everything) is None
    assert sample_world(view, random.Random(0), k, kept=everything) is not None


@pytest.mark.parametrize("game", ["da_bai_fen", "five_hundred"])
def test_ranked_discards_are_laid_away_from_the_cards_the_taker_held(game):
    """``RANKED_DISCARDS``: a world's hidden discard is chosen from the cards the taker held then (its sampled hand and
    discard, and the cards it has played since) by the heuristic's ranking; its trumps stay in its hand, where the
    rule alone spread them over every hand; the worlds still replay the deal."""
    from rules.ai.heuristic import five_hundred_discard_ranking
    from rules.ai.master import lay_away, never_discarded
    from rules.ai.sampler import allocate, fits_hand, sample_world

    checked = ranked_trumps = rule_trumps = 0
    for seed in range(12):
        seen = _after_a_hidden_discard(game, seed)
        if seen is None:
            continue
        taker, view, k = seen
        order = k.order
        size = k.discard_count[taker]
        trumps = sum(1 << c for c in range(len(order.es)) if order.es[c] == order.trump) | 1 << JK
        misere = (k.public.get("contract") or {}).get("contract") in ("misere", "open_misere")
        rng = random.Random(seed)
        for _ in range(10):
            alloc = allocate(k, rng)
            assert alloc is not None
            pool = alloc.hands[taker] | alloc.discards[taker]
            laid = lay_away(k, alloc, rng)
            assert laid is not None and laid.hands[taker] | laid.discards[taker] == pool
            assert laid.discards[taker].bit_count() == size
            assert all(fits_hand(k, taker, c) for c in cards_of(laid.hands[taker]))
            if misere:  # the soloist lays its Joker and high cards away
                ranking = five_hundred_discard_ranking(k.public, cards_of(pool))
                assert laid.discards[taker] == sum(1 << c for c in ranking[:size])
            elif (pool & ~trumps).bit_count() >= size:
                assert not laid.discards[taker] & trumps and laid.hands[taker] & trumps == pool & trumps
            if misere:
                continue
            ranked_trumps += (laid.hands[taker] & trumps).bit_count()
            rule = allocate(k, rng, never_discarded(k))
            assert rule is not None
            rule_trumps += (rule.hands[taker] & trumps).bit_count()
            assert sample_world(view, rng, k, kept=never_discarded(k), lay_away=lay_away) is not None
        checked += 1
    assert checked >= 3 and ranked_trumps > rule_trumps


def test_a_card_the_taker_cannot_hold_now_stays_in_its_ranked_discard():
    """A suit the taker has shown void in cannot be in its hand: such cards are discarded first, and a world with
    more of them than the discard holds is refused (the sampler then falls back to the rule)."""
    from rules.ai.master import lay_away
    from rules.ai.sampler import Allocation, allocate

    for seed in range(12):
        m, _, history = _deal_to("five_hundred", seed, 7)
        taker = next((a.seat for a in history if a.type == "discard" and a.cards), None)
        if taker is not None:
            break
    view = build_view(m, (taker + 1) % m.players, history)
    k = Knowledge(view)
    order = k.order
    alloc = allocate(k, random.Random(1))
    assert alloc is not None
    pool = alloc.hands[taker] | alloc.discards[taker]
    by_suit = {}
    for c in cards_of(pool):
        by_suit.setdefault(order.es[c], []).append(c)
    size = k.discard_count[taker]
    small = next(s for s, cs in by_suit.items() if 0 < len(cs) <= size and s != order.trump)
    big = next((s for s, cs in by_suit.items() if len(cs) > size), None)  # a 13-card pool has a suit of 4

    def again():
        return Allocation(list(alloc.hands), list(alloc.discards), list(alloc.rest))

    k.voids[taker] |= 1 << small  # as if the taker had not followed that suit since
    laid = lay_away(k, again(), random.Random(2))
    assert laid is not None and all(laid.discards[taker] >> c & 1 for c in by_suit[small])
    assert big is not None
    k.voids[taker] |= 1 << big
    assert lay_away(k, again(), random.Random(2)) is None


def test_suits_bid_are_the_other_seats_own_suits_not_raises_of_a_partner():
    from rules.ai.master import suits_bid

    history = [
        Action(1, "bid", value=80, suit=2),
        Action(2, "bid", value=90, suit=0),
        Action(3, "bid", value=100, suit=2),  # a raise of its partner's suit: it says less about its own hand
        Action(0, "bid", value=110, suit=1),  # the viewer's own bid
        Action(1, "bid", value=120, suit=3),
        Action(2, "bid", value=130, suit=0),  # the same suit again: read once
    ]
    m = registry.new_match("belote", {})
    m.start_deal(m.random_deal(random.Random(0)))
    view = build_view(m, 0, [])
    view = dataclasses.replace(view, history=history)
    assert suits_bid(view, Knowledge(build_view(m, 0, []))) == [(1, 2), (2, 0), (1, 3)]


@pytest.mark.parametrize("game", ["belote", "five_hundred"])
def test_worlds_whose_bidders_hold_their_suits_weigh_more(game):
    """``BID_LENGTH_WEIGHTS``: a world's weight grows with the cards of its bid suit each other bidder was dealt;
    over the auctions and plays of the searching levels the true deal weighs more than the sampled worlds."""
    from rules.ai.heuristic import bidding_filter
    from rules.ai.master import BID_LENGTH_WEIGHTS
    from rules.ai.sampler import sample_world

    weights = BID_LENGTH_WEIGHTS[game]
    assert all(a <= b for a, b in zip(weights, weights[1:], strict=False)) and weights[0] < weights[-1]

    true_over_sampled = []
    expert = make_ai_player("expert", None)
    expert.max_worlds = 4
    for seed in range(6):
        rng = random.Random(seed)
        m = registry.new_match(game, {})
        cards = m.random_deal(rng)
        m.start_deal(cards)
        history: list[Action] = []
        while m.phase not in (BETWEEN_DEALS, GAME_OVER) and len(true_over_sampled) < 60:
            view = build_view(m, m.to_move, history)
            master = MasterPlayer(None)
            k = Knowledge(view)
            own = master._weight_of_bids(view, k, cards.hands)
            if own != 1.0:
                sampled = []
                for _ in range(8):
                    dealt: list[list[list[int]]] = []  # each world tried: its hands as dealt
                    w = sample_world(view, rng, k, accept=bidding_filter(view, k), dealt=dealt.append)
                    if w is not None:
                        sampled.append(master._weight_of_bids(view, k, dealt[-1]))
                        if game == "belote":  # no kitty: the last hands dealt are the world's
                            for s in range(4):
                                held = k.ad.world_hand_mask(w, s) | k.played_by[s]
                                assert sorted(dealt[-1][s]) == cards_of(held)
                true_over_sampled.append(own / (sum(sampled) / len(sampled)))
            a = expert.choose_view(view, rng)
            m.apply(a)
            history.append(a)
    assert len(true_over_sampled) >= 20
    assert sum(true_over_sampled) / len(true_over_sampled) > 1.2
