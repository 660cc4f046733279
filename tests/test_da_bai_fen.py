"""Da Bai Fen rules, each test citing the sentence of pagat.com's "Da Bai Fen" (docs/rules/da_bai_fen.md) it
implements."""

import json
import random

import pytest

from rules.actions import Action, DiscardChoice
from rules.cards import CARD_NAMES, nth_card, parse_card
from rules.da_bai_fen import DaBaiFen, level_name, outcome, trump_order
from rules.da_bai_fen.order import TRUMP
from rules.dealing import DealCards
from rules.errors import IllegalAction, RecordError
from rules.records import GameRecord, replay_text
from tests.test_da_bai_fen_helpers import (
    BASE_KITTY,
    base_match,
    cards,
    draw_all,
    play,
    play_deal_to,
    stock_for,
    stock_giving,
)


def refused(match, action, fragment):
    before = json.dumps(match.output(), sort_keys=True)
    with pytest.raises(IllegalAction) as e:
        match.apply(action)
    assert fragment in e.value.message
    assert json.dumps(match.output(), sort_keys=True) == before  # apply is atomic


# --- the trump order --------------------------------------------------------------------------------------------


def ranking(order, names):
    return [order.strength[parse_card(n)] for n in names]


def test_sixes_and_clubs_example():
    """
    "if sixes and clubs are trumps, the trump suit from high to low is: red joker, black joker, ♣6, ♠6/♢6/♡6 - all
    equal, ♣A, ♣K, ♣Q, ♣J, ♣10, ♣9, ♣8, ♣7, ♣5, ♣4, ♣3, ♣2."""
    order = trump_order(parse_card("6C") & 15, 3)
    high_to_low = ["RJ", "BJ", "6C", "6S", "AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "5C", "4C", "3C", "2C"]
    strengths = ranking(order, high_to_low)
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)
    assert ranking(order, ["6S", "6D", "6H"]) == [order.strength[parse_card("6S")]] * 3  # "all equal"
    assert all(order.effective_suit[parse_card(n)] == TRUMP for n in high_to_low + ["6D", "6H"])
    assert order.trump_mask.bit_count() == 18  # "In each hand there are eighteen trumps"
    # "The three remaining suits also rank ... A, K, Q, J, 10. 9, 8, 7, 6, 5, 4, 3, 2 (omitting the trump rank)"
    hearts = ranking(order, ["AH", "KH", "QH", "JH", "10H", "9H", "8H", "7H", "5H", "4H", "3H", "2H"])
    assert hearts == sorted(hearts, reverse=True) and max(hearts) < min(strengths)


@pytest.mark.parametrize("rank, suit", [("2", "S"), ("A", "H"), ("10", "D"), ("J", "C")])
def test_trump_orders_for_several_rank_suit_pairs(rank, suit):
    """
    "Jokers and cards of the trump rank all count as belonging to the trump suit, not to the suits marked on
    them"; the trump-suit card of the trump rank is third, the other three equal, then the trump suit."""
    top = parse_card(rank + suit)
    order = trump_order(top & 15, top >> 4)
    others = [parse_card(rank + s) for s in "SHDC" if s != suit]
    plain_trumps = [c for c in range(64) if c >> 4 == top >> 4 and c & 15 != top & 15 and CARD_NAMES[c] != "?"]
    st = order.strength
    assert st[parse_card("RJ")] > st[parse_card("BJ")] > st[top] > st[others[0]]
    assert {st[c] for c in others} == {st[others[0]]}
    assert max(st[c] for c in plain_trumps) < st[others[0]]
    assert order.trump_mask.bit_count() == 18


def test_yuan_zhu_eights_and_diamonds_example():
    """
    "with eights and diamonds trump, the trump suit from high to low is: red joker, black joker, ♢8, other 8's,
    ♢2, other 2's, ♢A, ♢K, ♢Q, ♢J, ♢10, ♢9, ♢7, ♢6, ♢5, ♢4, ♢3."""
    order = trump_order(parse_card("8D") & 15, 2, True)
    line = ["RJ", "BJ", "8D", "8S", "2D", "2S", "AD", "KD", "QD", "JD", "10D", "9D", "7D", "6D", "5D", "4D", "3D"]
    strengths = ranking(order, line)
    assert strengths == sorted(strengths, reverse=True) and len(set(strengths)) == len(strengths)
    assert ranking(order, ["2S", "2H", "2C"]) == [order.strength[parse_card("2S")]] * 3
    assert order.trump_mask.bit_count() == 21  # three more trumps: the other twos


# --- the draw and trump exposure --------------------------------------------------------------------------------


def test_draw_order_and_first_deal_exposer_leads():
    """
    "The starter draws the first card, the player to the starter's right takes the second card, and so on";
    "In the first hand whichever player exposes a two ... becomes the leader, and the leader's side become the
    declarers"; any seat may expose while another is drawing."""
    match = DaBaiFen({}, 3)
    stock = stock_giving(3, {1: cards("2H")})
    match.start_deal(DealCards(stock=stock))
    assert match.phase == "deal" and match.dealer == 3 and match.to_move == 3 and match.trump_rank == 2
    match.apply(Action(3, "draw"))
    assert match.hand(3) == [stock[0]] and match.to_move == 0
    draw_all(match, {20: (1, "2H")})
    assert match.output()["trump"] == "H" and match.leader == 1 and match.declarers == 1
    assert match.phase == "exchange" and len(match.hand(1)) == 18  # "the leader picks up the last six cards"
    assert set(match.hand(1)) >= set(stock[48:])


def test_exposures_are_listed_for_every_seat_that_can():
    """
    "Any player who draws a card of the trump rank during the deal may place it face up"; legal lists them."""
    match = DaBaiFen({}, 0)
    match.start_deal(DealCards(stock=stock_giving(0, {0: cards("2S"), 2: cards("2D")})))
    draw_all(match)
    legal = match.legal_json()
    assert legal[0] == {"seat": 0, "type": "draw"}  # the starter's draw that turns the kitty over
    assert {"seat": 0, "type": "expose", "card": "2S"} in legal and {"seat": 2, "type": "expose", "card": "2D"} in legal


def test_one_exposure_per_deal_and_its_refusals():
    """
    "you may ... expose at at any time provided that no other card has yet been exposed"."""
    match = DaBaiFen({}, 0)
    match.start_deal(DealCards(stock=stock_giving(0, {0: cards("2S 3S"), 1: cards("2H")})))
    draw_all(match)
    refused(match, Action(0, "expose", card=parse_card("3S")), "only a card of the trump rank (2)")
    refused(match, Action(0, "expose", card=parse_card("2H")), "you do not hold 2H")
    match.apply(Action(1, "expose", card=parse_card("2H")))  # after the 48th card, before the kitty turn
    assert match.phase == "exchange" and match.leader == 1
    refused(match, Action(0, "expose", card=parse_card("2S")), "only be exposed during the draw")


def test_second_exposure_refused_during_the_draw():
    match = DaBaiFen({}, 0)
    match.start_deal(DealCards(stock=stock_giving(0, {0: cards("2S"), 1: cards("2H")})))
    draw_all(match, {20: (1, "2H")}, until=30)
    assert match.phase == "deal" and match.drawn == 30
    refused(match, Action(0, "expose", card=parse_card("2S")), "trumps are already chosen: seat 1 exposed 2H")


def test_later_deals_leader_is_starter_and_any_player_may_expose():
    """
    "In subsequent hands the leader is the same player as the starter"; "in subsequent hands it is the current
    score of the declarers" (the trump rank); an opponent's exposure fixes the suit without changing the leader."""
    match = DaBaiFen({}, 0)
    play_deal_to(match, 15, exposer=0)  # declarers (team 0) +1 → 3; next starter: the leader's partner
    assert match.scores() == [3, 2] and match.next_dealer() == 2
    match.start_deal(DealCards(stock=stock_giving(2, {1: cards("3C")})))
    assert match.leader == 2 and match.trump_rank == 3
    draw_all(match, {5: (1, "3C")})
    assert match.leader == 2 and match.declarers == 0 and match.output()["trump"] == "C"


# --- the kitty decides trumps when nobody exposes ---------------------------------------------------------------


def kitty_turn(kitty_text, starter=0):
    match = DaBaiFen({}, starter)
    match.start_deal(DealCards(stock=stock_giving(starter, {}, kitty=cards(kitty_text))))
    draw_all(match)
    match.apply(Action(starter, "draw"))
    return match


def test_kitty_trump_rank_card_stops_the_turning():
    """
    "If a card of the trump rank is found among the last six cards, its suit becomes trumps and no further cards
    are turned up.\""""
    match = kitty_turn("AS 7H 2D KC 2H 3S")
    out = match.output()
    assert out["trump"] == "D" and out["kitty_turned"] == ["AS", "7H", "2D"]
    assert match.leader == 0 and match.declarers == 0  # "or the starter in the unlikely event that no one does"


def test_kitty_highest_card_earliest_among_equals_jokers_excluded():
    """
    "the highest ranking of the six cards, excluding Jokers, determines the trump suit; among cards of equal rank
    the earliest exposed takes precedence.\""""
    match = kitty_turn("RJ 9C KH 4S KD BJ", starter=2)
    out = match.output()
    assert out["trump"] == "H" and len(out["kitty_turned"]) == 6 and match.leader == 2


def test_no_exposure_after_the_kitty_is_turned():
    """
    "Once the first of these cards is exposed it is too late for anyone to determine the trump suit"."""
    match = DaBaiFen({}, 0)
    match.start_deal(DealCards(stock=stock_giving(0, {1: cards("2H")})))
    draw_all(match)
    match.apply(Action(0, "draw"))
    refused(match, Action(1, "expose", card=parse_card("2H")), "only be exposed during the draw")
    refused(match, Action(0, "draw"), "the draw is over")


# --- the leader's discard ---------------------------------------------------------------------------------------


def test_leader_discards_any_six():
    """
    "The leader then discards any six of his eighteen cards face down.\""""
    match = base_match(discard=None)
    legal = match.legal_actions()
    assert legal == [DiscardChoice(0, 6, tuple(sorted(match.hand(0))))]
    refused(match, Action(0, "discard", cards=tuple(cards("6S 5S 4S"))), "discard exactly 6 cards")
    refused(match, Action(0, "discard", cards=tuple(cards("6S 5S 4S 3S 4D JH"))), "you do not hold JH")
    refused(match, Action(1, "discard", cards=tuple(cards(BASE_KITTY))), "not your turn")
    match.apply(Action(0, "discard", cards=tuple(cards("RJ 2S AS KS AH KH"))))  # even trumps and points
    assert match.phase == "play" and len(match.hand(0)) == 12 and match.to_move == 0


def test_exposed_kitty_option_shows_the_six_cards():
    """
    "Many people play that after the deal the leader exposes the last six cards before adding them to his hand\""""
    assert base_match(discard=None).output()["kitty_shown"] == []
    shown = base_match(options={"kitty_exposed": True}, discard=None).output()["kitty_shown"]
    assert sorted(shown) == sorted(BASE_KITTY.split())


# --- the no-trumps draw claim and the special deal --------------------------------------------------------------

NO_TRUMPS_FOR_3 = [("2D", "3H"), ("8S", "AD"), ("7S", "KD"), ("2C", "3C")]


def test_claim_draw_by_a_player_without_trumps():
    """
    "Before the first lead any player who has no trumps at all in his hand may if he wishes expose his entire
    hand and claim a draw ... all the cards are thrown in and there is a new deal, started by the partner of the
    leader to the annulled hand\""""
    match = base_match(NO_TRUMPS_FOR_3, discard=None)
    assert Action(3, "claim_draw") in match.legal_actions()
    refused(match, Action(1, "claim_draw"), "you hold trumps")
    match.apply(Action(0, "discard", cards=tuple(cards(BASE_KITTY))))
    assert Action(3, "claim_draw") in match.legal_actions()
    match.apply(Action(3, "claim_draw"))
    result = match.deal_results[-1]
    assert result["thrown_in"] and result["score_change"] == [0, 0] and result["claimed_by"] == 3
    assert len(result["hand_shown"]) == 12 and match.phase == "between_deals" and match.next_dealer() == 2


def test_no_claim_after_the_first_card():
    match = base_match(NO_TRUMPS_FOR_3)
    play(match, 0, "AH")
    assert Action(3, "claim_draw") not in match.legal_actions()
    refused(match, Action(3, "claim_draw"), "before the first card is played")


def test_special_deal_exposer_of_own_sides_level_leads():
    """
    "in which any player may expose a card whose rank is equal to his side's score.  Whoever does this becomes
    the new leader and his side are the declarers.\""""
    match = base_match(NO_TRUMPS_FOR_3, discard=None)
    match.levels = [5, 3]  # as though some deals had been played
    match.apply(Action(3, "claim_draw"))
    match.start_deal(DealCards(stock=stock_giving(2, {0: cards("5S 3S"), 1: cards("3H 5H")})))
    assert match.dealer == 2 and match.leader is None and match.output()["contract"] is None
    draw_all(match)
    exposes = {(a.seat, CARD_NAMES[a.card]) for a in match.legal_actions() if a.type == "expose"}
    assert {(0, "5S"), (1, "3H")} <= exposes and not {(0, "3S"), (1, "5H")} & exposes
    refused(match, Action(1, "expose", card=parse_card("5H")), "your side's level (3)")
    match.apply(Action(1, "expose", card=parse_card("3H")))
    assert match.leader == 1 and match.declarers == 1 and match.trump_rank == 3 and match.phase == "exchange"


def test_special_deal_without_exposure_is_another_draw():
    """
    "if no one exposes a card during this special deal ... the hand should be treated as another draw and there
    should be another special deal\""""
    match = base_match(NO_TRUMPS_FOR_3, discard=None)
    match.apply(Action(3, "claim_draw"))
    match.start_deal(DealCards(stock=stock_giving(2, {}, kitty=cards("2S 2H 2D 2C RJ BJ"))))
    draw_all(match)
    match.apply(Action(2, "draw"))
    assert match.phase == "between_deals" and match.deal_results[-1]["thrown_in"]
    assert match.next_dealer() == 0 and match.next_mode == "special"


# --- leads, throws and following --------------------------------------------------------------------------------


def test_legal_lists_single_card_leads():
    match = base_match()
    plays = [a.cards for a in match.legal_actions() if a.type == "play"]
    assert sorted(plays) == sorted((c,) for c in match.hand(0))


def test_successful_throw_and_followers_play_as_many():
    """
    "A player may lead ... a group of cards of the same suit"; "Each of the other three players in turn must play
    the same number of cards as were led.  As far as possible they must play cards of the suit led.\""""
    match = base_match()
    play(match, 0, "AH KH")
    assert match.phase == "play" and match.failed_throws == []
    refused(match, Action(1, "play", cards=tuple(cards("JH"))), "2 cards were led: play 2 cards")
    refused(match, Action(1, "play", cards=tuple(cards("JH QS"))), "you must follow with hearts: you hold 3 hearts, "
            "so play 2 hearts")  # fmt: skip
    legal = {a.cards for a in match.legal_actions()}
    assert legal == {tuple(sorted(p)) for p in [cards("JH 10H"), cards("JH 4H"), cards("10H 4H")]}
    play(match, 1, "JH 4H")
    play(match, 2, "9H 8H")
    play(match, 3, "7H 6H")
    assert match.trick == [] and match.trick_leader == 0 and match.points == [10, 0]  # the KH


def test_following_with_too_few_cards_of_the_suit():
    """
    "Having run out of cards of the suit led a player may play any cards he chooses.\""""
    match = base_match([("8H", "4C")])  # seat 2 keeps one heart (9H)
    play(match, 0, "AH KH")
    play(match, 1, "10H 4H")
    refused(match, Action(2, "play", cards=tuple(cards("10S 9S"))), "you must follow with hearts: you hold only "
            "1 heart (9H), so play it and 1 other card")  # fmt: skip
    assert all(parse_card("9H") in a.cards for a in match.legal_actions())
    play(match, 2, "9H 10C")
    play(match, 3, "7H 5H")
    assert match.points == [35, 0]  # KH, 10H, 10C, 5H to the leader's side


def test_a_void_player_ruffing_with_all_trumps_wins_a_throw():
    """
    "If one or more players play nothing but trumps to the trick, the trick is won by whichever of these played
    the highest trump"; a mixed play cannot win: "A multiple lead may also win because a member of the other team,
    although void, does not have enough trumps to match the number of cards led.\""""
    swaps = [("7H", "QS"), ("6H", "JS"), ("5H", "BJ")]  # seat 3 void in hearts, seat 1 with six hearts
    match = base_match(swaps)
    play(match, 0, "AH KH")
    play(match, 1, "7H 6H")
    play(match, 2, "9H 8H")
    play(match, 3, "QS JS")
    assert match.trick_leader == 3 and match.points == [0, 10]
    mixed = base_match(swaps)
    play(mixed, 0, "AH KH")
    play(mixed, 1, "7H 6H")
    play(mixed, 2, "9H 8H")
    play(mixed, 3, "BJ 8C")
    assert mixed.trick_leader == 0


RUFFERS = [
    "2S AH KH RJ BJ 9S 10S KD AD KC AC 4D",
    "2D 3S 4S 6S QD JD 10D 9D QC JC 10C 9C",  # no hearts
    "QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H QS",
    "2C AS 7S 8S 8D 7D 6D 5D 8C 7C 6C 5C",  # no hearts
]
RUFFERS_KITTY = "5S JS KS 3D 3C 4C"


@pytest.mark.parametrize(
    "seat1, seat3, winner",
    [("2D 3S", "2C AS", 1), ("3S 4S", "2C AS", 3), ("3S 4S", "2C 8D", 1), ("2D QD", "2C AS", 3)],
)
def test_two_void_players_ruff_a_double_lead(seat1, seat3, winner):
    """
    "If one or more players play nothing but trumps to the trick, the trick is won by whichever of these played
    the highest trump.  Among trumps of equal rank the one which is played earliest beats the others."  2D then 2C
    (equal trump-rank cards): the first played wins; 4S then 2C: the 2C; a play mixing a trump and a plain card
    cannot win, whatever its trump."""
    match = DaBaiFen({}, 0)
    match.start_deal(DealCards(stock=stock_for([cards(h) for h in RUFFERS], cards(RUFFERS_KITTY), 0)))
    draw_all(match, {1: (0, "2S")})
    match.apply(Action(0, "discard", cards=tuple(cards(RUFFERS_KITTY))))
    play(match, 0, "AH KH")
    assert match.failed_throws == []  # nobody else holds a heart above the king
    play(match, 1, seat1)
    play(match, 2, "QH JH")
    play(match, 3, seat3)
    assert match.trick_leader == winner and match.points == ([0, 10] if winner % 2 else [10, 0])


def test_equal_trumps_first_played_wins():
    """
    "Among trumps of equal rank the one which is played earliest beats the others.\""""
    match = base_match()
    play(match, 0, "AS")
    play(match, 1, "QS")
    play(match, 2, "2H")
    play(match, 3, "2D")
    assert match.trick_leader == 2


def test_failed_throw_is_a_revoke_scored_as_losing_every_trick():
    """
    "If it turns out that anyone ... holds a card of the suit led which beats any one of the cards of a multiple
    lead then the lead is a revoke.  The penalty for a revoke is that the hand is scored as though the offending side
    had lost every trick."  The failed lead is accepted and the deal ends (spec); the result names the card."""
    match = base_match()
    play(match, 0, "4C 3C")
    result = match.deal_results[-1]
    assert match.phase == "between_deals"
    assert result["failed_throw"]["beaten_by"] == {"seat": 1, "card": "5C"}
    assert result["failed_throw"]["beaten_card"] == "3C"
    assert "seat 1 holds 5C, which beats 3C" in result["explain"]
    # all 95 points in play plus the kitty's 5S doubled go to the opponents: 105 → "Opponents score 2"
    assert result["opponent_points"] == 105 and result["score_change"] == [0, 2] and match.next_dealer() == 1


def test_throw_beaten_only_by_partner_fails_too():
    """
    "(even the partner of the one who led)\""""
    swaps = [("AC", "9H"), ("KC", "8H"), ("QC", "10D"), ("5C", "9D"), ("8C", "8D"), ("7C", "10S")]
    match = base_match(swaps)
    play(match, 0, "4C 3C")
    assert match.deal_results[-1]["failed_throw"]["beaten_by"]["seat"] == 2


def test_opponents_failed_throw_gives_the_declarers_a_clean_sweep():
    match = base_match()
    play(match, 0, "3C")
    play(match, 1, "AC")
    play(match, 2, "6C")
    play(match, 3, "7C")
    play(match, 1, "QC 5C")  # beaten by seat 2's 9C (the 6C is gone)
    result = match.deal_results[-1]
    assert result["opponent_points"] == 0 and result["score_change"] == [2, 0] and result["made"] is True
    assert result["failed_throw"]["beaten_by"] == {"seat": 2, "card": "9C"}


def test_equal_trump_rank_cards_do_not_beat_a_throw():
    """
    "beats" means strictly higher (spec): a thrown 2H is not beaten by an equal 2D or 2C; "None of these
    advantages apply to multiple trump leads, which although legal are very seldom used"."""
    match = base_match([("BJ", "3C"), ("2H", "4C")])  # seat 0: both jokers, 2S and 2H; seat 3 keeps 2D, 2C
    assert match.throw_risk(0, cards("RJ BJ 2S 2H")) == {}
    play(match, 0, "RJ BJ 2S 2H")
    assert match.failed_throws == [] and match.phase == "play" and match.lead_size == 4


def test_multi_card_lead_must_be_one_suit():
    match = base_match()
    """
    "A player may lead any single card, or a group of cards of the same suit"; "During the play, Jokers and cards
    of the trump rank all count as belonging to the trump suit, not to the suits marked on them.\""""
    refused(match, Action(0, "play", cards=tuple(cards("AH AD"))), "cards led together must be of one suit: AH is "
            "a heart, AD is a diamond")  # fmt: skip
    refused(match, Action(0, "play", cards=tuple(cards("AH AH"))), "you listed AH twice")
    refused(match, Action(0, "play", cards=tuple(cards("AH 2S"))), "AH is a heart, 2S is a trump (the jokers and "
            "every 2 are trumps)")  # fmt: skip
    play(match, 0, "RJ 2S AS KS")  # a joker, the trump-suit 2 and spades: all trumps, one suit, accepted ...
    # ... and "a card of the suit led which beats any one of the cards": the black joker is of the suit led (trumps)
    assert match.deal_results[-1]["failed_throw"]["beaten_by"] == {"seat": 1, "card": "BJ"}


def test_follow_refusals_in_a_players_words():
    """
    "Each of the other three players in turn must play the same number of cards as were led.  As far as possible
    they must play cards of the suit led.  Having run out of cards of the suit led a player may play any cards he
    chooses.\""""
    match = base_match()
    play(match, 0, "AH KH QH")
    refused(match, Action(1, "play", cards=tuple(cards("JH 10H QS"))), "you must follow with hearts: you hold 3 "
            "hearts, so play 3 hearts")  # fmt: skip
    refused(match, Action(1, "play", cards=tuple(cards("JH 10H 4H 5C"))), "3 cards were led: play 3 cards (you "
            "gave 4)")  # fmt: skip
    play(match, 1, "JH 10H 4H")
    refused(match, Action(2, "play", cards=tuple(cards("9H 2H 10S"))), "you must follow with hearts: you hold only 2 "
            "hearts (9H 8H), so play both and 1 other card (2H is a trump, not a heart)")  # fmt: skip
    play(match, 2, "9H 8H 2H")
    single = base_match()
    play(single, 0, "RJ")
    refused(single, Action(1, "play", cards=tuple(cards("AC"))), "you must follow with trumps: you hold BJ, QS, JS")
    one_left = base_match([("6H", "4C"), ("5H", "3C")])  # seat 3: 7H the only heart
    play(one_left, 0, "AH KH")
    play(one_left, 1, "JH 4H")
    play(one_left, 2, "9H 8H")
    refused(one_left, Action(3, "play", cards=tuple(cards("8C 2C"))), "you hold only 1 heart (7H), so play it and 1 "
            "other card")  # fmt: skip


def test_failed_throw_played_as_lowest_card_option():
    """Option failed_throw 'lowest_card': only the lowest card is played and the deal goes on."""
    match = base_match(options={"failed_throw": "lowest_card"})
    play(match, 0, "4C 3C")
    out = match.output()
    assert match.phase == "play" and out["trick"] == [{"seat": 0, "cards": ["3C"]}]
    assert out["failed_throws"][0]["beaten_by"] == {"seat": 1, "card": "5C"}
    assert parse_card("4C") in match.hand(0)
    play_out_lowest(match)
    assert match.deal_results[-1]["failed_throws"][0]["beaten_card"] == "3C"


def test_throw_risk_warns_before_a_gamble():
    """The helper a player sees before confirming a throw: the cards that could beat it, from what they know."""
    match = base_match()
    assert match.throw_risk(0, cards("AH KH")) == {}
    assert match.throw_risk(0, cards("AH KH QH")) == {}  # the JH is lower
    risk = match.throw_risk(0, cards("AH KH QH 3H"))
    assert set(risk) == {"3H"} and {"4H", "JH"} <= set(risk["3H"]) and "QH" not in risk["3H"]
    assert match.throw_risk(0, cards("AD KD")) == {}
    assert set(match.throw_risk(0, cards("4C 3C"))) == {"4C", "3C"}


# --- counting cards, the kitty and results ----------------------------------------------------------------------


def play_out_lowest(match):
    while match.phase == "play":
        legal = match.legal_actions()
        match.apply(min((a for a in legal if a.type == "play"), key=lambda a: a.cards))


@pytest.mark.parametrize("options, factor", [({}, 2), ({"kitty_multiplier": "last_trick_size"}, 1)])
def test_kitty_counts_double_for_the_last_trick(options, factor):
    """
    "Any counting cards among the six discarded by the dealer ... are worth double (20 for Kings and tens, 10 for
    fives) and are won by the side which wins the last trick"; the variant multiplies "by the number of cards played
    together by each player in the last trick" (one here)."""
    match = base_match(options=options, discard="KH AH 6S 5S 4S 3S")  # 15 points in the discard
    play_out_lowest(match)
    result = match.deal_results[-1]
    winner_team = result["last_trick_winner"] % 2
    assert result["kitty_points"] == 15
    assert result["opponent_points"] + result["declarer_points"] == 100 - 15 + 15 * factor
    declarers = result["declarers"]
    taken = result["declarer_points"] if winner_team == declarers else result["opponent_points"]
    assert taken >= 15 * factor


STEP_40 = [(0, 2, 0, True), (5, 1, 0, True), (35, 1, 0, True), (40, 0, 0, False), (75, 0, 0, False),
           (80, 0, 1, False), (95, 0, 1, False), (100, 0, 2, False), (130, 0, 2, False)]  # fmt: skip
STEP_20 = [(0, 3, 0, True), (5, 2, 0, True), (15, 2, 0, True), (20, 1, 0, True), (35, 1, 0, True),
           (40, 0, 0, False), (55, 0, 0, False), (60, 0, 1, False), (75, 0, 1, False), (80, 0, 2, False),
           (95, 0, 2, False), (100, 0, 3, False), (115, 0, 3, False), (120, 0, 4, False)]  # fmt: skip


@pytest.mark.parametrize("points, decl, opp, stay", STEP_40)
def test_result_table(points, decl, opp, stay):
    """
    "Zero: Declarers score 2 / 5 to 35: Declarers score 1 / 40 to 75: No score, Opponents become new declarers /
    80 to 95: Opponents score 1 / 100 or more: Opponents score 2\""""
    o = outcome(points, 40)
    assert (o.declarers_gain, o.opponents_gain, o.declarers_stay) == (decl, opp, stay)


@pytest.mark.parametrize("points, decl, opp, stay", STEP_20)
def test_twenty_point_table(points, decl, opp, stay):
    """
    "Some play that a game point is scored for each 20 card points ... the table is extended in the obvious
    way.\""""
    o = outcome(points, 20)
    assert (o.declarers_gain, o.opponents_gain, o.declarers_stay) == (decl, opp, stay)


# Every row of both tables through real play: the first deal, starter 0, seat 1 exposes and leads (so the leader is
# not the starter: "Previous leader's partner" is seat 3, "Player to previous leader's right" seat 2).  Points above
# 100 come from the kitty: KS 10S 5S discarded (25) and the last trick won by the opponents (doubled: 50).
KITTY_25 = "KS 10S 5S 3S 4S 6S"
ROWS_40 = [(0, [0, 2], True), (5, [0, 1], True), (35, [0, 1], True), (40, [0, 0], False), (75, [0, 0], False),
           (80, [1, 0], False), (95, [1, 0], False), (100, [2, 0], False), (125, [2, 0], False)]  # fmt: skip
ROWS_20 = [(0, [0, 3], True), (5, [0, 2], True), (15, [0, 2], True), (20, [0, 1], True), (35, [0, 1], True),
           (40, [0, 0], False), (55, [0, 0], False), (60, [1, 0], False), (75, [1, 0], False), (80, [2, 0], False),
           (95, [2, 0], False), (100, [3, 0], False), (115, [3, 0], False), (120, [4, 0], False)]  # fmt: skip


def check_row_through_play(options, points, change, stay):
    match = DaBaiFen(options, 0)
    result = play_deal_to(match, points, exposer=1, discard=KITTY_25 if points > 100 else None)
    assert result["leader"] == 1 and result["declarers"] == 1
    assert result["score_change"] == change and result["made"] is stay
    assert match.scores() == [2 + change[0], 2 + change[1]]
    # "No change" / "Opponents become new declarers"; "Previous leader's partner" / "Player to previous leader's right"
    assert match.declarers == (1 if stay else 0) and match.next_dealer() == (3 if stay else 2)
    # the next hand: "the leader is the same player as the starter", the trump rank "the current score of the declarers"
    rank = level_name(match.levels[match.declarers])
    nxt = play_deal_to(match, 50, exposer=0, suit="H")
    assert nxt["leader"] == (3 if stay else 2) and nxt["trump_rank"] == rank


@pytest.mark.parametrize("points, change, stay", ROWS_40)
def test_result_table_rows_through_real_play(points, change, stay):
    """
    "Zero: Declarers score 2, No change, Previous leader's partner / 5 to 35: Declarers score 1, No change, Previous
    leader's partner / 40 to 75: No score, Opponents become new declarers, Player to previous leader's right / 80 to
    95: Opponents score 1 ... / 100 or more: Opponents score 2 ...\""""
    check_row_through_play({}, points, change, stay)


@pytest.mark.parametrize("points, change, stay", ROWS_20)
def test_twenty_point_table_rows_through_real_play(points, change, stay):
    """
    "Zero: Declarers score 3 / 5 to 15: Declarers score 2 / 20 to 35: Declarers score 1 / 40 to 55: No score / 60 to
    75: Opponents score 1 / 80 to 95: Opponents score 2 / 100 to 115: Opponents score 3"; "(With a lot of points in
    the discard the opponents could in principle score more than 115 points by winning the last trick, in which case
    the table is extended in the obvious way.)\""""
    check_row_through_play({"level_step": 20}, points, change, stay)


def test_kitty_doubled_to_the_last_trick_through_real_play():
    """
    "Any counting cards among the six discarded by the dealer at the beginning of the hand are worth double (20 for
    Kings and tens, 10 for fives) and are won by the side which wins the last trick.\""""
    won = play_deal_to(DaBaiFen({}, 0), 60, exposer=1, discard=KITTY_25, opponents_take_last=True)
    assert won["kitty_points"] == 25 and won["last_trick_winner"] % 2 == 0  # the opponents (team 0) took it
    assert won["opponent_points"] == 60 and won["declarer_points"] == 75 + 50 - 60
    lost = play_deal_to(DaBaiFen({}, 0), 60, exposer=1, discard=KITTY_25, opponents_take_last=False)
    assert lost["last_trick_winner"] % 2 == 1 and lost["declarer_points"] == 75 + 50 - 60
    single = play_deal_to(DaBaiFen({"kitty_multiplier": "last_trick_size"}, 0), 60, exposer=1, discard=KITTY_25,
                          opponents_take_last=True)  # fmt: skip
    assert single["declarer_points"] == 75 + 25 - 60  # "an ordinary single trick ... the points ... are not doubled"


def test_kitty_multiplied_by_a_double_last_trick_through_real_play():
    """
    "Some play that if the opponents win the last trick, the points in the discard, instead of being doubled, are
    multiplied by the number of cards played together by each player in the last trick.  So if the last trick is an
    ordinary single trick won by the opponents, the points in the discard are not doubled, if it is a double trick
    they are doubled\""""
    match = DaBaiFen({"kitty_multiplier": "last_trick_size"}, 0)
    result = play_deal_to(match, 100, exposer=1, discard=KITTY_25, opponents_take_last=True, double_last=True)
    assert [len(p["cards"]) for p in match.output()["last_trick"]] == [2, 2, 2, 2]
    assert result["last_trick_winner"] % 2 == 0 and result["declarer_points"] == 75 + 2 * 25 - 100
    assert result["score_change"] == [2, 0]


def test_forty_exactly_is_a_draw_option():
    """
    "Some play that if the opponents score 40 points exactly, the result is a draw, and in the next deal the first
    person who exposes a card with rank equal to his or her side's score becomes the leader, and this person's team
    are the declarers.\""""
    assert outcome(40, 40, forty_is_draw=True).draw and not outcome(45, 40, forty_is_draw=True).draw
    match = DaBaiFen({"forty_is_draw": True}, 0)
    play_deal_to(match, 35, exposer=0)  # team 0: 2 → 3, team 1 stays on 2
    result = play_deal_to(match, 40, exposer=1)
    assert result["draw"] and result["score_change"] == [0, 0] and match.scores() == [3, 2]
    assert match.next_mode == "special" and match.declarers is None and match.next_dealer() == 0
    special = play_deal_to(match, 10, exposer=3, suit="D")  # seat 3 exposes a two: team 1's level
    assert special["leader"] == 3 and special["declarers"] == 1 and special["trump_rank"] == "2"
    assert match.scores() == [3, 3]


def test_worked_example_of_a_game():
    """
    "Suppose South exposes a two during the deal, becoming the leader, and East-West take 15 points.  Then N-S's
    score goes up to three, and North is the next starter.  On this second hand three must be the trump rank (N-S's
    score).  West exposes a three, and E-W take 40 points.  The score is still three to N-S and two to E-W, but now
    E-W become the declarers with West as starter.  The trump rank is now two (E-W's score).  East exposes a 2 and N-S
    take no points at all.  E-W now have a score of four.  Four is the trump rank and East is the starter."
    Seats in order of play: North 0, West 1, South 2, East 3.  Every deal is drawn, exposed and played for real, and
    the record of the game replays to the same state."""
    north, west, south, east = 0, 1, 2, 3
    match = DaBaiFen({}, north)
    record = GameRecord("da_bai_fen", {}, north)
    first = play_deal_to(match, 15, exposer=south, suit="H", record=record)
    assert first["leader"] == south and first["declarers"] == 0 and first["trump"] == "H"
    assert match.scores() == [3, 2] and match.next_dealer() == north
    second = play_deal_to(match, 40, exposer=west, suit="D", record=record)
    assert second["trump_rank"] == "3" and second["leader"] == north and second["trump"] == "D"
    assert match.scores() == [3, 2] and match.declarers == 1 and match.next_dealer() == west
    third = play_deal_to(match, 0, exposer=east, suit="C", record=record)
    assert third["trump_rank"] == "2" and third["leader"] == west and third["declarers"] == 1
    assert match.scores() == [3, 4] and match.next_dealer() == east
    fourth = play_deal_to(match, 20, exposer=north, suit="S", record=record)
    assert fourth["trump_rank"] == "4" and fourth["leader"] == east
    status, out = replay_text(record.dumps())
    assert status == 0 and out["scores"] == match.scores() == [3, 5]
    assert [r["leader"] for r in out["deal_results"]] == [south, north, west, east]


def test_worked_example_of_winning_above_ace():
    """
    "Suppose N-S have a score of king and E-W are on queen.  E-W are declarers but N-S take 90 points.  The result
    is that N-S have a score of ace and become declarers, but they have not won the game yet - they need to score
    another point to win."  Reached through real play from queens ("start_level")."""
    match = DaBaiFen({"start_level": "Q"}, 0)
    play_deal_to(match, 20, exposer=0)  # N-S (team 0) declare at Q: +1 → K
    play_deal_to(match, 50, exposer=1)  # N-S declare at K, E-W take 50: E-W become declarers
    assert match.scores() == [13, 12] and match.declarers == 1
    result = play_deal_to(match, 90, exposer=2, suit="H")
    assert result["trump_rank"] == "Q" and result["score_change"] == [1, 0]
    assert match.scores() == [14, 12] and match.declarers == 0 and match.winner is None
    assert match.phase == "between_deals"
    last = play_deal_to(match, 20, exposer=3, suit="C")
    assert last["trump_rank"] == "A" and last["declarers"] == 0
    assert match.scores() == [15, 12] and match.winner == 0 and match.phase == "game_over"
    assert level_name(15) == "A+1"


def test_shorter_game_and_starting_level():
    """
    "a shortened game in which the winners are the side whose score first goes above seven"; "Starting at seven
    might be a better idea"."""
    match = DaBaiFen({"target": "7", "start_level": "5"}, 0)
    assert match.scores() == [5, 5]
    play_deal_to(match, 0, exposer=1, suit="H")  # team 1 declarers: +2 → 7, not above seven
    assert match.scores() == [5, 7] and match.winner is None
    play_deal_to(match, 30, exposer=0)  # team 1 declare at 7: +1 → 8, above seven
    assert match.scores() == [5, 8] and match.winner == 1 and match.phase == "game_over"
    with pytest.raises(RecordError, match="above the target"):
        DaBaiFen({"target": "5", "start_level": 7})


def test_twos_always_trump_changes_who_may_claim_a_draw():
    """Yuan zhu: "twos are always trumps, no matter what the score is" (so a two is a trump for the claim);
    "If the trump rank is not two, the twos rank between the trump rank and the ace"."""
    assert base_match(options={"twos_always_trump": True}).order.trump_mask.bit_count() == 18  # rank 2: no change
    no_trumps_but_a_two = "7H 6H 5H 7D 6D 5D 8C 7C 4H AD KD 2C"
    for yuan_zhu, can_claim in [(False, True), (True, False)]:
        match = DaBaiFen({"start_level": "3", "twos_always_trump": yuan_zhu}, 0)
        match.start_deal(DealCards(stock=stock_giving(0, {0: cards("3S"), 3: cards(no_trumps_but_a_two)})))
        draw_all(match, {47: (0, "3S")})
        assert (Action(3, "claim_draw") in match.legal_actions()) is can_claim
        if yuan_zhu:
            st = match.order.strength
            assert st[parse_card("3H")] > st[parse_card("2S")] > st[parse_card("2C")] > st[parse_card("AS")]


@pytest.mark.parametrize("yuan_zhu", [False, True])
def test_twos_always_trump_in_following(yuan_zhu):
    """
    "Some play that twos are always trumps, no matter what the score is": with threes trump a player whose only
    heart-marked card is 2H has no heart to follow a heart lead with (yuan zhu), or must play it (the main game)."""
    match = DaBaiFen({"start_level": "3", "twos_always_trump": yuan_zhu}, 0)
    hands = {0: cards("3S AH"), 1: cards("2H 4D 5D 6D 7D 8D 9D 10D JD QD KD AD")}
    match.start_deal(DealCards(stock=stock_giving(0, hands, seed=7)))
    draw_all(match, {1: (0, "3S")})
    match.apply(Action(0, "discard", cards=tuple(match.stock[48:])))
    play(match, 0, "AH")
    if yuan_zhu:
        play(match, 1, "4D")
    else:
        refused(match, Action(1, "play", cards=tuple(cards("4D"))), "you must follow with hearts: you hold 2H")


def test_playout_is_the_same_as_playing_card_by_card():
    """The fast path gives exactly the state the same random choices give through draw_rest/play_card."""
    for seed in range(5):
        fast, slow = DaBaiFen({}, seed % 4), DaBaiFen({}, seed % 4)
        rng_fast, rng_slow = random.Random(seed), random.Random(seed)
        fast.start_deal(fast.random_deal(rng_fast))
        slow.start_deal(slow.random_deal(rng_slow))
        fast.playout(rng_fast)
        slow.draw_rest()
        slow.draw_card()
        slow.apply(Action(slow.leader, "discard", cards=tuple(rng_slow.sample(slow.hand(slow.leader), 6))))
        while slow.phase == "play":
            legal = slow.legal_card_mask()
            slow.play_card(nth_card(legal, int(rng_slow.random() * legal.bit_count())))
        assert json.dumps(fast.output(), sort_keys=True) == json.dumps(slow.output(), sort_keys=True)


# --- records ----------------------------------------------------------------------------------------------------


def record(deal, options=None):
    return json.dumps({"format": "cardtable-record/1", "game": "da_bai_fen", "options": options or {},
                       "first_dealer": 0, "deals": [deal]})  # fmt: skip


@pytest.mark.parametrize(
    "deal, options, fragment",
    [
        ({"hands": [[]] * 4, "kitty": [], "actions": []}, {}, "stock"),
        ({"stock": ["AS"] * 54, "actions": []}, {}, "more than once"),
        ({"stock": [n for n in CARD_NAMES if n != "?"][:40], "actions": []}, {}, "not the right pack"),
        ({"stock": [CARD_NAMES[c] for c in stock_giving(0, {})][:53], "actions": []}, {}, "54 cards, not 53"),
        ({"stock": [CARD_NAMES[c] for c in stock_giving(0, {})], "actions": []}, {"level_step": 30}, "level_step"),
        ({"stock": [CARD_NAMES[c] for c in stock_giving(0, {})], "actions": []}, {"target": "Z"}, "target"),
        ({"stock": [CARD_NAMES[c] for c in stock_giving(0, {})], "actions": []}, {"trumps": 1}, "unknown option"),
    ],
)
def test_malformed_records_exit_2(deal, options, fragment):
    status, out = replay_text(record(deal, options))
    assert status == 2 and fragment in out["error"]["message"]


def test_an_unknown_action_is_exit_1():
    deal = {"stock": [CARD_NAMES[c] for c in stock_giving(0, {})], "actions": [{"seat": 0, "type": "bid", "value": 5}]}
    status, out = replay_text(record(deal))
    assert status == 1 and "not an action in Da Bai Fen" in out["error"]["message"]


@pytest.mark.parametrize("drawn", [0, 1, 5, 47, 48])
def test_draw_rest_is_the_same_as_drawing_card_by_card(drawn):
    """Fast path: draw_rest() deals exactly what repeated draws deal ("and so on in anti-clockwise rotation")."""
    fast, slow = DaBaiFen({}, 1), DaBaiFen({}, 1)
    deal = fast.random_deal(random.Random(drawn))
    fast.start_deal(deal)
    slow.start_deal(deal)
    for _ in range(drawn):
        fast.draw_card()
    fast.draw_rest()
    draw_all(slow)
    assert fast.hands == slow.hands and fast.drawn == slow.drawn == 48
