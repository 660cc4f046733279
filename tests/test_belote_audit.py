"""Belote Contrée audit: the engine checked against the FFB text written out a second time, independently.

The play obligations (§5.2) and the auction (§4.1) are re-implemented here in the plainest terms - ranks and
lists, no bitmask tables - straight from the sentences quoted, and compared with the engine at every step of many
random deals, for every option that changes them.  Then the cases the audit found untested, each with its
sentence.
"""

from __future__ import annotations

import random

import pytest

from rules.actions import Action
from rules.belote import Belote
from rules.belote.scoring import DealTally, ScoringRules, score_deal
from rules.cards import CARD_NAMES, parse_card
from rules.errors import IllegalAction
from rules.game import BETWEEN_DEALS, BIDDING, PLAY
from tests.test_belote_play import legal, position, refusal

# §6: "The following tables show the order and value of the cards, in descending order."
TRUMP_ORDER = ["J", "9", "A", "10", "K", "Q", "8", "7"]
PLAIN_ORDER = ["A", "10", "K", "Q", "J", "9", "8", "7"]


def rank(name: str) -> str:
    return name[:-1]


def suit(name: str) -> str:
    return name[-1]


def strength(name: str, kind: str) -> int:
    """Higher is stronger within the card's suit."""
    trump_order = kind == "AT" or suit(name) == kind
    order = TRUMP_ORDER if trump_order else PLAIN_ORDER
    return len(order) - order.index(rank(name))


def is_trump(name: str, kind: str) -> bool:
    return kind == "AT" or suit(name) == kind


def winner_by_text(trick: list[tuple[int, str]], kind: str) -> int:
    """§5.1: "The trick is won by the player who played the highest card in the trump suit or, if none, in the
    leading suit."  At tout atout every suit is in the trump order, and only the suit led can win."""
    led = suit(trick[0][1])
    if kind not in ("NT", "AT"):
        trumps = [(s, c) for s, c in trick if suit(c) == kind]
        if trumps:
            return max(trumps, key=lambda sc: strength(sc[1], kind))[0]
    followers = [(s, c) for s, c in trick if suit(c) == led]
    return max(followers, key=lambda sc: strength(sc[1], kind))[0]


def legal_by_text(hand: list[str], trick: list[tuple[int, str]], mover: int, kind: str, options: dict) -> set[str]:
    """§5.2, sentence by sentence (rule decisions where they choose; the options as docs/rules/belote.md says)."""
    if not trick:
        return set(hand)  # §5.1 "plays the card of their choice"
    led = suit(trick[0][1])
    follow = [c for c in hand if suit(c) == led]
    if follow:
        # "You must always follow the leading suit if you have cards in it. If the leading suit is trump, you must
        # play a higher trump card than any already played, if possible."
        if is_trump(trick[0][1], kind):
            top = max(strength(c, kind) for _, c in trick if suit(c) == led)
            higher = [c for c in follow if strength(c, kind) > top]
            return set(higher or follow)
        return set(follow)
    if kind in ("NT", "AT"):
        return set(hand)  # no trump to cut with (sans atout), or another suit can never win (tout atout)
    my_trumps = [c for c in hand if suit(c) == kind]
    if not my_trumps:
        return set(hand)  # "If not, you may play any card."
    table_trumps = [c for _, c in trick if suit(c) == kind]
    top = max((strength(c, kind) for c in table_trumps), default=0)
    over = [c for c in my_trumps if strength(c, kind) > top]
    if winner_by_text(trick, kind) == (mover + 2) % 4:
        # "your partner is the winner of the trick ... you may play any card. You may also play a trump card";
        # option partner_undertrump false: "When your partner has cut an opponent's card and you only have trump
        # cards left, you are not required to play a higher trump card. This is the only case ... where a lower
        # trump card is allowed."
        if options.get("partner_undertrump", True) or not table_trumps or len(my_trumps) == len(hand):
            return set(hand)
        return {c for c in hand if suit(c) != kind} | set(over)
    if table_trumps:
        # "you must always play a trump card higher than any already on the table ... If that's impossible, you
        # may play a lower trump card"; Note: "you are not required to play one (you 'discard' it instead)".
        if over:
            return set(over)
        return set(my_trumps) if options.get("forced_undertrump", False) else set(hand)
    return set(my_trumps)  # "you must play a trump card if you have one"


PLAY_OPTIONS = [
    {},
    {"partner_undertrump": False},
    {"forced_undertrump": True},
    {"partner_undertrump": False, "forced_undertrump": True},
    {"sans_atout": True, "tout_atout": True},
]


def contract_kind(match: Belote) -> str:
    contract = match.contract_json()
    return "AT" if contract.get("contract") == "all_trumps" else contract["suit"]


@pytest.mark.parametrize("options", PLAY_OPTIONS)
def test_every_legal_set_matches_the_text(options):
    """400 random deals per option set: at every card, the engine's legal set (mask and actions) equals §5.2 as
    written above, and every trick goes to the card §5.1 names."""
    rng = random.Random(2024)
    match = Belote({**options, "target": 10**9})
    checked = 0
    for _ in range(400):
        match.start_deal(match.random_deal(rng))
        while match.phase == BIDDING:
            calls = match.legal_actions()
            match.apply(calls[0] if rng.random() < 0.6 else calls[rng.randrange(len(calls))])
        if match.phase != PLAY:
            continue
        kind = contract_kind(match)
        while match.phase == PLAY:
            mover = match.to_move
            trick = [(t["seat"], t["cards"][0]) for t in match.trick_json()]
            hand = [CARD_NAMES[c] for c in match.hand(mover)]
            expected = legal_by_text(hand, trick, mover, kind, options)
            assert legal(match) == expected, (hand, trick, kind)
            checked += 1
            chosen = sorted(expected)[rng.randrange(len(expected))]
            match.apply(Action(mover, "play", cards=(parse_card(chosen),)))
            if len(trick) == 3:
                full = trick + [(mover, chosen)]
                assert match._completed[-1][2] == winner_by_text(full, kind)
    assert checked > 5000


# --- the auction, from §4.1 ---------------------------------------------------------------------------------------

BIDS = (80, 90, 100, 110, 120, 130, 140, 150, 160, "capot")


def auction_by_text(calls: list[dict], first: int) -> tuple[set, bool]:
    """(the call types and bid values the seat to speak may make, whether the auction is over)."""
    high, high_seat, countered, passes, seat = -1, -1, False, 0, first
    for call in calls:
        if call["type"] == "pass":
            passes += 1
        elif call["type"] == "bid":
            high, high_seat, passes = BIDS.index(call["value"]), call["seat"], 0
        elif call["type"] == "counter":
            countered, passes = True, 0
        else:
            return set(), True  # "The bidding round ends immediately."
        seat = (seat + 1) % 4
    # "If all four players pass without bidding"; "the bidding round ends when, after a bid or counter, the next
    # three players pass."
    if (high_seat < 0 and passes == 4) or (high_seat >= 0 and passes == 3):
        return set(), True
    allowed: set = {"pass"}
    opponent = high_seat >= 0 and (seat - high_seat) % 2 == 1
    if not countered:
        # "greater than the previous bid"; "No bid can exceed the capot"
        allowed |= set(BIDS[high + 1 :])
        if opponent:
            allowed.add("counter")  # "counter an opponent's bid ... when it's your turn to speak"
    elif not opponent:
        allowed.add("recounter")  # "When a team has countered, the opposing team has the option to re-counter"
    return allowed, False


def test_every_auction_matches_the_text():
    """3000 random auctions: after every call, the calls the engine allows and whether it is over equal §4.1."""
    rng = random.Random(7)
    for n in range(3000):
        match = Belote(first_dealer=n % 4)
        match.start_deal(match.random_deal(rng))
        first = match.to_move
        calls: list[dict] = []
        while True:
            allowed, over = auction_by_text(calls, first)
            if over:
                assert match.phase != BIDDING
                break
            offered = match.legal_actions()
            got = {a.value if a.type == "bid" else a.type for a in offered}
            assert got == allowed, calls
            weights = rng.random()
            action = offered[0] if weights < 0.55 else offered[-1] if weights < 0.7 else rng.choice(offered)
            match.apply(action)
            calls.append(action.to_json())


# --- the auction: cases the existing tests left implicit ----------------------------------------------------------


def fresh(dealer: int = 3) -> Belote:
    m = Belote(first_dealer=dealer)
    m.start_deal(m.random_deal(random.Random(5)))
    return m


def run(m: Belote, *calls: Action) -> Belote:
    for a in calls:
        m.apply(a)
    return m


def p(seat: int) -> Action:
    return Action(seat, "pass")


def test_a_counter_restarts_the_three_passes():
    """§4.1: "the bidding round ends when, after a bid or counter, the next three players pass": two passes
    before the counter do not count - three more are needed after it."""
    m = run(fresh(), Action(0, "bid", 80, 1), p(1), p(2), Action(3, "counter"), p(0), p(1))
    assert m.phase == BIDDING
    m.apply(p(2))
    assert m.phase == PLAY and m.output()["contract"]["multiplier"] == 2


def test_counter_is_against_the_highest_bidder_only():
    """Rule decisions: a counter is "by an opponent of the highest bidder": after 80 by seat 0 and 90 by seat 1,
    seat 3 (seat 1's partner) may not counter, seat 2 may."""
    m = run(fresh(), Action(0, "bid", 80, 1), Action(1, "bid", 90, 0))
    assert "counter" in {a.type for a in m.legal_actions()}  # seat 2
    m.apply(p(2))
    assert "counter" not in {a.type for a in m.legal_actions()}  # seat 3
    with pytest.raises(IllegalAction, match="only counter an opponent's bid"):
        m.apply(Action(3, "counter"))


def test_partner_of_the_countered_bidder_cannot_outbid():
    """§4.1: "A counter locks in the contract, preventing further bids" - the bidder's partner included, capot
    included."""
    m = run(fresh(), Action(0, "bid", 80, 1), Action(1, "counter"))
    for value in (90, "capot"):
        with pytest.raises(IllegalAction, match="countered: no more bids"):
            m.apply(Action(2, "bid", value, 1))


def test_after_a_counter_the_refusal_says_what_each_side_may_do():
    """§4.1: "A counter locks in the contract, preventing further bids"; "the opposing team has the option to
    re-counter": the bidder's partner is told pass or recounter, the counterer's partner only pass."""
    m = run(fresh(), Action(0, "bid", 80, 1), Action(1, "counter"))
    with pytest.raises(IllegalAction) as e:
        m.apply(Action(2, "bid", 90, 1))
    assert e.value.message == "the contract has been countered: no more bids (you may pass, or recounter)"
    m.apply(p(2))
    with pytest.raises(IllegalAction) as e:
        m.apply(Action(3, "bid", 90, 1))
    assert e.value.message == "the contract has been countered: no more bids (you may pass)"


def test_recounter_by_the_bidder_after_two_passes():
    """§4.1: "When a team has countered, the opposing team has the option to re-counter ... The bidding round ends
    immediately." - the bidder, speaking again after two passes; x4."""
    m = run(fresh(), Action(0, "bid", 80, 1), Action(1, "counter"), p(2), p(3), Action(0, "recounter"))
    assert m.phase == PLAY and m.to_move == 0
    assert m.output()["contract"]["multiplier"] == 4 and m.output()["contract"]["recountered"]


def test_capot_partner_is_told_to_pass():
    """§4.1: "No bid can exceed the capot; from then on, the opposing team may only pass or counter" - the
    capot bidder's partner can only pass, and the refusal must not offer a counter they cannot make."""
    m = run(fresh(), Action(0, "bid", "capot", 1), p(1))
    with pytest.raises(IllegalAction) as e:
        m.apply(Action(2, "bid", "capot", 0))
    assert e.value.message == "no bid can exceed a capot: you may only pass"
    m = run(fresh(), Action(0, "bid", "capot", 1))
    with pytest.raises(IllegalAction) as e:
        m.apply(Action(1, "bid", "capot", 0))
    assert e.value.message == "no bid can exceed a capot: you may only pass or counter"


# --- refusals --------------------------------------------------------------------------------------------------


def test_strict_partner_undertrump_refusal_without_a_higher_trump():
    """Option ``partner_undertrump: false``: partner has cut with the jack, you hold a lower trump and a club: the
    club only, and the refusal names no overtrump that does not exist."""
    m = position("H", "AS JH 8S", "9H 8C", {"partner_undertrump": False})
    assert legal(m) == {"8C"}
    assert refusal(m, "9H") == (
        "your partner is winning with the trump JH: you may discard, but not play a lower trump while you hold "
        "other cards"
    )


# --- belote: "invincible", never multiplied, with capot ---------------------------------------------------------


def tally(**kw) -> DealTally:
    base = {"takers": 0, "value": 80, "capot": False, "multiplier": 1, "card_points": (100, 62), "tricks": (5, 3)}
    base.update(belote=(0, 0))
    base.update(kw)
    return DealTally(**base)


def test_defenders_belote_against_a_made_capot():
    """§7: "A correctly announced Belote is invincible"; rule decisions "never lost": capot made 252 + 250 = 502
    to the takers, the defenders keep their 20."""
    s = score_deal(tally(value=250, capot=True, card_points=(252, 0), tricks=(8, 0), belote=(0, 20)), ScoringRules())
    assert s.made and s.score_change == (502, 20)


def test_takers_belote_on_a_failed_capot():
    """§7: "the point bonus is awarded even if the team falls short": capot failed with seven tricks →
    defenders 160 + 250 = 410, takers their belote 20."""
    s = score_deal(tally(value=250, capot=True, card_points=(140, 22), tricks=(7, 1), belote=(20, 0)), ScoringRules())
    assert not s.made and s.score_change == (20, 410)


def test_recountered_failed_belote_unmultiplied():
    """Rule decisions: recountered failed → defenders (160 + 100) x 4 = 1040; "Belote is then added unmultiplied
    to the side that announced it": takers 70 + 20 = 90 < 100, so 20."""
    s = score_deal(tally(value=100, multiplier=4, card_points=(70, 92), belote=(20, 0)), ScoringRules())
    assert s.score_change == (20, 1040)


def test_belote_through_a_real_deal_is_announced_with_the_first_card_only():
    """§7: "announced by saying "Belote" when playing the first card ... and then "Rebelote" when playing the
    second" - through apply: the queen carries the announcement, the king later is the rebelote (no key)."""
    m = position("H", "", "QH KH 7S 8S 9S 10S JS AS")
    m.apply(Action(0, "play", cards=(parse_card("QH"),), announce="belote"))
    assert m._belote == [20, 0]
    m2 = position("H", "", "QH KH 7S 8S 9S 10S JS AS")
    m2.apply(Action(0, "play", cards=(parse_card("QH"),)))
    assert not m2.belote_mask() and m2._belote == [0, 0]


def test_thrown_in_deal_passes_the_deal_right():
    """§4.1: four passes, "The dealer gathers the cards and passes them to the player to their right, who will be
    the new dealer"; §3.1 "For the next hand, the dealer will be the player to their right" (seat + 1)."""
    m = run(fresh(dealer=1), p(2), p(3), p(0), p(1))
    assert m.phase == BETWEEN_DEALS
    m.start_deal(m.random_deal(random.Random(1)))
    assert m.dealer == 2 and m.to_move == 3
