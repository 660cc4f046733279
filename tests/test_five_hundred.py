"""Five Hundred rules, each test quoting the sentence of the Five Hundred rule text (docs/rules/five_hundred.md,
Source) or the project's rule decision it implements."""

import pytest

from rules.cards import NO_TRUMP, parse_card
from rules.dealing import DealCards
from rules.errors import IllegalAction, RecordError
from rules.five_hundred import FiveHundred
from rules.five_hundred.bids import BID_BY_KEY, BIDS
from tests.test_five_hundred_helpers import act, all_pass, bid, cards, new_deal, play, win_auction

# Three full hands for the trick tests (dealer seat 2, so seat 0 is eldest hand and bids first).
HEARTS_DEAL = {
    0: "JK 7H 8H 9H 10H 7S 8S 9S 10S 7C",
    1: "JH QH KH 7D 8D 9D JS QS KS 8C",
    2: "JD AH AS 10D QD KD AD 9C 10C JC",
}
WIDOW = "QC KC AC"


def legal_cards(m):
    return sorted(a["cards"][0] + (":" + a["suit"] if "suit" in a else "") for a in m.output()["legal"])


def refused(m, seat, kind, **keys):
    with pytest.raises(IllegalAction) as e:
        act(m, seat, kind, **keys)
    return e.value.message


# --- the contract table and the auction ------------------------------------------------------------------------


def test_contract_values_follow_the_avondale_table():
    """Rule decision: "6 tricks ♠40 ♣60 ♦80 ♥100 NT120, +100 for each further trick (10NT = 520)"."""
    value = {b.name: b.value for b in BIDS}
    assert [value[n] for n in ("6♠", "6♣", "6♦", "6♥", "6NT")] == [40, 60, 80, 100, 120]
    assert value["7♠"] == 140 and value["9♦"] == 380 and value["10NT"] == 520
    assert value["misère"] == 250 and value["open misère"] == 520
    assert len(BIDS) == 27


def test_misere_ranks_between_eight_spades_and_eight_clubs():
    """Rule decision: "misère 250 (ranks between 8♠ 240 and 8♣ 260)"."""
    order = [b.name for b in BIDS]
    assert order.index("8♠") + 1 == order.index("misère") == order.index("8♣") - 1
    m = new_deal(HEARTS_DEAL, WIDOW)
    bid(m, 0, "8S")
    bid(m, 1, "misere")
    assert "not higher than the bid of misère (250)" in refused(m, 2, "bid", value=8, suit="S")
    bid(m, 2, "8C")


def test_open_misere_ranks_above_ten_hearts_below_ten_no_trumps():
    """Rule decision: "open misère 520 (ranks above 10♥, below 10NT)"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    bid(m, 0, "10H")
    bid(m, 1, "open_misere")
    assert "not higher" in refused(m, 2, "bid", value=10, suit="H")
    bid(m, 2, "10NT")
    assert [a["type"] for a in m.output()["legal"]] == ["pass"]  # nothing beats 10NT


def test_each_may_pass_or_bid_higher_and_a_pass_is_final():
    """ "each in turn may pass or make a higher bid than any that has gone before ... Once a player has passed he
    may not re-enter"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    assert m.to_move == 0  # "Starting with eldest hand"
    act(m, 0, "pass")
    bid(m, 1, "6S")
    assert "not higher than the bid of 6♠ (40)" in refused(m, 2, "bid", value=6, suit="S")
    bid(m, 2, "7S")
    assert m.to_move == 1  # seat 0 passed and is skipped
    assert "may not bid again" in refused(m, 0, "bid", value=9, suit="NT")
    bid(m, 1, "7C")
    act(m, 2, "pass")
    assert m.phase == "exchange" and m.soloist == 1
    assert m.output()["contract"] == {"seat": 1, "value": 7, "suit": "C", "name": "7♣", "tricks": 7, "points": 160,
                                      "side": [1], "called_card": None, "partner": None}  # fmt: skip


def test_the_auction_ends_when_all_others_have_passed():
    """ "once two players have passed the third has no opportunity to increase his bid"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    act(m, 0, "pass")
    act(m, 1, "pass")
    bid(m, 2, "6D")
    assert m.phase == "exchange" and m.to_move == 2


def test_bids_name_tricks_and_suit_or_a_misere():
    """ "announcing either the number of tricks he proposes to win and the intended trump suit" (6 to 10, rule decision
    table), or "Misère ... open misère"; anything else is refused in a player's words."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    assert "6 to 10 tricks" in refused(m, 0, "bid", value=5, suit="S")
    assert "names its trump suit" in refused(m, 0, "bid", value=7)
    assert "not a contract here" in refused(m, 0, "bid", contract="slam")
    assert "bid or pass" in refused(m, 0, "play", cards=["JK"])


def test_legal_bids_list_every_higher_contract_and_pass():
    """ "each in turn may pass or make a higher bid than any that has gone before"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    bid(m, 0, "9H")
    legal = m.output()["legal"]
    assert legal[0] == {"seat": 1, "type": "pass"}
    assert legal[1:] == [{"seat": 1, "type": "bid", **b.to_json()} for b in BIDS if b.value > 400 or b.name == "10NT"]


# --- the widow -------------------------------------------------------------------------------------------------


def test_the_soloist_takes_the_widow_and_discards_three_then_leads():
    """ "He first takes up the widow and adds it to his hand, then discards any three cards face down to the table
    ... he leads to the first trick"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    bid(m, 0, "6H")
    act(m, 1, "pass")
    act(m, 2, "pass")
    assert len(m.hand(0)) == 13
    legal = m.output()["legal"]
    assert legal == [{"seat": 0, "type": "discard", "choose": 3, "from": m.output()["hands"][0]}]
    assert "exactly 3" in refused(m, 0, "discard", cards=["QC", "KC"])
    assert "do not hold J♥" in refused(m, 0, "discard", cards=["QC", "KC", "JH"])
    assert "discard 3 cards" in refused(m, 0, "play", cards=["JK"])
    act(m, 0, "discard", cards=["7S", "8S", "KC"])
    assert m.phase == "play" and m.to_move == 0
    out = m.output()
    assert out["discards"] == ["7S", "8S", "KC"] and len(out["hands"][0]) == 10
    assert out["trump"] == "H" and out["contract"]["seat"] == 0


def test_all_pass_widow_untouched_eldest_leads_at_no_trumps():
    """ "If all pass ... The widow remains untouched; eldest hand leads; and tricks are played at No Trump"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    all_pass(m)
    out = m.output()
    assert out["phase"] == "play" and out["trump"] == "NT" and out["contract"] is None
    assert m.to_move == 0 and all(len(h) == 10 for h in out["hands"]) and out["widow_taken"] is False


# --- the order of the cards, the bowers and the Joker -------------------------------------------------------------


def test_left_bower_is_a_trump_and_must_follow_trumps():
    """ "Left Bower – other Jack of the same colour as trumps" and "the Left Bower belongs to the trump suit, not to
    the suit marked on its face"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "6H")
    play(m, "7H", "QH")
    assert legal_cards(m) == ["AH", "JD"]  # the J♦ is a heart here
    assert "you must follow trumps (hearts)" in refused(m, 2, "play", cards=["10D"])
    play(m, "JD")
    assert m.tp.completed[-1][2] == 2  # the left bower beats the queen of trumps


def test_joker_beats_the_right_bower_which_beats_the_left_bower_and_the_ace():
    """ "Best Bower – the Joker; Right Bower – Jack of trumps; Left Bower ...; Ace of trumps, followed by KQT987"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "6H")
    play(m, "7H", "JH", "AH")
    assert m.tp.completed[-1][2] == 1  # right bower over the ace
    play(m, "KH", "JD", "JK")
    assert m.tp.completed[-1][2] == 0  # Joker over the left bower


def test_a_card_of_the_left_bowers_face_suit_must_be_played_before_it():
    """The left bower is no diamond: with 9♦ in hand a diamond lead must be followed with the 9♦."""
    m = new_deal(
        {
            0: "AD 7H 8H 9H 10H 7S 8S 9S 10S 7C",
            1: "JD 9D JH QH KH JS QS KS 8C 9C",
            2: "JK AH AS 10D QD KD 7D 8D 10C JC",
        },
        WIDOW,
    )
    win_auction(m, 0, "6H")
    play(m, "AD")
    assert legal_cards(m) == ["9D"]
    assert "J♦ is the left bower, a heart" in refused(m, 1, "play", cards=["JD"])


def test_holding_only_the_left_bower_of_a_suit_is_being_void_in_it():
    """Rule decision: "The left bower belongs to the trump suit for following and for voids"."""
    m = new_deal(
        {
            0: "AD 7H 8H 9H 10H 7S 8S 9S 10S 7C",
            1: "JD JH QH KH JS QS KS 8C 9C 10C",
            2: "JK AH AS 10D QD KD 7D 8D 9D JC",
        },
        WIDOW,
    )
    win_auction(m, 0, "6H")
    play(m, "AD")
    assert len(legal_cards(m)) == 10  # void in diamonds: any card
    play(m, "JS")
    assert m.output()["shown_void"][1] == ["D"]


def test_trumps_follow_and_ruff_and_highest_trump_wins():
    """ "Players must follow suit if possible; if not, they may trump or renounce ad lib. The trick is captured by the
    highest card of the suit led, or the highest trump if any are played"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "6C")
    play(m, "7S", "KS", "AS")  # spades led: the ace wins
    assert m.tp.completed[-1][2] == 2
    play(m, "10D")
    assert legal_cards(m) == sorted(m.output()["hands"][0])  # void in diamonds: trump or renounce ad lib
    play(m, "7C", "7D")  # 7♣ trumps
    assert m.tp.completed[-1][2] == 0


def test_at_no_trumps_the_jacks_rank_between_queen_and_ten():
    """ "In a “no trump” game there is no trump suit and all the Jacks rank in their normal position"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "6NT")
    play(m, "10H", "JH", "AH")
    assert m.tp.completed[-1][2] == 2
    play(m, "JD")  # at no trumps the J♦ is a diamond
    assert legal_cards(m) == sorted(m.output()["hands"][0])  # seat 0 has no diamonds
    play(m, "7C", "9D")
    assert m.tp.completed[-1][2] == 2


def test_at_no_trumps_the_joker_led_names_a_suit_that_must_be_followed_and_wins():
    """ "If the holder leads it to a trick he must specify a suit to be played to it, which the others must follow if
    possible"; "The Joker, however, retains its position as Best Bower and is the only trump"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "6NT")
    assert "JK:S" in legal_cards(m) and "JK" not in legal_cards(m)
    assert "name the suit" in refused(m, 0, "play", cards=["JK"])
    play(m, "JK:S")
    assert m.output()["trick"] == [{"seat": 0, "cards": ["JK"]}]
    assert legal_cards(m) == ["JS", "KS", "QS"]
    play(m, "KS", "AS")
    assert m.tp.completed[-1][2] == 0


def test_the_joker_may_not_name_a_suit_its_holder_has_shown_void_in():
    """ "but he may not specify a suit in which he has already shown himself to be void (by discarding to it when
    led)"."""
    m = new_deal(
        {
            0: "JK AH 7S 8S 9S 10S 7C 8H 9H 10H",
            1: "JH QH KH 7D 8D 9D JS QS KS 8C",
            2: "JD 7H AS 10D QD KD AD 9C 10C JC",
        },
        WIDOW,
    )
    win_auction(m, 0, "6NT")
    play(m, "10S", "QS", "AS", "AD", "7C", "7D", "7H", "AH", "JH")
    assert m.output()["shown_void"][0] == ["D"]
    assert "JK:D" not in legal_cards(m) and "JK:C" in legal_cards(m)
    assert "may not name diamonds" in refused(m, 0, "play", cards=["JK"], suit="D")
    play(m, "JK:H", "QH", "9C")
    assert m.tp.completed[-1][2] == 0


def test_the_joker_at_no_trumps_goes_to_a_plain_lead_only_when_void():
    """ "In a no-trump game the Best Bower may only be used to ruff a trick if its holder is void in the suit led"."""
    m = new_deal(
        {
            0: "AH 7H 8H 9H 10H 7S 8S 9S 10S 7C",
            1: "JK QH KH 7D 8D 9D JS QS KS 8C",
            2: "JH JD AS 10D QD KD AD 9C 10C JC",
        },
        WIDOW,
    )
    win_auction(m, 0, "6NT")
    play(m, "7H")
    assert "JK" not in legal_cards(m)
    assert "the Joker may be played to a heart lead only when you hold no hearts" in refused(m, 1, "play", cards=["JK"])
    play(m, "QH", "JH")  # at no trumps the J♥ is below the Q♥
    assert m.tp.completed[-1][2] == 1
    play(m, "7D", "10D", "7C", "AD", "7S", "8D", "KD", "8S")
    assert "JK" not in legal_cards(m)  # seat 1 still holds the 9♦
    play(m, "9D", "QD", "9S")
    assert "JK" in legal_cards(m)  # now void in diamonds
    play(m, "JK")
    assert m.tp.completed[-1][2] == 1  # the only trump wins


def test_in_a_suit_contract_the_joker_is_the_highest_trump_and_leads_trumps():
    """ "the Best Bower (Joker) is the highest trump"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "6H")
    assert "JK" in legal_cards(m) and not any(":" in c for c in legal_cards(m))
    assert "only when you lead the Joker at no trumps" in refused(m, 0, "play", cards=["JK"], suit="S")
    play(m, "JK")
    assert legal_cards(m) == ["JH", "KH", "QH"]  # a trump lead


def test_cards_not_held_are_refused():
    """Rule decision: "Illegal plays are never accepted online: revokes are prevented, not penalised"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "6H")
    assert refused(m, 0, "play", cards=["AS"]) == "you do not hold A♠"
    assert "not in this game's pack" in refused(m, 0, "play", cards=["2S"])
    assert "exactly one card" in refused(m, 0, "play", cards=["7H", "8H"])
    assert "not your turn" in refused(m, 1, "play", cards=["JH"])


# --- misère ----------------------------------------------------------------------------------------------------


def test_misere_is_played_at_no_trumps_except_for_the_best_bower():
    """ "Misère is a bid to lose every single trick ... Both are played at no trumps, except for the Best Bower"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "misere")
    assert m.output()["trump"] == "NT" and m.output()["contract"]["contract"] == "misere"
    assert "JK:S" in legal_cards(m)


def test_open_misere_shows_the_hand_after_the_first_trick():
    """ "If he is playing an open misère he waits until the first trick has been captured and then immediately lays
    the rest of his hand face up on the table"."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    win_auction(m, 0, "open_misere")
    assert m.output()["open_hand"] is None
    play(m, "7H", "QH")
    assert m.output()["open_hand"] is None
    play(m, "AH")
    assert m.output()["open_hand"] == {"seat": 0, "cards": m.output()["hands"][0]}
    assert len(m.output()["open_hand"]["cards"]) == 9


# --- options and packs -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options, pack, kitty",
    [({}, 33, 3), ({"players": 2}, 33, 13), ({"players": 2, "two_player_method": 2}, 24, 4), ({"players": 4}, 43, 3),
     ({"players": 5}, 53, 3), ({"players": 6}, 63, 3), ({"players": 6, "six_player_method": 2}, 63, 3)],
)  # fmt: skip
def test_every_player_count_deals_its_pack(options, pack, kitty):
    """ "Each player receives ten cards ... three face down to the table" and the packs of each form."""
    m = FiveHundred(options)
    assert len(m.pack()) == len(set(m.pack())) == pack
    assert m.hand_sizes() == [10] * m.players and m.kitty_size() == kitty
    m.check_deal(m.random_deal(__import__("random").Random(1)))


def test_the_packs_hold_the_cards_the_text_names():
    names = lambda opts: {__import__("rules.cards", fromlist=["x"]).CARD_NAMES[c] for c in FiveHundred(opts).pack()}  # noqa: E731
    three = names({})
    assert "JK" in three and "7S" in three and "6S" not in three  # A K Q J 10 9 8 7 and the Joker
    short = names({"players": 2, "two_player_method": 2})
    assert "9S" in short and "8S" not in short and "JK" not in short  # "nothing lower than Nine) and no Joker"
    four = names({"players": 4})
    assert {"4H", "4D", "5S", "5C"} <= four and not {
        "4S",
        "4C",
        "3H",
        "2D",
    } & four  # "all Twos, Threes and black Fours"
    six = names({"players": 6})
    assert {"11H", "12S", "13D", "13H", "2C"} <= six and "13S" not in six and "13C" not in six


def test_a_wrong_pack_is_a_record_error_naming_the_cards():
    """docs/records.md: "The cards of a deal must be exactly the pack the game and its options call for"."""
    m = FiveHundred()
    hands = [cards("JK 7H 8H 9H 10H 7S 8S 9S 10S 6C"), cards(HEARTS_DEAL[1]), cards(HEARTS_DEAL[2])]
    with pytest.raises(RecordError) as e:
        m.check_deal(DealCards(hands=hands, kitty=cards(WIDOW)))
    assert "6C not in this game's pack" in e.value.message and "7C missing" in e.value.message
    with pytest.raises(RecordError) as e:
        m.check_deal(DealCards(hands=[cards(HEARTS_DEAL[s]) for s in range(3)], kitty=cards("QC KC")))
    assert "kitty must hold 3" in e.value.message


@pytest.mark.parametrize(
    "options, fragment",
    [({"players": 7}, "players"), ({"players": 3, "two_player_method": 2}, "two players only"),
     ({"players": 4, "six_player_method": 2}, "six players only"), ({"target": 0}, "target"),
     ({"target": 505}, "multiple of 10"), ({"misere": True}, "unknown option")],
)  # fmt: skip
def test_bad_options_are_record_errors(options, fragment):
    """docs/records.md: an unknown option, or a value it does not allow, "makes the record malformed" (exit 2)."""
    with pytest.raises(RecordError) as e:
        FiveHundred(options)
    assert fragment in e.value.message


def test_six_player_ranks_eleven_twelve_thirteen_between_ten_and_jack():
    """The 62-card pack "with Elevens, Twelves and red Thirteens": they rank between the Ten and the Jack."""
    from rules.five_hundred.packs import card_order

    _, strength = card_order(NO_TRUMP)
    assert [strength[c] for c in cards("10H 11H 12H 13H JH")] == sorted(
        strength[c] for c in cards("10H 11H 12H 13H JH")
    )
    m = new_deal({0: "10H 11H 12H 13H 2H 3H 4H 5H 6H 7H", 1: "JH QH KH AH 8H 9H"}, "QS QD QC", {"players": 6})
    win_auction(m, 0, "6NT", discard="QS QD QC")
    play(m, "13H")
    assert legal_cards(m) == ["8H", "9H", "AH", "JH", "KH", "QH"]
    play(m, "JH")
    for _ in range(4):
        play(m, legal_cards(m)[0])
    assert m.tp.completed[-1][2] == 1


def test_two_players_method_one_plays_two_hands_and_leaves_one_out():
    """ "use 33 cards and deal as if for three players but leave one hand face down and out of play"."""
    m = new_deal({0: HEARTS_DEAL[0], 1: HEARTS_DEAL[1]}, WIDOW + " " + HEARTS_DEAL[2], {"players": 2})
    out = m.output()
    assert out["widow"] == WIDOW.split() and out["out_of_play"] == HEARTS_DEAL[2].split()
    win_auction(m, 0, "6H")
    play(m, "7H", "QH")
    assert m.tp.completed[-1][2] == 1 and m.phase == "play"


def test_two_players_method_two_has_a_widow_of_four():
    """ "Method 2: use 24 cards (nothing lower than Nine) and no Joker. Deal 10 each and a widow of four"."""
    m = new_deal({}, "", {"players": 2, "two_player_method": 2})
    bid(m, 0, "6S")
    act(m, 1, "pass")
    assert m.output()["legal"][0]["choose"] == 4 and len(m.hand(0)) == 14
    act(m, 0, "discard", cards=m.output()["widow"])
    assert m.phase == "play"


def test_four_players_play_in_partnerships_and_score_per_team():
    """ "Use 42 cards plus Joker ... Play in partnerships. Follow the rules of the three-hand game"."""
    m = new_deal({}, "", {"players": 4})
    assert m.output()["teams"] == [[0, 2], [1, 3]] and m.scores() == [0, 0]


def test_misere_partners_sit_out_in_a_partnership_game():
    """The text is silent: as usually played, the misère bidder's partner lays his hand down and takes no part."""
    m = new_deal({}, "", {"players": 4})
    win_auction(m, 0, "misere")
    assert m.output()["sitting_out"] == [2]
    first = m.to_move
    for _ in range(3):
        act(m, m.to_move, "play", cards=[m.output()["legal"][0]["cards"][0]])
    assert m.tp.completed and len(m.tp.completed[0][1]) == 3 and first == 0


def test_six_players_team_layouts():
    """Record spec: "Six players in two teams of three: seats 0, 2, 4 and 1, 3, 5; in three teams of two: (0, 3),
    (1, 4), (2, 5)"."""
    assert FiveHundred({"players": 6}).output()["teams"] == [[0, 3], [1, 4], [2, 5]]
    assert FiveHundred({"players": 6, "six_player_method": 2}).output()["teams"] == [[0, 2, 4], [1, 3, 5]]
    assert FiveHundred({"players": 5}).output()["teams"] is None


# --- five players: calling a partner ------------------------------------------------------------------------------

FIVE = {0: "AS KS QS JS 10S 9S 8S 7S 6S 5S", 1: "AH KH QH JH 10H 9H 8H 7H 6H 5H", 2: "AD KD QD JD 10D 9D 8D 7D 6D 5D",
        3: "AC KC QC JC 10C 9C 8C 7C 6C 5C", 4: "JK 4S 3S 2S 4H 3H 2H 4D 3D 2D"}  # fmt: skip
FIVE_WIDOW = "4C 3C 2C"


def test_five_players_call_a_partner_who_identifies_at_once():
    """ "the highest bidder may either play alone or call for a partner by nominating a specific card. The holder of
    that card becomes his partner and immediately identifies himself"."""
    m = new_deal(FIVE, FIVE_WIDOW, {"players": 5})
    win_auction(m, 0, "7S")
    assert m.phase == "exchange" and m.to_move == 0
    legal = m.output()["legal"]
    assert {"seat": 0, "type": "call"} in legal and {"seat": 0, "type": "call", "card": "AH"} in legal
    assert "a trump" in refused(m, 0, "call", card="JC")  # the left bower is a spade here
    assert "a trump" in refused(m, 0, "call", card="JK")
    assert "you hold A♠ yourself" in refused(m, 0, "call", card="AS")
    assert "you discarded 4♣" in refused(m, 0, "call", card="4C")
    assert "call a partner" in refused(m, 0, "play", cards=["AS"])
    act(m, 0, "call", card="AH")
    assert m.output()["contract"]["partner"] == 1 and m.output()["contract"]["called_card"] == "AH"
    assert m.phase == "play" and m.to_move == 0


def test_five_players_may_call_the_joker_at_no_trumps_or_play_alone():
    """ "The card called may not be a trump but may be the Joker if the bid is at no trump"."""
    m = new_deal(FIVE, FIVE_WIDOW, {"players": 5})
    win_auction(m, 0, "7NT")
    act(m, 0, "call", card="JK")
    assert m.output()["contract"]["partner"] == 4
    m = new_deal(FIVE, FIVE_WIDOW, {"players": 5})
    win_auction(m, 0, "7NT")
    act(m, 0, "call")
    assert m.output()["contract"]["partner"] is None and m.phase == "play"


def test_five_player_misere_is_played_alone_without_a_call():
    """Choice (docs): "the highest bidder may either play alone or call for a partner" is read as not applying to
    misère, which is always played alone."""
    m = new_deal(FIVE, FIVE_WIDOW, {"players": 5})
    win_auction(m, 0, "misere")
    assert m.phase == "play"


def test_bid_table_keys():
    """Rule decision: "10NT = 520"; the six-hand pack has "red Thirteens"."""
    assert BID_BY_KEY[(10, NO_TRUMP, None)].value == 520 and parse_card("13D") in FiveHundred({"players": 6}).pack()


# --- sentences of the text pinned by the audit ------------------------------------------------------------------


@pytest.mark.parametrize("trump", ["S", "H", "D", "C"])
def test_ten_trumps_seven_in_the_same_colour_eight_in_the_others(trump):
    """ "Hence there are ten cards in the trump suit, seven in the other suit of the same colour, and eight each in
    suits of the opposite colour." (the 33-card pack)"""
    from rules.cards import parse_suit
    from rules.five_hundred.packs import SAME_COLOUR, suit_cards

    t = parse_suit(trump)
    pack = sum(1 << c for c in FiveHundred().pack())
    sizes = [(suit_cards(t)[s] & pack).bit_count() for s in range(4)]
    assert sizes[t] == 10 and sizes[SAME_COLOUR[t]] == 7
    assert sorted(n for s, n in enumerate(sizes) if s not in (t, SAME_COLOUR[t])) == [8, 8]


def test_plain_suits_rank_naturally_in_a_trump_game():
    """ "Normal ranking from high to low is AKQ(J)T987": in a plain suit of the other colour the jack sits between
    queen and ten."""
    m = new_deal({0: "10S 7H 8H 9H 10H 7D 8D 9D 10D 7C", 1: "JS 8S 9S QH KH AD KD QD JC 8C", 2: "QS 7S KS AS"}, WIDOW)
    win_auction(m, 0, "6H")
    play(m, "10S", "JS", "QS")
    assert m.tp.completed[-1][2] == 2  # Q♠ beats J♠ beats 10♠


def test_each_player_receives_ten_cards_and_three_go_to_the_widow():
    """ "Each player receives ten cards dealt as follows: a batch of three to each player, then three face down to the
    table, then four each, and finally three each. The face-down cards form the “widow”"."""
    import random

    m = FiveHundred()
    cards_dealt = m.random_deal(random.Random(5))
    assert [len(h) for h in cards_dealt.hands] == [10, 10, 10] and len(cards_dealt.kitty) == 3
    m.start_deal(cards_dealt)
    assert m.output()["widow"] == [__import__("rules.cards", fromlist=["x"]).CARD_NAMES[c] for c in cards_dealt.kitty]


def test_a_player_who_passed_is_told_he_may_not_re_enter():
    """ "Once a player has passed he may not re-enter": the refusal says so in a player's words."""
    m = new_deal(HEARTS_DEAL, WIDOW)
    act(m, 0, "pass")
    bid(m, 1, "6S")
    assert refused(m, 0, "bid", value=7, suit="S") == "you have passed: once passed you may not bid again this deal"
    assert refused(m, 0, "pass") == "you have passed: once passed you may not bid again this deal"


def test_a_misere_bidders_partner_is_told_he_sits_out():
    """Four players, misère: the bidder's partner takes no part (docs' choice); a card from him is refused plainly."""
    m = new_deal({}, "", {"players": 4})
    win_auction(m, 0, "misere")
    assert (
        refused(m, 2, "play", cards=[m.output()["hands"][2][0]])
        == "your partner is playing misère alone: you sit out this deal"
    )
