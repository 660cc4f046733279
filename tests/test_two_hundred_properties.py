"""Property tests over random legal Two Hundred games, for each main option set: cards conserved, 100 card points per
deal, cumulative scores equal to the sum of the deal results, and replay(record(game)) reproducing the game."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import nth_card
from rules.game import BETWEEN_DEALS, GAME_OVER
from rules.players import RandomPlayer
from rules.playing import play_deal
from rules.records import GameRecord, parse_record, replay
from rules.two_hundred import TwoHundred

OPTION_SETS = [
    {},
    {"kitty": True},
    {"dealer_keeps": True, "hundred_for_two_hundred": True, "no_trump": True},
    {"kitty": True, "kitty_discard": "no_trumps_or_points", "after_three_passes": "dealer_must_bid"},
    {"kitty": True, "kitty_discard": "last_trick", "anyone_keeps": True, "misdeal": True},
    {"kitty": True, "kitty_discard": "first_trick", "single_round": True, "after_three_passes": "dealer_contracts"},
    {"kitty": True, "kitty_discard": "contractor", "bloutte": True, "skunk": "in_the_hole"},
    {"kitty": True, "kitty_discard": "show_trumps", "hand_size": 10, "min_bid": 65},
    {"kitty": True, "hand_size": 12, "both_reach_target": "higher_score", "win_only_by_contract": True},
    {"hand_size": 10, "within_margin": 50, "skunk": "shutout", "compulsory_trump_lead": True},
    {"target": 500, "lose_at": 300, "qualifying_bid": 60, "min_bid": 0},
    {"le_rough": True},
    {"players": 2},
    {"players": 3},
    {"players": 5, "no_trump": True},
    {"players": 6},
    {"players": 6, "teams": "pairs", "target": 100},
    {"players": 6, "teams": "pairs", "kitty": True, "kitty_discard": "announce_points", "target": 100},
    {"players": 6, "hand_size": 8, "kitty": True},
    {"players": 4, "teams": "cutthroat", "kitty": True},
]


def play_game(options, seed, max_deals=12):
    rng = random.Random(seed)
    match = TwoHundred(options, rng.randrange(TwoHundred(options).players))
    record = GameRecord("two_hundred", options, match.first_dealer)
    players = [RandomPlayer()] * match.players
    while match.phase != GAME_OVER and len(record.deals) < max_deals:
        play_deal(match, players, rng, record)
        check_deal_conserves_cards(match, record.deals[-1].cards)
    return match, record


def play_to_the_first_lead(match, rng):
    """Random legal actions until the play of the cards (or the end of a deal thrown in)."""
    player = RandomPlayer()
    while match.phase not in (BETWEEN_DEALS, GAME_OVER) and match.step != "play":
        match.apply(player.choose(match, rng))


def check_deal_conserves_cards(match, cards):
    dealt = sum(1 << c for c in [*cards.kitty, *(c for hand in cards.hands for c in hand)])
    result = match.deal_results[-1]
    if result["thrown_in"]:
        return
    taken = [m for m in match.play.taken]
    everything = match.discard
    for mask in taken:
        assert not everything & mask  # no card taken twice
        everything |= mask
    assert everything == dealt and not any(match.play.hands)
    assert sum(result["points"]) == 100  # "there are 100 card points in the deck altogether"


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 10**6))
def test_random_games_keep_the_books_and_replay(index, seed):
    options = OPTION_SETS[index]
    match, record = play_game(options, seed)
    totals = [sum(r["score_change"][u] for r in match.deal_results) for u in range(len(match.scores()))]
    assert totals == match.scores()
    again = replay(parse_record(json.loads(record.dumps())))
    assert again.error is None
    assert json.dumps(again.output(), sort_keys=True) == json.dumps({**match.output(), "error": None}, sort_keys=True)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 10**6))
def test_random_playout_equals_playing_card_by_card(index, seed):
    """The fast path gives the same deal as legal_card_mask() + play_card() with the same random numbers."""
    options = OPTION_SETS[index]
    rng = random.Random(seed)
    match = TwoHundred(options)
    for _ in range(3):
        if match.phase == GAME_OVER:
            break
        match.start_deal(match.random_deal(rng))
        play_to_the_first_lead(match, rng)
        if match.step != "play":
            continue
        slow, state = match.clone(), rng.getstate()
        match.random_playout(rng)
        rng2 = random.Random()
        rng2.setstate(state)
        while slow.step == "play":
            legal = slow.legal_card_mask()
            slow.play_card(nth_card(legal, int(rng2.random() * legal.bit_count())))
        assert slow.output() == match.output()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(range(len(OPTION_SETS))), st.integers(0, 10**6))
def test_play_card_keeps_the_same_books_as_trickplay(index, seed):
    """play_card writes TrickPlay's bookkeeping itself (the fast path): a TrickPlay fed the same cards agrees after
    every card - hands, the trick, its winner so far, the tricks taken, the turn."""
    from rules.tricks import TrickPlay

    options = OPTION_SETS[index]
    rng = random.Random(seed)
    match = TwoHundred(options)
    match.start_deal(match.random_deal(rng))
    play_to_the_first_lead(match, rng)
    if match.step != "play":
        return
    ref = match.play.copy()  # the state so far (a first lead may already set trump), then TrickPlay's own play()
    ref.active = list(match.play.active)
    assert type(ref) is TrickPlay
    books = ("hands", "trick", "led_suit", "best_seat", "best_key", "completed", "tricks_won", "taken")
    fields = (*books, "leader", "turn")
    while match.step == "play":
        legal = match.legal_card_mask()
        c = nth_card(legal, int(rng.random() * legal.bit_count()))
        match.play_card(c)
        ref.play(c)
        for name in fields:
            assert getattr(match.play, name) == getattr(ref, name), name
