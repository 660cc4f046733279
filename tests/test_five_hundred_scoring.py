"""Five Hundred scoring and the end of the game, each test quoting the sentence of
the Five Hundred rule text (or the project's rule decision) it implements."""

from rules.cards import CLUBS, HEARTS, NO_TRUMP, SPADES
from rules.five_hundred import FiveHundred
from rules.five_hundred.bids import BID_BY_KEY
from rules.five_hundred.scoring import DealScore, decide_game, score_all_pass, score_contract
from rules.seats import partnership_teams, solo_teams
from tests.test_five_hundred_helpers import act, all_pass, new_deal, win_auction

SOLO3 = solo_teams(3)
SIDE3 = [0, 1, 2]
MISERE = BID_BY_KEY[(None, None, "misere")]
OPEN_MISERE = BID_BY_KEY[(None, None, "open_misere")]


def contract(tricks, suit):
    return BID_BY_KEY[(tricks, suit, None)]


def solo(bid, winners, soloist=0):
    return score_contract(bid, soloist, None, frozenset([soloist]), SIDE3, SOLO3, winners)


# --- a deal's score ---------------------------------------------------------------------------------------------


def test_made_contract_scores_its_value_and_each_opponent_ten_per_trick():
    """ "If the soloist makes his contract he scores the value of that contract. He gets no credit for taking more
    tricks than contracted ... each opponent scores 10 points per trick captured by himself"."""
    r = solo(contract(7, SPADES), [0] * 8 + [1, 2])
    assert r.made is True and r.change == [140, 10, 10]


def test_failed_contract_loses_its_value_and_opponents_still_score_their_tricks():
    """ "If he fails to make his contract his current score is reduced by the value of the failed contract ...
    Whether or not he makes his contract each opponent scores 10 points per trick captured by himself"."""
    r = solo(contract(8, NO_TRUMP), [0] * 7 + [1, 1, 2])
    assert r.made is False and r.change == [-320, 20, 10]


def test_all_ten_tricks_in_a_contract_worth_less_than_250_scores_250():
    """ "if he succeeds in taking all ten in a contract worth less than 250, he scores 250 instead"."""
    assert solo(contract(7, SPADES), [0] * 10).change == [250, 0, 0]
    assert solo(contract(8, SPADES), [0] * 10).change == [250, 0, 0]  # 240 < 250
    assert solo(contract(8, CLUBS), [0] * 10).change == [260, 0, 0]  # already 250 or more: its own value
    assert solo(contract(10, SPADES), [0] * 10).change == [440, 0, 0]


def test_won_misere_gives_the_opponents_nothing():
    """ "each opponent scores 10 points per trick captured by himself, except in a won misère"."""
    r = solo(MISERE, [1] * 6 + [2] * 4)
    assert r.made is True and r.change == [250, 0, 0]
    assert solo(OPEN_MISERE, [2] * 10).change == [520, 0, 0]


def test_lost_misere_costs_250_or_520_and_each_opponent_scores_the_soloists_tricks():
    """ "In a lost misère the soloist is set back by 250 (520) and each opponent scores 10 per trick taken by the
    soloist"."""
    r = solo(MISERE, [1, 0, 2, 0, 0, 1, 1, 2, 2, 1])
    assert r.made is False and r.change == [-250, 30, 30]
    assert solo(OPEN_MISERE, [0] + [1] * 9).change == [-520, 10, 10]


def test_all_pass_each_player_scores_ten_per_trick():
    """ "If all pass ... Each player scores 10 points per trick won by himself"."""
    r = score_all_pass(SIDE3, SOLO3, [0, 1, 1, 2, 2, 2, 0, 1, 2, 2])
    assert r.made is None and r.change == [20, 30, 50]


def test_partnership_tricks_count_for_the_team():
    """Four players: "Play in partnerships. Follow the rules of the three-hand game"."""
    teams = partnership_teams(4, 2)
    r = score_contract(contract(7, HEARTS), 1, None, frozenset([1, 3]), [0, 1, 0, 1], teams,
                       [1, 3, 3, 1, 0, 1, 3, 2, 1, 0])  # fmt: skip
    assert r.made is True and r.change == [30, 200]


def test_called_partner_wins_or_loses_half_and_opponents_score_their_tricks():
    """Five players: "The called partner wins or loses half the appropriate score and each opponent scores 10 per
    trick in the usual way"."""
    sides = solo_teams(5)
    won = score_contract(contract(8, SPADES), 0, 3, frozenset([0, 3]), range(5), sides, [0, 3] * 4 + [1, 4])
    assert won.change == [240, 10, 0, 120, 10]
    lost = score_contract(contract(8, SPADES), 0, 3, frozenset([0, 3]), range(5), sides, [0, 3] * 3 + [1, 4, 2, 2])
    assert lost.change == [-240, 10, 20, -120, 10]
    slam = score_contract(contract(6, SPADES), 0, 3, frozenset([0, 3]), range(5), sides, [0, 3] * 5)
    assert slam.change == [250, 0, 0, 125, 0]


# --- the end of the game ----------------------------------------------------------------------------------------


def test_nobody_at_500_the_game_goes_on():
    """ "This generally takes several deals": below 500 and above −500 the game goes on."""
    end = decide_game([100, 0, 0], DealScore([140, 10, 10], True, [(8, 1, 10), (9, 2, 10)]), [0], 500)
    assert not end.over


def test_the_soloist_scores_first_and_wins_if_he_reaches_500():
    """ "If two or more stand to reach 500 in the same deal the soloist scores first and wins if he thereby reaches
    the target"."""
    score = DealScore([140, 20, 0], True, [(0, 1, 10), (1, 1, 10)])
    assert decide_game([400, 490, 0], score, [0], 500).winner == 0


def test_opponents_both_reaching_500_the_earlier_trick_wins():
    """ "if both opponents reach 500 but not the soloist, then the winner is the one who took the trick that gave him
    500 first"."""
    gains = [(0, 1, 10), (1, 2, 10), (2, 2, 10), (3, 1, 10)]  # seat 2 reaches 500 at trick 3, seat 1 at trick 4
    score = DealScore([-140, 20, 20], False, gains)
    end = decide_game([0, 480, 480], score, [0], 500)
    assert end.over and end.winner == 2


def test_lost_misere_opponents_reaching_500_on_the_same_trick_the_higher_score_wins():
    """Rule decision: "the one whose trick took them there first"; on the same trick (a lost misère pays both
    opponents at once) we let the higher score win, and name no winner on equal scores."""
    score = solo(MISERE, [0] + [1] * 9)
    assert decide_game([0, 490, 495], score, [0], 500).winner == 2
    assert decide_game([0, 490, 490], score, [0], 500).winner is None


def test_500_down_ends_the_game_and_the_greatest_score_wins():
    """ "or the player with the greatest score if and when one player is reduced to minus 500 or more"."""
    score = DealScore([-320, 30, 40], False, [])
    end = decide_game([-200, 100, 50], score, [0], 500)
    assert end.over and end.winner == 1


def test_500_up_counts_before_500_down():
    """ "the winner is the first player to reach or exceed a score of 500, or the player with the greatest score if and
    when one player is reduced to minus 500": reaching 500 is looked at first."""
    score = DealScore([-320, 30, 40], False, [(0, 1, 10), (1, 1, 10), (2, 1, 10)])
    assert decide_game([-200, 480, 50], score, [0], 500).winner == 1


# --- whole deals through the match ---------------------------------------------------------------------------


def play_out(m):
    """Play the first legal card until the deal ends."""
    while m.phase == "play":
        act(m, m.to_move, "play", **{k: v for k, v in m.output()["legal"][0].items() if k in ("cards", "suit")})


def test_a_whole_deal_scores_into_the_totals_and_deal_results():
    """ "If the soloist makes his contract he scores the value of that contract", into the totals and deal_results."""
    m = new_deal({0: "JK JH JD AH KH QH 10H 9H 8H 7H"}, "7S 8S 9S")
    win_auction(m, 0, "6H")
    play_out(m)
    result = m.output()["deal_results"][0]
    assert m.phase == "between_deals" and result["made"] is True
    assert result["score_change"] == m.scores() and sum(result["tricks_won"]) == 10
    assert result["contract"]["name"] == "6♥" and "made" in result["explain"]


def test_all_pass_deal_is_played_and_scored_not_thrown_in():
    m = new_deal({}, "")
    all_pass(m)
    play_out(m)
    result = m.output()["deal_results"][0]
    assert result["thrown_in"] is False and result["made"] is None
    assert result["score_change"] == [10 * n for n in result["tricks_won"]]


def test_reaching_500_ends_the_match_with_a_winner():
    """ "the winner is the first player to reach or exceed a score of 500"."""
    m = FiveHundred(first_dealer=2)
    m.totals = [480, 0, 0]
    new_deal({0: "JK JH JD AH KH QH 10H 9H 8H 7H"}, "7S 8S 9S", match=m)
    win_auction(m, 0, "6H")
    play_out(m)
    out = m.output()
    assert out["phase"] == "game_over" and out["winner"] == 0 and out["legal"] == []


def test_four_player_partnership_winner_is_a_team():
    """Four players: "Play in partnerships": scores and the winner are the team's."""
    m = FiveHundred({"players": 4}, first_dealer=3)
    m.totals = [0, 495]
    new_deal({1: "JK JH JD AH KH QH 10H 9H 8H 7H"}, "", match=m)
    all_pass(m)
    play_out(m)
    assert m.phase == "game_over" and m.winner == 1 and len(m.scores()) == 2


# --- the end of the game through whole deals (the match keeps the order of the tricks) ---------------------------


def deal_with_totals(totals, hands, widow, options=None):
    m = FiveHundred(options, first_dealer=(options or {}).get("players", 3) - 1)
    m.totals = list(totals)
    return new_deal(hands, widow, match=m)


def test_all_pass_several_reach_500_the_first_trick_there_wins():
    """ "if both opponents reach 500 but not the soloist, then the winner is the one who took the trick that gave him
    500 first"; rule decision: "if several reach it in one deal ... the one whose trick took them there first" — after
    all pass every player is scored trick by trick."""
    m = deal_with_totals([490, 490, 490], {}, "")
    all_pass(m)
    play_out(m)
    first_trick_winner = m.tp.completed[0][2]
    out = m.output()
    assert out["phase"] == "game_over" and out["winner"] == first_trick_winner
    assert all(s >= 500 for s, n in zip(m.scores(), out["deal_results"][0]["tricks_won"], strict=True) if n)


def test_the_soloist_scores_first_through_the_match():
    """ "If two or more stand to reach 500 in the same deal the soloist scores first and wins if he thereby reaches
    the target" — even when an opponent's trick came earlier in the deal."""
    m = deal_with_totals([470, 490, 490], {0: "JK JS JC AS KS QS 10S AH AD 7C"}, "8H 9H 10H")
    win_auction(m, 0, "6S")
    play_out(m)
    tricks = m.deal_results[0]["tricks_won"]
    assert m.deal_results[0]["made"] is True and tricks[1] + tricks[2] >= 1  # an opponent reached 500 too
    assert m.phase == "game_over" and m.winner == 0


def test_a_failed_soloist_the_opponent_first_to_500_wins_through_the_match():
    """ "if both opponents reach 500 but not the soloist, then the winner is the one who took the trick that gave him
    500 first"."""
    m = deal_with_totals([0, 490, 490], {0: "7S 8S 9S 7H 8H 9H 7D 8D 9D 7C"}, "10S 10H 10D")
    win_auction(m, 0, "10NT")
    play_out(m)
    first_opponent_trick = next(w for _, _, w in m.tp.completed if w != 0)
    assert m.deal_results[0]["made"] is False and m.winner == first_opponent_trick


def test_minus_500_ends_the_game_through_the_match_and_the_greatest_score_wins():
    """ "or the player with the greatest score if and when one player is reduced to minus 500 or more"."""
    m = deal_with_totals([-300, 120, 80], {0: "7S 8S 9S 7H 8H 9H 7D 8D 9D 7C"}, "10S 10H 10D")
    win_auction(m, 0, "8NT")
    play_out(m)
    out = m.output()
    assert out["deal_results"][0]["made"] is False and m.scores()[0] == -620
    assert out["phase"] == "game_over" and out["winner"] == max(range(3), key=lambda s: m.scores()[s])


def test_lost_open_misere_through_the_match():
    """ "In a lost misère the soloist is set back by 250 (520) and each opponent scores 10 per trick taken by the
    soloist" (their own tricks do not count)."""
    m = new_deal({0: "JK AS AH AD AC KS KH KD KC QS"}, "7S 7H 7D")
    win_auction(m, 0, "open_misere")
    play_out(m)
    result = m.deal_results[0]
    taken = result["tricks_won"][0]
    assert result["made"] is False and taken >= 1
    assert result["score_change"] == [-520, 10 * taken, 10 * taken]


def test_four_players_the_team_scores_through_the_match():
    """Four players: "Play in partnerships. Follow the rules of the three-hand game" — the partners' tricks count
    together for the contract, the other team scores 10 per trick."""
    m = new_deal({0: "JK JH JD AH KH QH 10H 9H 8H 7H"}, "", {"players": 4})
    win_auction(m, 0, "6H")
    play_out(m)
    result = m.deal_results[0]
    by_side = result["tricks_by_side"]
    assert result["made"] is True and by_side[0] >= 6
    assert result["score_change"] == [100 if by_side[0] < 10 else 250, 10 * by_side[1]]


def test_six_players_three_pairs_each_opposing_pair_scores_its_tricks():
    """Six players, method 1: "play in three partnerships of two players each ... and play as in the three-hand
    game" — each of the two other pairs scores 10 per trick it took."""
    m = new_deal({0: "JK AH KH QH AS KS 2S 3S 2D 2C"}, "", {"players": 6})
    win_auction(m, 0, "7NT")
    play_out(m)
    result = m.deal_results[0]
    by_side = result["tricks_by_side"]
    own = 220 if by_side[0] >= 7 else -220
    assert by_side[1] and by_side[2]  # both other pairs took tricks
    assert result["score_change"] == [own, 10 * by_side[1], 10 * by_side[2]]
