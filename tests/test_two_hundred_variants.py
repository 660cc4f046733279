"""Two Hundred's variants as table options, each test quoting the sentence of pagat.com's "200"
(docs/rules/two_hundred.md) it implements (or the project's rule decision)."""

import json
import random

import pytest

from rules.dealing import DealCards
from rules.errors import IllegalAction, RecordError
from rules.game import BETWEEN_DEALS, BIDDING, EXCHANGE, GAME_OVER, PLAY, TRUMP
from rules.records import replay_text
from rules.two_hundred import TwoHundred
from rules.two_hundred.scoring import Side, game_end, score_deal, scoring_rules
from rules.two_hundred.table import card_points
from tests.test_two_hundred_helpers import SUITED, act, cards, legal, lowest_play, new_match, play_out

SIXES = "6S 6H 6D 6C"


def bids(m):
    return [a.get("value", a["type"]) for a in legal(m)]


def rules_with(**options):
    m = TwoHundred(options)
    return m.scoring


def contract(m, seat, value=50, players=4):
    act(m, seat, "bid", value=value)
    for s in range(seat + 1, seat + players):
        act(m, s % players, "pass")


# --- 200 with a kitty ----------------------------------------------------------------------------------------------


def kitty_match(rule="defenders", **options):
    m = new_match({"kitty": True, "kitty_discard": rule, **options}, dealer=0, hands=SUITED, kitty=SIXES)
    contract(m, 1)
    return m


def test_the_kitty_game_uses_40_cards_and_the_contractor_exchanges_before_naming_trump():
    """ "a 40-card pack is used, including the sixes ... Nine cards are dealt to each player and four face card down to
    a central 'kitty'"; "the high bidder takes the four kitty cards ... and discards four cards face down in exchange
    before naming trumps. The cards discarded can include some or all of the cards obtained from the kitty.\""""
    assert len(TwoHundred({"kitty": True}).pack()) == 40
    m = kitty_match()
    assert m.phase == EXCHANGE and len(m.hand(1)) == 13
    (choice,) = legal(m)
    assert choice["choose"] == 4 and sorted(choice["from"]) == sorted(SUITED[1].split() + SIXES.split())
    with pytest.raises(IllegalAction, match="discard exactly 4 different cards"):
        act(m, 1, "discard", cards=["AH", "KH", "QH"])
    with pytest.raises(IllegalAction, match="you do not hold AS"):
        act(m, 1, "discard", cards=["AS", "KH", "QH", "JH"])
    act(m, 1, "discard", cards=["AH", "10H", "5H", "6S"])
    assert m.phase == TRUMP and len(m.hand(1)) == 9


def test_discard_points_count_for_the_opponents():
    """ "any points in the discarded cards count for the contractor's opponents at the end of the play.\""""
    m = kitty_match()
    act(m, 1, "discard", cards=["AH", "10H", "5H", "6S"])
    act(m, 1, "trump", suit="H")
    lowest_play(m)
    result = m.deal_results[-1]
    defenders = card_points(m.play.taken[0] | m.play.taken[2]) + 25
    assert result["points"] == [100 - defenders, defenders]
    assert m.output()["discard"] == ["6S", "5H", "10H", "AH"]  # shown once the play is over


@pytest.mark.parametrize("rule, owner", [("last_trick", "last"), ("first_trick", "first"), ("contractor", "me")])
def test_the_discard_counting_variations(rule, owner):
    """ "3. Some play that any points in the discard count for the side that wins the last trick. 4. A few players
    award the points in the discard to the side that wins the first trick ... 8. Some count the discarded points for
    the contractor.\""""
    m = kitty_match(rule)
    act(m, 1, "discard", cards=["AH", "10H", "5H", "6S"])
    act(m, 1, "trump", suit="H")
    lowest_play(m)
    who = {"last": m.play.completed[-1][2], "first": m.play.completed[0][2], "me": 1}[owner]
    side = 0 if who % 2 == 1 else 1
    plain = [card_points(m.play.taken[1] | m.play.taken[3]), card_points(m.play.taken[0] | m.play.taken[2])]
    plain[side] += 25
    assert m.deal_results[-1]["points"] == plain


def test_no_point_cards_may_be_discarded():
    """ "5. Some players do not allow any point cards (aces, tens or fives) to be discarded.\""""
    m = kitty_match("no_points")
    assert set(legal(m)[0]["from"]) == {"6H", "7H", "8H", "9H", "JH", "QH", "KH", "6S", "6D", "6C"}
    with pytest.raises(IllegalAction, match="you may not discard aces, tens or fives"):
        act(m, 1, "discard", cards=["AH", "6S", "6D", "6C"])


def test_no_trumps_or_points_names_trump_first():
    """ "6. Some players do not allow trumps or point cards to be discarded": trumps must be known, so the contractor
    names trump before discarding (a choice documented in docs/rules/two_hundred.md)."""
    m = kitty_match("no_trumps_or_points")
    assert m.phase == TRUMP and all(a["type"] == "trump" for a in legal(m))
    act(m, 1, "trump", suit="H")
    assert m.phase == EXCHANGE
    assert set(legal(m)[0]["from"]) == {"6S", "6D", "6C", "6H", "7H", "8H", "9H", "JH", "QH", "KH"}  # relaxed
    m = kitty_match("no_trumps_or_points")
    act(m, 1, "trump", suit="S")
    assert set(legal(m)[0]["from"]) == {"6H", "7H", "8H", "9H", "JH", "QH", "KH", "6D", "6C"}
    with pytest.raises(IllegalAction, match="you may not discard trumps"):
        act(m, 1, "discard", cards=["6S", "6D", "6C", "7H"])
    act(m, 1, "discard", cards=["6H", "6D", "6C", "7H"])
    assert m.phase == PLAY


def test_an_impossible_discard_relaxes_the_rule():
    """ "This could rarely lead to an impossible situation if the contractor had 10 or more of the 12 point cards":
    then any card may be discarded."""
    hands = ["AS AH AD AC 10S 10H 10D 10C 6S", "5C KS QS JS 9S 8S 7S KH QH", "JH 9H 8H 7H KD QD JD 9D 8D",
             "7D 6D KC QC JC 9C 8C 7C 6C"]  # fmt: skip
    m = new_match({"kitty": True, "kitty_discard": "no_points"}, dealer=3, hands=hands, kitty="5S 5H 5D 6H")
    contract(m, 0)  # 11 of the 12 point cards among 13
    assert len(legal(m)[0]["from"]) == 13


def test_discarded_trumps_are_shown_and_points_announced():
    """ "2. Some play that any trumps that are discarded must be shown to the other players after trumps are
    announced"; "7. Some players require the contractor to inform the other players if there are any point cards in
    the discard.\""""
    m = kitty_match("show_trumps")
    act(m, 1, "discard", cards=["AH", "10H", "6S", "6D"])
    act(m, 1, "trump", suit="H")
    assert m.output()["discard_trumps_shown"] == ["10H", "AH"]
    m = kitty_match("announce_points")
    act(m, 1, "discard", cards=["6H", "6S", "6D", "6C"])
    assert m.output()["discard_has_points"] is False


# --- 100 for 200, bloutte, no trump --------------------------------------------------------------------------------


def test_hundred_for_two_hundred_scores_200_or_loses_100():
    """ "commits the contractor's team to win all 100 points in tricks. They score 200 points if successful ... If a
    bid of 100 for 200 fails, the contractor's team loses just 100 points"."""
    rules = rules_with(hundred_for_two_hundred=True)
    assert score_deal(rules, [0, 0], [Side((0,), 100, 200), Side((1,), 0, 0)], 200, 1)[0] == [200, 0]
    assert score_deal(rules, [0, 0], [Side((0,), 95, 200), Side((1,), 5, 0)], 200, 1)[0] == [-100, 5]
    # Rule decision: "the deal's score changes for both sides are doubled (100 for 200 included: +400 / -200)"
    assert score_deal(rules, [0, 0], [Side((0,), 100, 200), Side((1,), 0, 0)], 200, 2)[0] == [400, 0]
    assert score_deal(rules, [0, 0], [Side((0,), 95, 200), Side((1,), 5, 0)], 200, 2)[0] == [-200, 10]


def test_no_trump_scores_double():
    """ "No trump games score double: the bidding team score twice the number of points they took if they are
    successful and lose twice the amount bid if they fail. Their opponents score twice the value of the cards\""""
    rules = rules_with(no_trump=True)
    assert score_deal(rules, [0, 0], [Side((0,), 70, 60), Side((1,), 30, 0)], 60, 2)[0] == [140, 60]
    assert score_deal(rules, [0, 0], [Side((0,), 50, 60), Side((1,), 50, 0)], 60, 2)[0] == [-120, 100]


def all_points_for_seat_0(options, scores=(0, 0)):
    m = new_match(options, dealer=3, hands=SUITED)
    m.unit_scores = list(scores)
    contract(m, 0)
    act(m, 0, "trump", suit="S")  # seat 0 holds all the spades and leads every trick: all 100 points
    lowest_play(m)
    return m


def test_bloutte_wins_the_game():
    """ "Some play that if the bidders take 100 points in their tricks, they win the whole game, irrespective of the
    bid or the previous scores. This is known as a bloutte\""""
    assert all_points_for_seat_0({"bloutte": True}, (-150, 190)).winner == 0
    assert all_points_for_seat_0({}, (-150, 190)).phase == BETWEEN_DEALS


# --- keeping -------------------------------------------------------------------------------------------------------


def test_the_dealer_keeps_as_in_the_text():
    """ "North deals, East passes, South bids 60, West bids 75, North 'keeps' 75, East cannot bid, having already
    passed, South passes. If West passes now, North is the contractor and the bid is 75. Alternatively West might bid
    80, and North would then have the option of 'keeping' 80 or passing\""""
    for west_bids in (False, True):
        m = new_match({"dealer_keeps": True}, dealer=0, hands=SUITED)
        act(m, 1, "pass")
        act(m, 2, "bid", value=60)
        assert "keep" not in bids(m)  # only the dealer keeps
        act(m, 3, "bid", value=75)
        assert "keep" in bids(m)
        act(m, 0, "keep")
        assert m.to_move == 2  # East is skipped
        act(m, 2, "pass")
        if west_bids:
            act(m, 3, "bid", value=80)
            assert bids(m)[:2] == ["pass", "keep"]
        else:
            act(m, 3, "pass")
            assert m.output()["contract"] == {"seat": 0, "bid": 75, "team": 0}


def test_a_non_dealer_100_lets_the_dealer_keep():
    """ "When keeping is allowed, a bid of 100 (or 100 for 200) by a player other than the dealer does not
    automatically end the auction. The dealer still has the right to keep the 100 bid.\""""
    m = new_match({"dealer_keeps": True}, dealer=0, hands=SUITED)
    act(m, 1, "bid", value=100)
    assert m.phase == BIDDING and bids(m) == ["pass"]
    act(m, 2, "pass")
    act(m, 3, "pass")
    assert bids(m) == ["pass", "keep"]
    act(m, 0, "keep")  # Rule decision: "the dealer keeping the highest possible bid ends it"
    assert m.phase == TRUMP and m.output()["contract"]["seat"] == 0
    m = new_match({"dealer_keeps": True}, dealer=0, hands=SUITED)
    with pytest.raises(IllegalAction, match="there is no bid to keep yet"):
        act(m, 1, "keep")
    act(m, 1, "bid", value=50)
    with pytest.raises(IllegalAction, match="only the dealer may keep"):
        act(m, 2, "keep")


def test_anyone_keeps_but_never_twice():
    """ "any player can keep (not just the dealer), but you cannot keep a bid that has already been kept. So the
    bidding might start: East '50', South 'keep 50', West '55', North 'keep 55', East '60', South '65', West 'pass',
    North 'pass', East 'keep 65' ... West cannot keep 50 ... similarly East cannot keep 55.\""""
    m = new_match({"anyone_keeps": True}, dealer=0, hands=SUITED)
    act(m, 1, "bid", value=50)
    act(m, 2, "keep")
    assert "keep" not in bids(m)
    with pytest.raises(IllegalAction, match="50 has already been kept"):
        act(m, 3, "keep")
    act(m, 3, "bid", value=55)
    act(m, 0, "keep")
    assert "keep" not in bids(m)
    act(m, 1, "bid", value=60)
    act(m, 2, "bid", value=65)
    act(m, 3, "pass")
    act(m, 0, "pass")
    act(m, 1, "keep")
    act(m, 2, "pass")
    assert m.output()["contract"] == {"seat": 1, "bid": 65, "team": 1}


# --- after three passes, single round, minimum bid -----------------------------------------------------------------


def three_passes(options, dealer=0):
    m = new_match(options, dealer=dealer, hands=SUITED)
    for s in (1, 2, 3):
        act(m, (dealer + s) % 4, "pass")
    return m


def test_dealer_must_bid_after_three_passes():
    """ "If the first three players pass the dealer is forced to become the contractor and bid 50.\""""
    m = three_passes({"after_three_passes": "dealer_must_bid"})
    assert legal(m) == [{"seat": 0, "type": "bid", "value": 50}]
    with pytest.raises(IllegalAction, match="as dealer you must bid 50"):
        act(m, 0, "pass")
    act(m, 0, "bid", value=50)
    assert m.output()["contract"] == {"seat": 0, "bid": 50, "team": 0}


def test_dealer_must_pass_after_three_passes():
    """Le Rough: "Some play that if the first three players pass, the dealer must also pass.\""""
    m = three_passes({"after_three_passes": "dealer_must_pass"})
    assert legal(m) == [{"seat": 0, "type": "pass"}]
    act(m, 0, "pass")
    assert m.deal_results[-1]["thrown_in"] is True


def test_single_round_bidding():
    """ "In some groups each player only gets one chance to bid, the dealer speaking last. Those who play this
    variation usually allow the dealer to keep.\""""
    m = new_match({"single_round": True}, dealer=0, hands=SUITED)
    act(m, 1, "bid", value=50)
    act(m, 2, "bid", value=55)
    act(m, 3, "pass")
    act(m, 0, "pass")
    assert m.output()["contract"] == {"seat": 2, "bid": 55, "team": 0}  # seat 1 gets no second chance
    m = new_match({"single_round": True, "dealer_keeps": True}, dealer=0, hands=SUITED)
    act(m, 1, "bid", value=70)
    act(m, 2, "pass")
    act(m, 3, "pass")
    act(m, 0, "keep")
    assert m.output()["contract"] == {"seat": 0, "bid": 70, "team": 0}


def test_single_round_contractor_without_a_bid_cannot_lose():
    """ "when the first three players pass, the declarer simply becomes the contractor, with the right to use the kitty
    if any and name trump, without bidding. In this case the contractor's team cannot lose points\""""
    m = three_passes({"single_round": True, "after_three_passes": "dealer_contracts"}, dealer=1)
    assert m.phase == TRUMP and m.output()["contract"] == {"seat": 1, "bid": 0, "team": 1, "without_bid": True}
    act(m, 1, "trump", suit="S")  # seat 1 holds no spades
    lowest_play(m)
    result = m.deal_results[-1]
    assert result["made"] is True and result["score_change"] == [100, 0]


def test_minimum_bid_options():
    """ "some set the minimum bid higher, for example at 65"; "in the game 'Le Ruff' ... there is no minimum bid".\""""
    assert bids(new_match({"min_bid": 65}, hands=SUITED))[1] == 65
    assert bids(new_match({"min_bid": 0}, hands=SUITED))[1:3] == [5, 10]
    with pytest.raises(IllegalAction, match="at least 65 and a multiple of 5"):
        act(new_match({"min_bid": 65}, hands=SUITED), 1, "bid", value=60)


# --- targets and the other scoring variations ----------------------------------------------------------------------


def test_target_300_moves_the_must_bid_threshold_and_the_losing_score():
    """ "the threshhold beyond which you are 'required to bid' in order to score points against the contractor is set
    at 100 points below the target"; "The amount you have to be 'in the hole' ... to lose ... is normally set equal to
    the target.\""""
    rules = rules_with(target=300)
    silent = [Side((0,), 60, 50), Side((1,), 40, 0)]
    assert score_deal(rules, [0, 195], silent, 50, 1)[0] == [60, 40]
    assert score_deal(rules, [0, 200], silent, 50, 1)[0] == [60, 0]
    assert not game_end(rules, [-295, 0], [0, 1], (0,), 0, False).over
    assert game_end(rules, [-300, 0], [0, 1], (0,), 0, False).winner == 1
    assert game_end(rules_with(target=500, lose_at=300), [-300, 0], [0, 1], (0,), 0, False).winner == 1


def test_a_bid_of_60_qualifies():
    """ "Some players require a team to have bid at least 60 to qualify for points when they are at or above the
    'required to bid' threshhold. A bid of just 50 or 55 does not qualify.\""""
    rules = rules_with(qualifying_bid=60)
    assert score_deal(rules, [0, 100], [Side((0,), 70, 65), Side((1,), 30, 55)], 65, 1)[0] == [70, 0]
    assert score_deal(rules, [0, 100], [Side((0,), 70, 65), Side((1,), 30, 60)], 65, 1)[0] == [70, 30]


def test_higher_score_wins_a_double_finish():
    """ "Some play that if both teams reach the target score on the same deal, the team with the higher score wins -
    not the bidding team. It's unclear what happens in this version if the scores are equal ... Perhaps another deal
    is played to decide the winners.\""""
    rules = rules_with(both_reach_target="higher_score")
    assert game_end(rules, [210, 230], [0, 1], (0,), 0, True).winner == 1
    assert not game_end(rules, [210, 210], [0, 1], (0,), 0, True).over


def test_the_game_is_only_won_by_a_successful_bid():
    """ "if a hand results in the contractor's opponents reaching 200 or more while the contractor's team is still
    below 200 after adding the score for their successful bid, the game is not over ... The game ends only when a
    contractor's bid is successful AND after scoring the contractor's team have a cumulative score of 200 or more.\""""
    rules = rules_with(win_only_by_contract=True)
    assert not game_end(rules, [150, 210], [0, 1], (0,), 0, True).over
    assert not game_end(rules, [210, 150], [0, 1], (0,), 0, False).over
    assert game_end(rules, [210, 250], [0, 1], (0,), 0, True).winner == 0


def test_within_50_of_the_target_defenders_score_only_by_defeating_the_contract():
    """ "A team that is within 50 (or other agreed amount) of the target score cannot score unless they actually win
    the bidding and play the contract or defeat (box) the contractor.\""""
    rules = rules_with(within_margin=50)
    made = [Side((0,), 60, 50), Side((1,), 40, 55)]
    assert score_deal(rules, [0, 150], made, 50, 1)[0] == [60, 0]
    assert score_deal(rules, [0, 149], made, 50, 1)[0] == [60, 40]  # and the must-bid rule no longer applies
    assert score_deal(rules, [0, 120], [Side((0,), 60, 50), Side((1,), 40, 0)], 50, 1)[0] == [60, 40]
    failed = [Side((0,), 40, 65), Side((1,), 60, 0)]
    assert score_deal(rules, [0, 150], failed, 65, 1)[0] == [-65, 60]


def test_skunks():
    """ "if a team wins while the other team is in the hole (below zero), this is considered a skunk - equivalent to
    winning two games. Others use the term skunk for the case where the losers neither won nor lost any points\""""
    assert all_points_for_seat_0({"skunk": "in_the_hole"}, (150, -20)).output()["skunk"] is True
    assert all_points_for_seat_0({"skunk": "in_the_hole"}, (150, 20)).output()["skunk"] is False
    assert all_points_for_seat_0({"skunk": "shutout"}, (150, 0)).output()["skunk"] is True


# --- number of cards, compulsory trump lead, misdeal ---------------------------------------------------------------


@pytest.mark.parametrize("options, size", [({"hand_size": 10}, 40), ({"hand_size": 10, "kitty": True}, 44),
                                           ({"hand_size": 12, "kitty": True}, 52)])  # fmt: skip
def test_ten_and_twelve_card_hands(options, size):
    """ "Some play with hands of 10 cards each - so all the cards down to 5 are used for the game without a kitty, and
    if playing with a kitty the 4's are included as well"; "12-card hands and a kitty, using a full 52-card deck\""""
    m = TwoHundred(options)
    assert len(m.pack()) == size and m.hand_sizes() == [options["hand_size"]] * 4
    play_out(new_match(options, seed=3), random.Random(3))


def test_compulsory_trump_lead():
    """ "Some play that the first card led by the contractor determines the trump suit, and thus do not allow a
    non-trump to be led to the first trick.\""""
    m = new_match({"compulsory_trump_lead": True, "no_trump": True}, hands=SUITED)
    contract(m, 1)
    assert [a["type"] for a in legal(m)].count("trump") == 1  # only "sans atout"
    with pytest.raises(IllegalAction, match="your first lead sets trump"):
        act(m, 1, "trump", suit="H")
    act(m, 1, "play", cards=["9H"])
    assert m.output()["trump"] == "H"


def test_compulsory_trump_lead_after_trump_was_named_for_the_discard():
    m = kitty_match("no_trumps_or_points", compulsory_trump_lead=True)
    act(m, 1, "trump", suit="H")
    act(m, 1, "discard", cards=["6D", "6C", "6H", "7H"])
    with pytest.raises(IllegalAction, match="your first lead must be a trump"):
        act(m, 1, "play", cards=["6S"])
    act(m, 1, "play", cards=["AH"])


def test_misdeal():
    """ "a player who has been dealt no aces or face cards (i.e. no card above a 10) can call a 'misdeal'. The cards
    are thrown in, shuffled and cut again and the same dealer deals again.\""""
    hands = ["10S 9S 8S 7S 5S 10H 9H 8H 7H", "AS KS QS JS 5H AH KH QH JH", *SUITED[2:]]
    m = new_match({"misdeal": True}, dealer=3, hands=hands)
    assert {"seat": 0, "type": "claim_draw"} in legal(m)
    act(m, 0, "bid", value=50)
    assert {"seat": 1, "type": "claim_draw"} not in legal(m)
    with pytest.raises(IllegalAction, match="no ace, king, queen or jack"):
        act(m, 1, "claim_draw")
    act(m, 1, "pass")
    act(m, 2, "pass")
    act(m, 3, "bid", value=55)
    act(m, 0, "claim_draw")
    assert m.deal_results[-1]["misdeal"] == 0 and m.deal_results[-1]["thrown_in"] is True
    m.start_deal(m.random_deal(random.Random(2)))
    assert m.dealer == 3
    with pytest.raises(IllegalAction, match="misdeals are not allowed"):
        act(new_match(hands=hands, dealer=3), 0, "claim_draw")


# --- Le Rough ------------------------------------------------------------------------------------------------------


def le_rough(scores=(0, 0)):
    hands = [h.split()[:8] for h in SUITED]
    kitty = " ".join(h.split()[8] for h in SUITED)  # the four fives
    m = TwoHundred({"le_rough": True}, 3)
    m.unit_scores = list(scores)
    m.start_deal(DealCards(hands=[cards(" ".join(h)) for h in hands], kitty=cards(kitty)))
    return m


def test_le_rough_options():
    """ "played with a kitty but using only 36 cards: each player is dealt eight cards ... The minimum bid is 70 and
    the dealer is allowed to keep ... The target score is 350 points.\""""
    m = le_rough()
    assert m.options["target"] == 350 and m.hand_sizes() == [8] * 4 and len(m.pack()) == 36
    assert bids(m)[1] == 70
    assert TwoHundred({"le_rough": True, "target": 500}).options["target"] == 500  # explicit options win


def test_le_rough_announcement_and_first_lead():
    """ "the bidder may, before taking the kitty, announce that the bidder's team will win all 100 card points. In this
    case, if they succeed they win the whole game, but if they lose the other team wins"; "The bidder's first lead
    determines the trump suit unless the bidder announces 'sans atout'"; the discard "count[s] for the bidder's
    team\""""
    m = le_rough()
    contract(m, 0, 70)
    assert m.phase == EXCHANGE and legal(m) == [{"seat": 0, "type": "call", "contract": "hundred"},
                                                 {"seat": 0, "type": "pass"}]  # fmt: skip
    assert len(m.hand(0)) == 8  # the kitty is not taken yet
    act(m, 0, "call", contract="hundred")
    act(m, 0, "discard", cards=["5H", "5D", "5C", "7S"])
    assert legal(m)[0] == {"seat": 0, "type": "trump", "suit": "NT"}
    act(m, 0, "play", cards=["AS"])
    lowest_play(m)
    assert m.winner == 0 and m.deal_results[-1]["points"] == [100, 0]
    m = le_rough((-10, 0))
    contract(m, 0, 70)
    assert m.phase == EXCHANGE and legal(m)[0]["type"] == "discard"  # in the hole: no announcement


# --- other player counts -------------------------------------------------------------------------------------------


def two_player():
    """Seat 0 spades, seat 1 hearts and 8D; silent partners' stacks are listed bottom card first."""
    hands = ["AS KS QS JS 10S 9S 8S 7S 5S", "AH KH QH JH 10H 9H 8H 7H 8D"]
    stacks = "5D 7D 8C 9D 10D JC QD KD AC " + "5C 7C 5H 9C 10C JD QC KC AD"
    m = TwoHundred({"players": 2}, 0)
    m.start_deal(DealCards(hands=[cards(h) for h in hands], kitty=cards(stacks)))
    return m


def test_two_players_with_silent_partners():
    """ "each player has a 9-card hand, and a 'silent partner' whose cards are dealt in three stacks of three: two cards
    face down with a face-up card on top"; "The silent partners cannot bid, and when it is a silent partner's turn to
    play, the live partner plays one of the silent partner's face-up cards and turns the next card of the stack face
    up when the trick is complete. Like the live players, the silent partners must follow suit if possible, taking
    account only of the visible cards.\""""
    m = two_player()
    assert m.output()["silent_face_up"] == [["8C", "JC", "AC"], ["5H", "JD", "AD"]]
    act(m, 1, "bid", value=50)
    act(m, 0, "pass")
    act(m, 1, "trump", suit="S")
    act(m, 1, "play", cards=["8D"])
    assert m.to_move == 0 and len(legal(m)) == 3  # hidden diamonds do not oblige
    act(m, 0, "play", cards=["AC"])
    assert m.output()["silent_face_up"][0] == ["8C", "JC"]  # turned when the trick is complete
    assert m.to_move == 1
    assert [a["cards"] for a in legal(m)] == [["JD"], ["AD"]]
    with pytest.raises(IllegalAction, match="you must follow suit: your silent partner shows diamonds"):
        act(m, 1, "play", cards=["5H"])
    act(m, 1, "play", cards=["AD"])
    act(m, 0, "play", cards=["5S"])
    assert m.output()["silent_face_up"][0] == ["KD", "8C", "JC"]
    assert m.play.completed[-1][2] == 0 and m.to_move == 0
    lowest_play(m)
    assert len(m.scores()) == 2 and sum(m.deal_results[-1]["points"]) == 100


def test_cutthroat_each_player_scores_alone():
    """ "The contractor plays alone against all the other players. Presumably each individual player scores the points
    taken in tricks, except that a contractor with insufficient points loses the amount of the bid.\""""
    m = new_match({"players": 3}, dealer=0, seed=5)
    assert m.hand_sizes() == [12, 12, 12]
    act(m, 1, "bid", value=50)
    act(m, 2, "pass")
    act(m, 0, "pass")
    play_out(m, random.Random(5))
    result = m.deal_results[-1]
    assert result["sides"] == [[1], [0], [2]]
    points = dict(zip([s[0] for s in result["sides"]], result["points"], strict=True))
    assert result["score_change"][0] == points[0] and result["score_change"][2] == points[2]
    assert result["score_change"][1] in (points[1], -50)


def test_five_players_call_a_partner_card():
    """ "the winning bidder calls a card whose holder will be the contractor's partner for that hand only ... the
    holder of the called card scoring the same as the contractor, and the other three players all scoring the points
    taken by their temporary team.\""""
    m = new_match({"players": 5}, dealer=0, seed=9)
    assert len(m.pack()) == 40 and m.hand_sizes() == [8] * 5
    contract(m, 1, players=5)
    assert m.phase == TRUMP and len(legal(m)) == 32 and all(a["type"] == "call" for a in legal(m))
    with pytest.raises(IllegalAction, match="is in your hand"):
        act(m, 1, "call", card=m.output()["hands"][1][0])
    called = m.output()["hands"][3][0]
    act(m, 1, "call", card=called)
    assert m.partner == 3 and m.output()["contract"]["partner_card"] == called
    play_out(m, random.Random(9))
    change = m.deal_results[-1]["score_change"]
    assert change[1] == change[3] and change[0] == change[2] == change[4]
    assert sum(m.deal_results[-1]["points"]) == 100


def test_six_players_in_two_teams_of_three():
    """ "Six players can play as two teams of three, sitting alternately ... Using the normal 36-card pack each player
    is dealt 6 cards\""""
    m = new_match({"players": 6}, seed=4)
    assert m.hand_sizes() == [6] * 6 and len(m.scores()) == 2 and m.table.unit_of == (0, 1, 0, 1, 0, 1)
    assert TwoHundred({"players": 6, "kitty": True}).kitty_size() == 4
    assert TwoHundred({"players": 6, "kitty": True, "hand_size": 8}).pack().__len__() == 52


def test_three_pairs_drop_out_and_play_on_as_four():
    """ "In the game between three pairs, if a team loses by reaching the lower threshhold ... while at least one other
    team has a zero or positive score, the losing team drops out while the other two teams keep their scores and
    continue playing a four-player game\""""
    rules = scoring_rules({**TwoHundred().options, "players": 6}, drop_out=True)
    end = game_end(rules, [-200, 10, -30], [0, 1, 2], (0,), 0, False)
    assert not end.over and end.drop == (0,)
    end = game_end(rules, [-200, 10, -30], [1, 2], (0,), 0, False)  # already dropped: ignored
    assert not end.over
    m = new_match({"players": 6, "teams": "pairs"}, dealer=2, seed=1)
    assert m.table.unit_of == (0, 1, 2, 0, 1, 2)
    m.unit_scores = [-190, 0, 0]
    contract(m, 3, 95, players=6)
    act(m, 3, "trump", suit="S")
    play_out(m, random.Random(1))
    if m.deal_results[-1]["made"]:
        pytest.skip("the contract happened to be made")
    assert m.dropped == [0] and m.output()["dropped_out"] == [0]
    assert m.hand_sizes() == [0, 9, 9, 0, 9, 9] and len(m.pack()) == 36
    m.start_deal(m.random_deal(random.Random(2)))
    assert m.to_move in (1, 2, 4, 5)
    play_out(m, random.Random(2))
    assert sum(m.deal_results[-1]["points"]) == 100


# --- options and records -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options, message", [
    ({"players": 7}, "option 'players' must be one of"),
    ({"teams": "threes"}, "'threes' needs 6 players"),
    ({"players": 5, "teams": "pairs"}, "'pairs' needs 4 or 6 players"),
    ({"hand_size": 7}, "need 28 cards"),
    ({"players": 2, "kitty": True}, "two-player game has no kitty"),
    ({"players": 6, "misdeal": True}, "not be used with six players"),
    ({"players": 5, "hundred_announcement": True}, "needs two teams"),
    ({"kitty_discard": "contractor"}, "only applies with 'kitty'"),
    ({"target": 203}, "in steps of 5"),
    ({"min_bid": 47}, "option 'min_bid'"),
    ({"within_margin": "50"}, "whole number"),
    ({"kitty": "yes"}, "true or false"),
    ({"variant": 1}, "unknown option"),
])  # fmt: skip
def test_bad_options_are_record_errors(options, message):
    with pytest.raises(RecordError, match=message):
        TwoHundred(options)
    record = {"format": "cardtable-record/1", "game": "two_hundred", "options": options, "seed": 1, "deals": []}
    status, out = replay_text(json.dumps(record))
    assert status == 2 and message.split("'")[0] in out["error"]["message"]


def test_illegal_action_in_a_record_is_exit_1_with_the_state_before_it():
    actions = [{"seat": 1, "type": "bid", "value": 50}, {"seat": 2, "type": "bid", "value": 50}]
    deal = {"hands": [h.split() for h in SUITED], "kitty": [], "actions": actions}
    record = {"format": "cardtable-record/1", "game": "two_hundred", "first_dealer": 0, "deals": [deal]}
    status, out = replay_text(json.dumps(record))
    assert status == 1 and out["error"] == {"deal": 0, "action": 1,
                                            "message": "a bid must be higher than the last bid (50)"}  # fmt: skip
    assert out["phase"] == BIDDING and out["legal"][0] == {"seat": 2, "type": "pass"}
    deal["kitty"] = ["6S"]
    status, out = replay_text(json.dumps(record))
    assert status == 2 and "kitty must hold 0 cards" in out["error"]["message"]


def test_game_over_refuses_more_actions():
    m = all_points_for_seat_0({}, (150, 0))
    assert m.phase == GAME_OVER
    with pytest.raises(IllegalAction, match="the game is over"):
        act(m, 0, "bid", value=50)


def test_single_round_ends_at_once_on_the_highest_bid():
    """ "until somone bids 100, the highest possible bid" holds in a single round too."""
    m = new_match({"single_round": True}, dealer=0, hands=SUITED)
    act(m, 1, "bid", value=100)
    assert m.phase == TRUMP and m.output()["contract"]["seat"] == 1


def test_the_dealer_may_keep_100_for_200():
    """ "a bid of 100 (or 100 for 200) by a player other than the dealer does not automatically end the auction\""""
    m = new_match({"dealer_keeps": True, "hundred_for_two_hundred": True}, dealer=0, hands=SUITED)
    act(m, 1, "bid", value=200)
    act(m, 2, "pass")
    act(m, 3, "pass")
    assert bids(m) == ["pass", "keep"]
    act(m, 0, "keep")
    assert m.output()["contract"] == {"seat": 0, "bid": 200, "team": 0}


def test_two_teams_of_three_score_together():
    """ "The bidding, play and scoring work the same way as in the four-player game.\""""
    m = new_match({"players": 6}, dealer=5, seed=8)
    contract(m, 0, players=6)
    play_out(m, random.Random(8))
    result = m.deal_results[-1]
    assert result["sides"] == [[0], [1]] and sum(result["points"]) == 100 and len(result["score_change"]) == 2


@pytest.mark.parametrize("action, message", [
    ({"seat": 1, "type": "counter"}, "you cannot counter now: the auction is on: bid, pass"),
    ({"seat": 1, "type": "bid", "value": "fifty"}, "a bid needs a number of points"),
    ({"seat": 1, "type": "play", "cards": ["ZZ"]}, "'ZZ' is not a card"),
    ({"seat": 4, "type": "pass"}, "there is no seat 4 at a 4-player table"),
])  # fmt: skip
def test_illegal_actions_in_records_are_exit_1_with_a_message(action, message):
    deal = {"hands": [h.split() for h in SUITED], "kitty": [], "actions": [action]}
    record = {"format": "cardtable-record/1", "game": "two_hundred", "first_dealer": 0, "deals": [deal]}
    status, out = replay_text(json.dumps(record))
    assert status == 1 and message in out["error"]["message"]


def test_two_player_records_put_the_stacks_in_the_kitty():
    """The two-player record: two hands and the 18 stack cards as the kitty; anything else is exit 2."""
    deal = {"hands": [SUITED[0].split(), SUITED[1].split()], "kitty": (SUITED[2] + " " + SUITED[3]).split()}
    record = {"format": "cardtable-record/1", "game": "two_hundred", "options": {"players": 2}, "deals": [deal]}
    status, out = replay_text(json.dumps(record))
    assert status == 0 and out["silent_face_up"] == [["5D", "9D", "QD"], ["5C", "9C", "QC"]]  # each stack's third card
    deal["kitty"] = deal["kitty"][:9]
    status, out = replay_text(json.dumps(record))
    assert status == 2 and "the kitty must hold 18 cards" in out["error"]["message"]
