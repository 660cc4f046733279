"""Belote Contrée: properties of random legal games, for each main option set.

Cards are conserved; every deal's card points make 162 (252 when one side takes every trick); the cumulative
scores are the sum of the deals' score changes; replaying the record reproduces the output; the ``play_out``
rollout plays exactly as ``play_card`` does.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.belote import Belote
from rules.belote.tables import PACK_MASK
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER, PLAY
from rules.playing import play_deal
from rules.records import GameRecord, parse_record, replay

OPTION_SETS = [
    {},
    {"target": 2000},
    {"sans_atout": True, "tout_atout": True},
    {"scoring": "announced", "rounding": True, "litige": True, "failed_points": 162},
    {"forced_undertrump": True, "partner_undertrump": False, "deals": 4},
    {"sans_atout": True, "tout_atout": True, "litige": True, "rounding": True, "forced_undertrump": True},
]


def choose(match: Belote, rng: random.Random):
    """A random legal action; in the auction, pass half the time so that ordinary contracts get played."""
    legal = match.legal_actions()
    if match.phase == BIDDING and rng.random() < 0.5:
        return legal[0]
    return legal[rng.randrange(len(legal))]


class CheckingPlayer:
    """``choose``, once the cards are checked."""

    def choose(self, match: Belote, rng: random.Random, history=None):
        check_cards_conserved(match)
        return choose(match, rng)


def check_cards_conserved(match: Belote) -> None:
    seen = 0
    count = 0
    for mask in match._hands:
        assert not seen & mask
        seen |= mask
        count += mask.bit_count()
    for c in match._trick:
        assert not seen >> c & 1
        seen |= 1 << c
        count += 1
    for _, cards, _ in match._completed:
        for c in cards:
            assert not seen >> c & 1
            seen |= 1 << c
            count += 1
    assert seen == PACK_MASK and count == 32


def check_deal_result(result: dict) -> None:
    if result["thrown_in"]:
        assert result["score_change"] == [0, 0]
        return
    capot = 8 in result["tricks"]
    assert sum(result["card_points"]) == (252 if capot else 162)
    assert sum(result["tricks"]) == 8


def play_game(options: dict, seed: int, max_deals: int = 6) -> tuple[Belote, GameRecord]:
    rng = random.Random(seed)
    match = Belote(options, first_dealer=seed % 4)
    record = GameRecord("belote", dict(options), seed % 4)
    while match.phase != GAME_OVER and len(record.deals) < max_deals:
        play_deal(match, [CheckingPlayer()] * 4, rng, record)
        check_cards_conserved(match)
        check_deal_result(match.deal_results[-1])
    return match, record


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(OPTION_SETS))
def test_random_games_keep_the_invariants(seed, options):
    match, record = play_game(options, seed)
    totals = [sum(r["score_change"][t] for r in match.deal_results) for t in (0, 1)]
    assert match.scores() == totals
    if match.phase == GAME_OVER:
        assert match.winner == (0 if totals[0] > totals[1] else 1)
    again = replay(parse_record(record.to_json()))
    assert again.error is None
    assert again.output() == match.output()


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(OPTION_SETS), st.integers(0, 31))
def test_play_out_plays_like_play_card(seed, options, cards_before):
    """The rollout fast path applies the same rules as ``play_card``: same generator, same deal."""
    rng = random.Random(seed)
    match = Belote(options)
    while True:
        match.start_deal(match.random_deal(rng))
        while match.phase == BIDDING:
            match.apply(choose(match, rng))
        if match.phase == PLAY:
            break
    for _ in range(cards_before):
        mask = match.legal_card_mask()
        card = (mask & -mask).bit_length() - 1
        match.play_card(card)
    a, b = match.clone(), match.clone()
    a.play_out(random.Random(seed))
    rand = random.Random(seed).random
    while b.phase == PLAY:
        mask = b.legal_card_mask()
        for _ in range(int(rand() * mask.bit_count())):
            mask &= mask - 1
        card = (mask & -mask).bit_length() - 1
        b.play_card(card, bool(b.belote_mask() >> card & 1))
    assert a.phase in (BETWEEN_DEALS, GAME_OVER)
    assert a.output() == b.output()
    assert a._completed == b._completed


def test_clone_is_independent():
    rng = random.Random(3)
    match = Belote()
    match.start_deal(match.random_deal(rng))
    copy = match.clone()
    while match.phase in (BIDDING, PLAY):
        match.apply(choose(match, rng))
    assert copy.phase == BIDDING and copy.deal_results == [] and copy.auction.calls == []
    assert sum(h.bit_count() for h in copy._hands) == 32
