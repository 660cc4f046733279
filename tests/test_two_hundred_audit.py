"""Two Hundred audit: the auction's end conditions, the must-bid rule, the game's end and the doubled no-trump scores
through real auctions and real play, each test quoting the sentence of pagat.com's "200" (or of the shorter
text with the worked example; docs/rules/two_hundred.md) or the project's rule decision that it pins."""

import pytest

from rules.errors import IllegalAction, RecordError
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER, TRUMP
from rules.two_hundred.scoring import game_end
from tests.test_two_hundred_helpers import SUITED, act, legal, lowest_play, new_match

SIXES = "6S 6H 6D 6C"


def bids(m):
    return [a.get("value", a["type"]) for a in legal(m)]


# --- refusals in the player's words --------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [45, 52, 0, -5])
def test_a_bid_below_the_minimum_or_off_the_five_steps_is_refused_as_the_issue_words_it(value):
    """ "The minimum bid is 50, all bids must be multiples of 5": the refusal reads "a bid must be at least 50 and a
    multiple of 5"."""
    m = new_match(hands=SUITED)
    with pytest.raises(IllegalAction, match="a bid must be at least 50 and a multiple of 5"):
        act(m, 1, "bid", value=value)


def test_a_bid_above_100_is_refused_with_the_highest_possible_bid():
    """ "until somone bids 100, the highest possible bid"."""
    m = new_match(hands=SUITED)
    with pytest.raises(IllegalAction, match="at most 100"):
        act(m, 1, "bid", value=105)
    m = new_match({"hundred_for_two_hundred": True}, hands=SUITED)
    with pytest.raises(IllegalAction, match="at most 100, or 200 for '100 for 200'"):
        act(m, 1, "bid", value=150)


def test_the_follow_suit_refusal_names_the_suit_held():
    """ "Players must follow suit if able to": refused as "you must follow suit: you hold hearts"."""
    hands = ["AS KS QS JS 10S 9S 8S 7S 5H", "AH KH QH JH 10H 9H 8H 7H 5S", *SUITED[2:]]
    m = new_match(dealer=0, hands=hands)
    act(m, 1, "bid", value=50)
    for seat in (2, 3, 0):
        act(m, seat, "pass")
    act(m, 1, "play", cards=["AH"])
    act(m, 2, "play", cards=["AD"])
    act(m, 3, "play", cards=["AC"])
    with pytest.raises(IllegalAction, match="^you must follow suit: you hold hearts$"):
        act(m, 0, "play", cards=["AS"])


# --- the auction's end ---------------------------------------------------------------------------------------------


def test_three_passes_after_a_bid_end_the_auction_even_before_the_bidder_speaks_again():
    """ "If there is a bid, the bidding continues ... until three players have passed"."""
    m = new_match(dealer=0, hands=SUITED)
    act(m, 1, "pass")
    act(m, 2, "bid", value=50)
    act(m, 3, "pass")
    assert m.phase == BIDDING
    act(m, 0, "pass")
    assert m.phase == TRUMP and m.output()["contract"]["seat"] == 2


def test_the_bidding_goes_round_as_many_circuits_as_necessary():
    """ "the bidding continues for as many circuits as necessary" - and a passed player is skipped."""
    m = new_match(dealer=0, hands=SUITED)
    act(m, 1, "bid", value=50)
    act(m, 2, "pass")
    for value, seat in zip(range(55, 95, 5), [3, 0, 1, 3, 0, 1, 3, 0], strict=True):
        assert m.to_move == seat
        act(m, seat, "bid", value=value)
    assert m.phase == BIDDING and m.to_move == 1


def test_a_100_ends_the_auction_at_once_without_keeping():
    """ "or until somone bids 100, the highest possible bid": the others do not speak again."""
    m = new_match(dealer=0, hands=SUITED)
    act(m, 1, "bid", value=55)
    act(m, 2, "bid", value=100)
    assert m.phase == TRUMP and m.output()["contract"] == {"seat": 2, "bid": 100, "team": 0}


def test_a_non_dealer_100_ends_the_auction_once_the_dealer_has_passed():
    """Rule decision: "a 100 by another player then does not end the auction while the dealer may still keep" - a
    dealer who passed ("having passed cannot bid again in that auction") can no longer keep."""
    m = new_match({"dealer_keeps": True}, dealer=0, hands=SUITED)
    act(m, 1, "bid", value=50)
    act(m, 2, "bid", value=55)
    act(m, 3, "pass")
    act(m, 0, "pass")
    act(m, 1, "bid", value=100)  # seat 2 cannot keep, and the dealer passed
    assert m.phase == TRUMP and m.output()["contract"]["seat"] == 1


def test_the_others_pass_explicitly_while_the_dealer_may_keep_a_100():
    """ "When keeping is allowed, a bid of 100 ... by a player other than the dealer does not automatically end the
    auction. The dealer still has the right to keep the 100 bid" - and the dealer may also pass."""
    m = new_match({"dealer_keeps": True}, dealer=0, hands=SUITED)
    act(m, 1, "bid", value=100)
    for seat in (2, 3):
        assert bids(m) == ["pass"]
        with pytest.raises(IllegalAction):
            act(m, seat, "keep")
        act(m, seat, "pass")
    assert bids(m) == ["pass", "keep"]
    act(m, 0, "pass")
    assert m.phase == TRUMP and m.output()["contract"] == {"seat": 1, "bid": 100, "team": 1}


def test_the_dealer_keeping_the_highest_bid_ends_it_before_the_kept_bidder_speaks():
    """Rule decision: "the dealer keeping the highest possible bid ends it" (the 100 bidder cannot go higher)."""
    m = new_match({"dealer_keeps": True}, dealer=3, hands=SUITED)
    act(m, 0, "bid", value=100)
    act(m, 1, "pass")
    act(m, 2, "pass")
    act(m, 3, "keep")
    assert m.phase == TRUMP and m.output()["contract"] == {"seat": 3, "bid": 100, "team": 1}
    assert [a["type"] for a in m.output()["auction"]] == ["bid", "pass", "pass", "keep"]


def test_four_passes_throw_in_even_where_the_dealer_could_keep():
    """ "If all four players pass, the hands are thrown in without score and the next dealer deals"."""
    m = new_match({"dealer_keeps": True, "hundred_for_two_hundred": True}, dealer=1, hands=SUITED)
    for seat in (2, 3, 0, 1):
        act(m, seat, "pass")
    assert m.phase == BETWEEN_DEALS and m.deal_results[-1]["thrown_in"] is True
    assert m.scores() == [0, 0] and m.deal_results[-1]["score_change"] == [0, 0]


# --- the must-bid rule through real auctions -----------------------------------------------------------------------


def must_bid_deal(scores, calls, dealer=0):
    """SUITED hands; ``calls`` are the auction; the contractor names spades (seat 0's suit)."""
    m = new_match({"dealer_keeps": True}, dealer=dealer, hands=SUITED)
    m.unit_scores = list(scores)
    for seat, kind, *value in calls:
        act(m, seat, kind, **({"value": value[0]} if value else {}))
    act(m, m.contractor, "trump", suit="S")
    lowest_play(m)
    return m.deal_results[-1]


def test_a_defending_side_at_100_that_did_not_bid_scores_nothing():
    """ "if the contractor's opponents currently have a cumulative score of 100 or more, then they can score for points
    in their tricks only if at least one member of their team bid during the auction. If they both passed at their
    first opportunity to speak, they score nothing for the points in their tricks.\""""
    calls = [(1, "bid", 50), (2, "pass"), (3, "pass"), (0, "pass")]
    result = must_bid_deal([100, 0], calls)  # seat 0 holds every spade: team 0 takes points as defenders
    assert result["sides"] == [[1], [0]] and result["points"][1] > 0
    assert result["score_change"][0] == 0
    result = must_bid_deal([95, 0], calls)  # below 100 they score as usual
    assert result["score_change"][0] == result["points"][1]


def test_a_defending_side_whose_member_was_outbid_still_scores():
    """ "only if at least one member of their team bid during the auction": an outbid bid counts."""
    calls = [(1, "bid", 50), (2, "bid", 55), (3, "bid", 60), (0, "pass"), (1, "pass"), (2, "pass")]
    result = must_bid_deal([150, 0], calls)  # seat 2 (team 0) bid 55 and was outbid by seat 3
    assert result["sides"] == [[1], [0]] and result["points"][1] > 0
    assert result["score_change"][0] == result["points"][1]


def test_a_keep_qualifies_a_defending_side():
    """Rule decision: the must-bid rule counts "a `bid`, or the dealer's `keep`": the dealer keeps, is outbid, and the
    dealer's side (at 150, not otherwise having bid) scores its points as defenders."""
    kept = [(1, "bid", 50), (2, "pass"), (3, "pass"), (0, "keep"), (1, "bid", 55), (0, "pass")]
    result = must_bid_deal([150, 0], kept)
    assert result["sides"] == [[1], [0]] and result["points"][1] > 0
    assert result["score_change"][0] == result["points"][1]
    passed = [(1, "bid", 50), (2, "pass"), (3, "pass"), (0, "pass")]
    assert must_bid_deal([150, 0], passed)["score_change"][0] == 0


# --- the end of the game -------------------------------------------------------------------------------------------


def failing_contract(scores, calls=((1, 50), (2, None), (3, None), (0, None))):
    """Seat 1 contracts with spades as trump: seat 0 holds all the spades, so seat 1's side takes nothing."""
    m = new_match(dealer=0, hands=SUITED)
    m.unit_scores = list(scores)
    for seat, value in calls:
        act(m, seat, "pass") if value is None else act(m, seat, "bid", value=value)
    act(m, 1, "trump", suit="S")
    lowest_play(m)
    return m


def test_minus_200_loses_when_the_other_side_is_at_0_or_more():
    """ "The game also ends if one team reaches a negative score of 200 or worse while the other team's score is
    positive or zero. In that case the team with minus 200 or worse loses the game.\""""
    m = failing_contract([-100, -150])  # team 1 goes to -200; team 0 scores 100 and is at 0
    assert m.scores() == [0, -200] and m.phase == GAME_OVER and m.winner == 0


def test_minus_200_does_not_end_the_game_while_the_other_side_is_below_0():
    """ "while the other team's score is positive or zero\""""
    m = failing_contract([-105, -150])
    assert m.scores() == [-5, -200] and m.phase == BETWEEN_DEALS and m.winner is None


def test_the_contracting_side_wins_a_double_finish_whoever_it_is():
    """ "If both teams reach 200 or more on the same deal then the bidding team wins" - even with the lower score."""
    rules = new_match(hands=SUITED).scoring
    assert game_end(rules, [260, 205], [0, 1], (1,), 1, True).winner == 1
    assert game_end(rules, [205, 260], [0, 1], (0,), 0, True).winner == 0


def test_the_defenders_reaching_200_alone_win():
    """ "The first team to achieve a score of 200 points or more wins the game" - the defenders too (seat 2 bid 55,
    so team 0 at 150 scores)."""
    m = failing_contract([150, 0], [(1, 50), (2, 55), (3, None), (0, None), (1, 60), (2, None)])
    assert m.scores() == [250, -60] and m.phase == GAME_OVER and m.winner == 0


# --- no trumps and 100 for 200 through real play -------------------------------------------------------------------


def test_100_for_200_at_no_trumps_scores_plus_400():
    """ "No trump games score double" with "100 for 200": rule decision "+400 / -200"."""
    m = new_match({"hundred_for_two_hundred": True, "no_trump": True}, dealer=3, hands=SUITED)
    act(m, 0, "bid", value=200)  # the highest possible bid ends the auction
    act(m, 0, "trump", suit="NT")
    lowest_play(m)  # seat 0 leads spades throughout: nobody can follow and nothing trumps
    result = m.deal_results[-1]
    assert result["made"] is True and result["score_change"] == [400, 0] and m.winner == 0


def test_100_for_200_at_no_trumps_failing_loses_200():
    """ "If a bid of 100 for 200 fails, the contractor's team loses just 100 points", doubled at no trumps; the
    opponents "score twice the value of the cards in the tricks that they take"."""
    hands = ["AS KS QS JS 10S 9S 8S 7S 5H", "AH KH QH JH 10H 9H 8H 7H 5S", *SUITED[2:]]
    m = new_match({"hundred_for_two_hundred": True, "no_trump": True}, dealer=0, hands=hands)
    act(m, 1, "bid", value=200)
    act(m, 1, "trump", suit="NT")
    lowest_play(m)
    result = m.deal_results[-1]
    assert result["made"] is False and result["points"][1] > 0
    assert result["score_change"] == [2 * result["points"][1], -200]


# --- the deal check ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("hands, kitty", [
    ([SUITED[0].replace("5S", "7S"), *SUITED[1:]], SIXES),  # 7S twice in one hand: carries into another card's bit
    ([SUITED[0].replace("5S", "AS"), *SUITED[1:]], SIXES),  # AS twice in one hand
    ([SUITED[0].replace("5S", "6S"), *SUITED[1:]], SIXES),  # 6S both in a hand and the kitty
    (SUITED, "6S 6S 6D 6C"),  # a kitty card twice
])  # fmt: skip
def test_a_card_dealt_twice_is_refused_wherever_it_is(hands, kitty):
    """Record spec: "The cards of a deal must be exactly the pack that the game and options call for" - the quick
    bitmask check must not let a repeated card through."""
    with pytest.raises(RecordError, match="not the right pack|dealt more than once"):
        new_match({"kitty": True}, hands=hands, kitty=kitty)


# --- the kitty's discard: who sees what ----------------------------------------------------------------------------


def kitty_deal(rule):
    m = new_match({"kitty": True, "kitty_discard": rule}, dealer=0, hands=SUITED, kitty=SIXES)
    act(m, 1, "bid", value=50)
    for seat in (2, 3, 0):
        act(m, seat, "pass")
    act(m, 1, "discard", cards=["AH", "10H", "6S", "6D"])
    act(m, 1, "trump", suit="H")
    return m


@pytest.mark.parametrize("rule", ["defenders", "first_trick", "last_trick", "contractor"])
def test_nobody_sees_the_discard_until_the_end_of_the_play(rule):
    """ "No one is allowed to look at these discarded cards until the end of the play"; "4. ... the discard still
    cannot be looked at until the end of the play.\""""
    m = kitty_deal(rule)
    act(m, 1, "play", cards=["KH"])
    out = m.output()
    assert not {"discard", "discard_trumps_shown", "discard_has_points"} & set(out)
    lowest_play(m)
    assert sorted(m.output()["discard"]) == ["10H", "6D", "6S", "AH"]


def test_the_contractor_says_when_the_discard_holds_points():
    """ "7. Some players require the contractor to inform the other players if there are any point cards in the
    discard" - here the ace and ten of hearts (20 points)."""
    m = kitty_deal("announce_points")
    assert m.output()["discard_has_points"] is True and "discard" not in m.output()


def test_only_the_discarded_trumps_are_shown():
    """ "2. Some play that any trumps that are discarded must be shown to the other players after trumps are announced
    and before the play begins" - the trumps, not the other discarded cards."""
    m = kitty_deal("show_trumps")
    assert sorted(m.output()["discard_trumps_shown"]) == ["10H", "AH"] and "discard" not in m.output()


# --- the worked example through real auctions and real play --------------------------------------------------------

EW_BID = [(0, 55), (1, 60), (2, 75), (3, None), (0, None), (1, None)]  # East bids 60 and is outbid
EW_PASS = [(0, 75), (1, None), (2, None), (3, None)]  # East and West both just pass


@pytest.mark.parametrize("seed, calls, ns_points, after, over", [
    (12, EW_BID, 85, [205, 115], True),
    (12, EW_PASS, 85, [205, 100], True),
    (4, EW_BID, 75, [195, 125], False),
    (4, EW_PASS, 75, [195, 100], False),
    (21, EW_BID, 70, [45, 130], False),
    (21, EW_PASS, 70, [45, 100], False),
])  # fmt: skip
def test_the_worked_example_through_real_play(seed, calls, ns_points, after, over):
    """ "Example: Scores are NS:120, EW:100. NS bid 75. If NS take 85 card points, their new score is 205 and they win
    the game. If NS take 75 card points, their new score is 195. If East or West bid they score their 25 points for a
    cumulative score of 125; if they both just passed their score stays at 100. If NS take 70 card points they lose
    the 75 they bid and their score is now 45. EW can score their 30 points provided that one of them bid for a total
    of 130; if both just passed their score stays at 100." (seeded deals found to give NS 85, 75 and 70 points when
    the contractor names spades and everyone plays their lowest legal card)"""
    m = new_match(dealer=3, seed=seed)
    m.unit_scores = [120, 100]
    for seat, value in calls:
        act(m, seat, "pass") if value is None else act(m, seat, "bid", value=value)
    assert m.output()["contract"]["bid"] == 75 and m.output()["contract"]["team"] == 0
    act(m, m.contractor, "trump", suit="S")
    lowest_play(m)
    assert m.deal_results[-1]["points"] == [ns_points, 100 - ns_points]
    assert m.scores() == after and (m.phase == GAME_OVER) == over and m.winner == (0 if over else None)
