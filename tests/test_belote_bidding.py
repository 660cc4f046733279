"""Belote Contrée: the auction of FFB rules §4.1 - who speaks, what is legal, when it ends."""

from __future__ import annotations

import pytest

from rules.actions import Action
from rules.belote import Belote
from rules.cards import NO_TRUMP
from rules.errors import IllegalAction
from rules.game import BETWEEN_DEALS, BIDDING, PLAY

S, H, D, C = range(4)


def new_deal(dealer: int = 3, options: dict | None = None) -> Belote:
    import random

    m = Belote(options, first_dealer=dealer)
    m.start_deal(m.random_deal(random.Random(5)))
    return m


def bid(seat: int, value, suit: int = H) -> Action:
    return Action(seat, "bid", value, suit)


def calls(m: Belote, *actions: Action) -> Belote:
    for a in actions:
        m.apply(a)
    return m


def types(m: Belote) -> set[str]:
    return {a.type for a in m.legal_actions()}


def p(seat: int) -> Action:
    return Action(seat, "pass")


def test_first_to_speak_is_right_of_dealer():
    """§4.1: "Players take turns starting with the player to the right of the dealer" (the next seat)."""
    assert new_deal(dealer=3).to_move == 0
    assert new_deal(dealer=1).to_move == 2


def test_opening_calls_pass_and_every_bid():
    """§4.1: bids "at least 80, a multiple of 10"; "Instead of a point value, a player may at any time declare a
    capot"; no counter before a bid."""
    legal = [a.to_json() for a in new_deal().legal_actions()]
    assert legal[0] == {"seat": 0, "type": "pass"}
    assert len(legal) == 1 + 10 * 4
    assert {"seat": 0, "type": "bid", "value": "capot", "suit": "C"} in legal
    assert {"seat": 0, "type": "bid", "value": 80, "suit": "S"} in legal
    assert "counter" not in {a["type"] for a in legal}


def test_bid_must_be_higher():
    """§4.1: "greater than the previous bid"."""
    m = calls(new_deal(), bid(0, 100))
    with pytest.raises(IllegalAction, match="higher than the current bid, 100♥"):
        m.apply(bid(1, 100, S))
    assert min(a.value for a in m.legal_actions() if a.type == "bid" and a.value != "capot") == 110


@pytest.mark.parametrize("value", [85, 70, 170, 0, "more", True])
def test_bid_values(value):
    """§4.1: "at least 80, a multiple of 10"; rule decisions: 80..160 by 10, or capot."""
    with pytest.raises(IllegalAction, match="a bid is 80, 90 ... 160 or 'capot'"):
        new_deal().apply(Action(0, "bid", value, H))


def test_bid_needs_a_suit():
    """§4.1: "stating the number of points ... along with the suit they choose as trump"."""
    with pytest.raises(IllegalAction, match="a bid names its trump suit"):
        new_deal().apply(Action(0, "bid", 80))


def test_no_trump_bid_only_with_the_option():
    with pytest.raises(IllegalAction, match="sans atout"):
        new_deal().apply(Action(0, "bid", 80, NO_TRUMP))
    with pytest.raises(IllegalAction, match="tout atout"):
        new_deal().apply(Action(0, "bid", 80, contract="all_trumps"))
    m = calls(new_deal(options={"sans_atout": True, "tout_atout": True}), Action(0, "bid", 80, NO_TRUMP))
    m.apply(Action(1, "bid", 90, contract="all_trumps"))
    assert m.output()["high_bid"] == {"seat": 1, "value": 90, "contract": "all_trumps"}


def test_pass_is_not_final():
    """§4.1: "A player who passes once may bid later if given the opportunity." """
    m = calls(new_deal(), p(0), bid(1, 80), p(2), p(3))
    assert "bid" in types(m)
    m.apply(bid(0, 90))
    assert m.phase == BIDDING


def test_partner_may_raise_partner():
    """Rule decisions: "a partner may raise a partner's bid"."""
    m = calls(new_deal(), bid(0, 80), p(1), bid(2, 90, S))
    assert m.output()["high_bid"]["seat"] == 2


def test_three_passes_after_a_bid_end_the_auction_and_dealer_right_leads():
    """§4.1: "the bidding round ends when, after a bid or counter, the next three players pass"; §5.1: "The player
    to the right of the dealer plays the card of their choice" - not the taker."""
    m = calls(new_deal(dealer=3), p(0), bid(1, 80), p(2), p(3))
    assert m.phase == BIDDING  # seat 0 still to speak
    m.apply(p(0))
    assert m.phase == PLAY and m.to_move == 0
    assert m.output()["contract"] == {
        "seat": 1, "team": 1, "value": 80, "suit": "H", "countered": False, "recountered": False, "multiplier": 1,
    }  # fmt: skip
    assert m.output()["trump"] == "H"


def test_own_bid_cannot_be_raised_after_three_passes():
    """§4.1: "It is not possible to bid on your own previous bid": the three passes end it first."""
    m = calls(new_deal(), bid(0, 80), p(1), p(2), p(3))
    assert m.phase == PLAY


def test_four_passes_throw_the_deal_in():
    """§4.1: "If all four players pass without bidding, the hand ends with no points scored." and "passes them to
    the player to their right, who will be the new dealer"."""
    m = calls(new_deal(dealer=3), p(0), p(1), p(2))
    assert m.phase == BIDDING
    m.apply(p(3))
    assert m.phase == BETWEEN_DEALS
    result = m.deal_results[-1]
    assert result["thrown_in"] and result["made"] is None and result["score_change"] == [0, 0]
    assert m.output()["contract"] is None and m.output()["trump"] is None and m.output()["legal"] == []
    assert m.next_dealer() == 0


def test_counter_only_by_an_opponent_in_turn():
    """§4.1: "A player may counter an opponent's bid"; rule decisions: by an opponent of the highest bidder."""
    m = calls(new_deal(), bid(0, 80))
    assert "counter" in types(m)
    m.apply(p(1))
    assert "counter" not in types(m)  # seat 2 is the bidder's partner
    with pytest.raises(IllegalAction, match="only counter an opponent's bid"):
        m.apply(Action(2, "counter"))
    with pytest.raises(IllegalAction, match="it is not your turn"):
        m.apply(Action(3, "counter"))  # "You can only counter when it's your turn to speak"
    m.apply(p(2))
    assert "counter" in types(m)  # seat 3 has not spoken yet; seat 1 passed but may counter later too


def test_counter_after_having_passed():
    """§4.1: "A player who passes once may bid later if given the opportunity" - and counter: seat 1 passed, then
    counters seat 2's bid in turn."""
    m = calls(new_deal(), p(0), p(1), bid(2, 80), p(3), p(0))
    m.apply(Action(1, "counter"))
    assert m.output()["high_bid"]["seat"] == 2


def test_counter_locks_the_contract():
    """§4.1: "A counter locks in the contract, preventing further bids." Only the takers may recounter."""
    m = calls(new_deal(), bid(0, 80), Action(1, "counter"))
    assert types(m) == {"pass", "recounter"}  # seat 2, a taker
    with pytest.raises(IllegalAction, match="countered: no more bids"):
        m.apply(bid(2, 90))
    m.apply(p(2))
    assert types(m) == {"pass"}  # seat 3, the counterer's partner
    with pytest.raises(IllegalAction, match="only the side that holds the contract can recounter"):
        m.apply(Action(3, "recounter"))
    m.apply(p(3))
    assert types(m) == {"pass", "recounter"}  # seat 0, the bidder


def test_counter_then_three_passes_ends_with_multiplier_two():
    """§4.1: "The hand's score will be multiplied by 2." """
    m = calls(new_deal(), bid(0, 80), Action(1, "counter"), p(2), p(3))
    assert m.phase == BIDDING
    m.apply(p(0))
    assert m.phase == PLAY
    c = m.output()["contract"]
    assert c["countered"] and not c["recountered"] and c["multiplier"] == 2


def test_recounter_ends_the_auction_at_once():
    """§4.1: "the opposing team has the option to re-counter ... The bidding round ends immediately." x4."""
    m = calls(new_deal(), bid(0, 80), Action(1, "counter"), Action(2, "recounter"))
    assert m.phase == PLAY and m.to_move == 0
    assert m.output()["contract"]["multiplier"] == 4


def test_recounter_needs_a_counter():
    """§4.1: "When a team has countered, the opposing team has the option to re-counter" - not before; and a
    counter is of "an opponent's bid", so not before a bid."""
    with pytest.raises(IllegalAction, match="no counter to recounter"):
        calls(new_deal(), bid(0, 80), p(1)).apply(Action(2, "recounter"))
    with pytest.raises(IllegalAction, match="no bid to counter"):
        new_deal().apply(Action(0, "counter"))


def test_capot_cannot_be_exceeded():
    """§4.1: "No bid can exceed the capot; from then on, the opposing team may only pass or counter." """
    m = calls(new_deal(), bid(0, "capot"))
    assert types(m) == {"pass", "counter"}
    with pytest.raises(IllegalAction, match="no bid can exceed a capot"):
        m.apply(bid(1, "capot", S))
    m.apply(p(1))
    assert types(m) == {"pass"}  # the capot bidder's partner


def test_capot_at_any_time():
    """§4.1: "a player may at any time declare a capot" - over 160 too."""
    m = calls(new_deal(), bid(0, 160))
    m.apply(bid(1, "capot", S))
    assert m.output()["high_bid"] == {"seat": 1, "value": "capot", "suit": "S"}


def test_play_during_the_auction_refused():
    from rules.cards import parse_card

    m = new_deal()
    with pytest.raises(IllegalAction, match="bidding is not over"):
        m.apply(Action(0, "play", cards=(parse_card("AS"),)))
    with pytest.raises(IllegalAction, match="not a call in the bidding"):
        m.apply(Action(0, "discard", cards=()))


def test_bid_after_the_auction_refused():
    m = calls(new_deal(), bid(0, 80), p(1), p(2), p(3))
    with pytest.raises(IllegalAction, match="the bidding is over: play a card"):
        m.apply(bid(0, 90))
