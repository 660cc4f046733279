"""Two Hundred, the standard four-player game: each test quotes the sentence of the rule texts it implements
(pagat.com's "200" and the shorter text with the worked example: docs/rules/two_hundred.md) or the rule decision it
follows."""

import pytest

from rules.errors import IllegalAction, RecordError
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER, PLAY, TRUMP
from rules.two_hundred import TwoHundred
from rules.two_hundred.scoring import Side, game_end, score_deal, scoring_rules
from rules.two_hundred.table import CARD_POINTS, pack_of_size
from tests.test_two_hundred_helpers import SUITED, act, cards, legal, lowest_play, new_match


def bids(m):
    return [a.get("value", a["type"]) for a in legal(m)]


def standard_rules(**options):
    return scoring_rules({**TwoHundred().options, **options}, drop_out=False)


# --- players and cards ---------------------------------------------------------------------------------------------


def test_the_pack_has_36_cards_and_100_points():
    """ "a 36-card pack is created by removing all the 2's, 3's, 4's, 6's ... each ace: 10 points, each ten: 10
    points, each five: 5 points ... so that there are 100 card points in the deck altogether.\""""
    pack = TwoHundred().pack()
    assert len(pack) == 36 and sum(CARD_POINTS[c] for c in pack) == 100
    assert {c & 15 for c in pack} == {c & 15 for c in cards("AS KS QS JS 10S 9S 8S 7S 5S")}


@pytest.mark.parametrize("size", [36, 40, 44, 48, 52])
def test_every_pack_holds_100_points(size):
    """ "In all forms of the game, the cards have point values as follows" (one five per suit in every pack)."""
    assert sum(CARD_POINTS[c] for c in pack_of_size(size)) == 100


def test_nine_cards_each_and_a_wrong_pack_is_a_record_error():
    """ "The dealer then deals 9 cards face down to each player"."""
    assert TwoHundred().hand_sizes() == [9, 9, 9, 9]
    with pytest.raises(RecordError, match="6S not in this game's pack"):
        new_match(hands=[SUITED[0].replace("5S", "6S"), *SUITED[1:]])


# --- bidding -------------------------------------------------------------------------------------------------------


def test_the_player_left_of_the_dealer_speaks_first_with_bids_50_to_100_by_5():
    """ "The player to the left of the dealer speaks first ... The minimum bid is 50, all bids must be multiples of
    5"."""
    m = new_match(dealer=2, hands=SUITED)
    assert m.to_move == 3 and m.phase == BIDDING
    assert bids(m) == ["pass", *range(50, 105, 5)]


@pytest.mark.parametrize("value, message", [(45, "at least 50 and a multiple of 5"), (52, "multiple of 5"),
                                            (105, "at most 100"), (200, "at most 100")])  # fmt: skip
def test_bad_bids_are_refused_in_words(value, message):
    m = new_match(hands=SUITED)
    with pytest.raises(IllegalAction, match=message):
        act(m, 1, "bid", value=value)


def test_each_bid_must_be_higher_and_a_pass_is_final():
    """ "each bid must be higher than the last. A player who does not wish to bid can pass, but having passed cannot
    bid again in that auction.\""""
    m = new_match(hands=SUITED)
    act(m, 1, "bid", value=60)
    with pytest.raises(IllegalAction, match=r"higher than the last bid \(60\)"):
        act(m, 2, "bid", value=60)
    act(m, 2, "pass")
    act(m, 3, "bid", value=65)
    act(m, 0, "pass")
    assert m.to_move == 1  # seat 2 passed: skipped
    act(m, 1, "bid", value=70)
    assert m.to_move == 3
    with pytest.raises(IllegalAction, match="not your turn: seat 3"):
        act(m, 2, "bid", value=75)


def test_three_passes_after_a_bid_end_the_auction_and_the_contractor_names_trump():
    """ "the bidding continues ... until three players have passed"; "The final (and highest) bidder becomes the
    contractor, and announces which suit will be trump for that hand.\""""
    m = new_match(hands=SUITED)
    act(m, 1, "bid", value=50)
    act(m, 2, "bid", value=55)
    for seat in (3, 0, 1):
        act(m, seat, "pass")
    assert m.phase == TRUMP and m.to_move == 2
    assert m.output()["contract"] == {"seat": 2, "bid": 55, "team": 0}
    assert {"seat": 2, "type": "trump", "suit": "S"} in legal(m)


def test_a_bid_of_100_ends_the_auction():
    """ "or until somone bids 100, the highest possible bid.\""""
    m = new_match(hands=SUITED)
    act(m, 1, "bid", value=100)
    assert m.phase == TRUMP and m.output()["contract"]["bid"] == 100


def test_four_passes_throw_the_deal_in_and_the_deal_passes_left():
    """ "If all four players pass, the hands are thrown in without score and the next dealer deals."""
    m = new_match(dealer=3, hands=SUITED)
    for seat in (0, 1, 2, 3):
        act(m, seat, "pass")
    assert m.phase == BETWEEN_DEALS
    assert m.deal_results == [{"score_change": [0, 0], "thrown_in": True, "made": None, "contract": None,
                               "explain": "everyone passed: thrown in without score"}]  # fmt: skip
    m.start_deal(m.random_deal(__import__("random").Random(1)))
    assert m.dealer == 0 and m.to_move == 1  # "After each hand, the turn to deal passes to the left."


def test_a_player_with_only_pass_left_still_passes_explicitly():
    """Rule decision: "a player whose only legal action is to pass still passes explicitly"."""
    m = new_match({"hundred_for_two_hundred": True}, hands=SUITED)
    act(m, 1, "bid", value=200)  # the highest possible bid ends it at once
    assert m.phase == TRUMP
    m = new_match({"hundred_for_two_hundred": True}, hands=SUITED)
    act(m, 1, "bid", value=100)
    assert m.phase == BIDDING and bids(m) == ["pass", 200]  # 100 is no longer the highest bid


# --- trump and play ------------------------------------------------------------------------------------------------


def contract(m, seat=1, value=50):
    act(m, seat, "bid", value=value)
    for s in range(seat + 1, seat + 4):
        act(m, s % 4, "pass")


def test_naming_trump_then_the_contractor_leads():
    """ "Having announced the trump suit, the contractor leads to the first trick.\""""
    m = new_match(hands=SUITED)
    contract(m)
    act(m, 1, "trump", suit="D")
    assert m.phase == PLAY and m.output()["trump"] == "D" and m.to_move == 1
    assert all(a["type"] == "play" for a in legal(m))
    with pytest.raises(IllegalAction, match="trump is already diamonds"):
        act(m, 1, "trump", suit="S")


def test_a_lead_without_naming_trump_makes_its_suit_trump():
    """ "If the contractor fails to announce a trump suit before leading to the first trick, the suit of the first
    card played by the contractor automatically becomes trump.\""""
    m = new_match(hands=SUITED)
    contract(m)
    assert m.output()["trump"] is None
    act(m, 1, "play", cards=["7H"])
    assert m.output()["trump"] == "H" and m.phase == PLAY and m.to_move == 2


def test_following_suit_and_free_discards():
    """ "Players must follow suit if able to. A player who has no card of the suit led is free to play any card";
    "There is no obligation to try to win the trick or to cut when you are unable to follow suit".\""""
    hands = ["AS KS QS JS 10S 9S 8S 7S 5H", "AH KH QH JH 10H 9H 8H 7H 5S", *SUITED[2:]]
    m = new_match(dealer=3, hands=hands)
    contract(m, seat=0)
    act(m, 0, "trump", suit="D")
    act(m, 0, "play", cards=["AS"])
    assert legal(m) == [{"seat": 1, "type": "play", "cards": ["5S"]}]
    with pytest.raises(IllegalAction, match="you must follow suit: you hold spades"):
        act(m, 1, "play", cards=["AH"])
    act(m, 1, "play", cards=["5S"])
    assert len(legal(m)) == 9  # void in spades: any card, trump or not
    act(m, 2, "play", cards=["5D"])  # "cutting"
    act(m, 3, "play", cards=["AC"])
    assert m.play.completed[-1][2] == 2 and m.to_move == 2  # "The winner of each trick leads to the next."


def test_the_highest_trump_or_else_the_highest_card_of_the_led_suit_wins():
    """ "The trick is won by the highest trump in it, or, if it contains no trumps, by the highest card of the suit
    that was led.\""""
    hands = ["AS KS QS JS 10S 9S 8S 7S 5H", "AH KH QH JH 10H 9H 8H 7H 5S", *SUITED[2:]]
    m = new_match(dealer=3, hands=hands)
    contract(m, seat=0)
    act(m, 0, "trump", suit="C")
    act(m, 0, "play", cards=["7S"])
    act(m, 1, "play", cards=["5S"])
    act(m, 2, "play", cards=["AD"])  # an ace of another suit does not win
    act(m, 3, "play", cards=["5C"])  # the lowest trump does
    assert m.play.completed[-1][2] == 3
    act(m, 3, "play", cards=["AC"])
    for seat, c in ((0, "AS"), (1, "AH"), (2, "KD")):
        act(m, seat, "play", cards=[c])
    assert m.play.completed[-1][2] == 3


def test_no_trump_needs_the_option():
    """Rule decision: "Option no_trump: the contractor may name NT"."""
    m = new_match(hands=SUITED)
    contract(m)
    with pytest.raises(IllegalAction, match="no-trump contracts are not allowed"):
        act(m, 1, "trump", suit="NT")
    m = new_match({"no_trump": True}, hands=SUITED)
    contract(m)
    act(m, 1, "trump", suit="NT")
    assert m.output()["trump"] == "NT"


def test_a_whole_deal_scores_the_contractor_failing():
    """ "If the number of card points they took is less than the bid, the amount of the bid is subtracted"."""
    m = new_match(hands=SUITED)
    contract(m, seat=1, value=50)
    act(m, 1, "trump", suit="S")  # seat 1 holds no spades: seat 0's spades win every trick they are played to
    lowest_play(m)
    result = m.deal_results[-1]
    assert result["made"] is False and result["points"] == [0, 100] and result["score_change"] == [100, -50]
    assert m.scores() == [100, -50] and m.phase == BETWEEN_DEALS


# --- scoring -------------------------------------------------------------------------------------------------------


def worked_example(ns_points, ew_bid):
    """ "Example: Scores are NS:120, EW:100. NS bid 75.\""""
    rules = standard_rules()
    scores = [120, 100]
    sides = [Side((0,), ns_points, 75), Side((1,), 100 - ns_points, 60 if ew_bid else 0)]
    change, made, _ = score_deal(rules, scores, sides, 75, 1)
    after = [s + c for s, c in zip(scores, change, strict=True)]
    return after, game_end(rules, after, [0, 1], (0,), 0, made)


def test_worked_example_ns_take_85():
    """ "If NS take 85 card points, their new score is 205 and they win the game.\""""
    after, end = worked_example(85, ew_bid=False)
    assert after[0] == 205 and end.over and end.winner == 0


def test_worked_example_ns_take_75():
    """ "If NS take 75 card points, their new score is 195. If East or West bid they score their 25 points for a
    cumulative score of 125; if they both just passed their score stays at 100.\""""
    assert worked_example(75, ew_bid=True)[0] == [195, 125]
    after, end = worked_example(75, ew_bid=False)
    assert after == [195, 100] and not end.over


def test_worked_example_ns_take_70():
    """ "If NS take 70 card points they lose the 75 they bid and their score is now 45. EW can score their 30 points
    provided that one of them bid for a total of 130; if both just passed their score stays at 100.\""""
    assert worked_example(70, ew_bid=True)[0] == [45, 130]
    assert worked_example(70, ew_bid=False)[0] == [45, 100]


def test_below_100_the_opponents_score_without_bidding():
    """ "with one exception: if the contractor's opponents currently have a cumulative score of 100 or more\""""
    rules = standard_rules()
    change, _, _ = score_deal(rules, [0, 95], [Side((0,), 60, 50), Side((1,), 40, 0)], 50, 1)
    assert change == [60, 40]


def test_a_keep_counts_as_having_bid():
    """Rule decision: "unless one of its members bid in that auction (a bid, or the dealer's keep)"."""
    m = new_match({"dealer_keeps": True}, dealer=0, hands=SUITED)
    m.unit_scores = [0, 150]
    act(m, 1, "pass")
    act(m, 2, "bid", value=50)
    act(m, 3, "pass")
    act(m, 0, "keep")
    act(m, 2, "pass")
    assert m.output()["contract"]["seat"] == 0
    assert m.auction.best_bid[0] == 50
    act(m, 0, "trump", suit="H")  # seat 0 holds spades only: loses every trick it does not lead
    lowest_play(m)
    assert m.deal_results[-1]["sides"] == [[0], [1]]


def test_scores_can_go_negative_and_minus_200_loses():
    """ "A team's cumulative score can be negative"; "The game also ends if one team reaches a negative score of 200 or
    worse while the other team's score is positive or zero. In that case the team with minus 200 or worse loses.\""""
    rules = standard_rules()
    assert game_end(rules, [-200, 0], [0, 1], (0,), 0, False).winner == 1
    assert not game_end(rules, [-200, -5], [0, 1], (0,), 0, False).over
    assert not game_end(rules, [-195, 50], [0, 1], (0,), 0, False).over


def test_both_reaching_200_the_bidding_team_wins():
    """ "If both teams reach 200 or more on the same deal then the bidding team wins.\""""
    rules = standard_rules()
    assert game_end(rules, [200, 230], [0, 1], (0,), 0, True).winner == 0
    assert game_end(rules, [150, 230], [0, 1], (0,), 0, False).winner == 1  # "The first team to achieve ... 200"


def test_the_game_ends_in_a_replay_with_a_winner():
    """End to end: a team reaching the target ends the game (phase game_over, winner set, legal empty)."""
    m = new_match(dealer=3, hands=SUITED)
    m.unit_scores = [150, 0]
    contract(m, seat=0)
    act(m, 0, "trump", suit="S")  # seat 0 holds every spade and leads every trick
    lowest_play(m)
    assert m.scores() == [250, 0] and m.phase == GAME_OVER and m.winner == 0
    out = m.output()
    assert out["legal"] == [] and out["trick"] == [] and out["winner"] == 0


def test_illegal_actions_leave_the_state_untouched():
    """apply is atomic: an illegal action raises and changes nothing."""
    m = new_match(hands=SUITED)
    before = m.output()
    for bad in (dict(kind="bid", value=47), dict(kind="play", cards=["AH"]), dict(kind="discard", cards=[])):
        with pytest.raises(IllegalAction):
            act(m, 1, bad.pop("kind"), **bad)
    assert m.output() == before


def test_wrong_action_types_are_explained():
    m = new_match(hands=SUITED)
    with pytest.raises(IllegalAction, match="you cannot play now: the auction is on: bid, pass"):
        act(m, 1, "play", cards=["AH"])
    contract(m)
    with pytest.raises(IllegalAction, match="name trump or lead a card"):
        act(m, 1, "bid", value=55)
    with pytest.raises(IllegalAction, match="you do not hold AS"):
        act(m, 1, "play", cards=["AS"])


def test_clone_is_independent():
    m = new_match(hands=SUITED)
    contract(m)
    c = m.clone()
    act(c, 1, "play", cards=["AH"])
    assert m.output()["trick"] == [] and c.output()["trick"] == [{"seat": 1, "cards": ["AH"]}]
    assert cards("AH")[0] in m.hand(1)


def test_a_card_dealt_twice_is_named():
    """ "The cards of a deal must be exactly the pack" (record spec): the message names the card."""
    with pytest.raises(RecordError, match="AS dealt more than once; 5S missing"):
        new_match(hands=[SUITED[0].replace("5S", "AS"), *SUITED[1:]])
