"""Belote Contrée: the contract conditions, every scoring branch (arithmetic spelled out), and the end of the game.

FFB rules §4.2/§10 and the rule decisions: the takers' total (cards, last trick, their belote) must reach the bid
and be greater than the defenders' total; a capot needs all eight tricks.  Made → takers total + contract,
defenders their total; failed → defenders 160 + contract; countered x2 / recountered x4: (160 + contract) x m to
the winning side; belote +20 to the side that announced it, never lost, never multiplied.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules.belote import Belote
from rules.belote.scoring import DealTally, ScoringRules, round_to_ten, score_deal
from rules.game import BETWEEN_DEALS, GAME_OVER
from rules.records import loads, replay

DEFAULT = ScoringRules()
EXAMPLES = Path(__file__).resolve().parent / "examples" / "records"


def tally(takers=0, value=80, capot=False, m=1, points=(100, 62), tricks=(5, 3), belote=(0, 0)) -> DealTally:
    return DealTally(takers, value, capot, m, points, tricks, belote)


def change(t: DealTally, rules: ScoringRules = DEFAULT, held: int = 0) -> tuple[int, int]:
    return score_deal(t, rules, held).score_change


# --- the contract conditions ----------------------------------------------------------------------------------


def test_made_reaching_the_bid_and_more_than_defenders():
    """§10.1.1: "a total equal to or greater than the bid" and "more points than the defenders"; made → takers
    total + contract value, defenders their total: 100 + 90 = 190, defenders 62."""
    s = score_deal(tally(value=90, points=(100, 62)), DEFAULT)
    assert s.made and s.score_change == (190, 62)
    assert "made: takers 100 + 90 = 190, defenders 62" in s.explain


def test_exactly_the_bid_is_made():
    """ "equal to or greater than the bid": 90 of 90 → 90 + 90 = 180, defenders 72."""
    assert change(tally(value=90, points=(90, 72))) == (180, 72)


def test_failed_short_of_the_bid():
    """Failed → defenders 160 + contract value, takers nothing: 100 of 110 → defenders 160 + 110 = 270."""
    s = score_deal(tally(value=110, points=(100, 62)), DEFAULT)
    assert not s.made and s.score_change == (0, 270)
    assert "failed: defenders 160 + 110 = 270, takers 0" in s.explain


def test_failed_when_not_more_than_defenders():
    """81-81 on an 80 contract: the bid is reached but the takers are not "more" → failed: 160 + 80 = 240."""
    assert change(tally(value=80, points=(81, 81))) == (0, 240)


def test_takers_belote_counts_for_the_contract():
    """§4.2: the points include "Possible Belote points": 70 cards + 20 belote = 90 ≥ 90 and > 92? no: cards 70 vs
    92 → 90 is not more than 92: failed; with 80 cards: 100 ≥ 90 and > 82 → made 80 + 90 + 20 = 190."""
    assert change(tally(value=90, points=(70, 92), belote=(20, 0))) == (20, 250)  # belote kept: "invincible"
    assert change(tally(value=90, points=(80, 82), belote=(20, 0))) == (190, 82)


def test_defenders_belote_counts_against_the_takers():
    """Defenders' total = cards + their belote: takers 85 vs defenders 77 + 20 = 97 → failed: 160 + 80 + 20."""
    s = score_deal(tally(value=80, points=(85, 77), belote=(0, 20)), DEFAULT)
    assert not s.made and s.score_change == (0, 260)


def test_made_defenders_score_their_total_with_belote():
    """Made: defenders their total: 52 cards + 20 belote = 72; takers 110 + 100 = 210."""
    assert change(tally(value=100, points=(110, 52), belote=(0, 20))) == (210, 72)


# --- capot -----------------------------------------------------------------------------------------------------


def test_capot_contract_made():
    """§9.2: all eight tricks, "the Dix de Der is worth 100 points, bringing the total to 252"; contract value 250:
    takers 252 + 250 = 502."""
    assert change(tally(value=250, capot=True, points=(252, 0), tricks=(8, 0))) == (502, 0)


def test_capot_contract_made_with_belote():
    """252 + 250 + 20 = 522."""
    assert change(tally(value=250, capot=True, points=(252, 0), tricks=(8, 0), belote=(20, 0))) == (522, 0)


def test_capot_contract_failed_with_seven_tricks():
    """A capot "committing their team to win all eight tricks": seven are not enough → defenders 160 + 250."""
    assert change(tally(value=250, capot=True, points=(150, 12), tricks=(7, 1))) == (0, 410)


def test_unannounced_capot_on_a_points_contract():
    """All eight tricks on a 120 contract: 252 points → 252 + 120 = 372."""
    assert change(tally(value=120, points=(252, 0), tricks=(8, 0))) == (372, 0)


# --- counter and recounter --------------------------------------------------------------------------------------


def test_countered_made():
    """Countered x2, made → takers (160 + 100) x 2 = 520, defenders 0."""
    s = score_deal(tally(value=100, m=2, points=(120, 42)), DEFAULT)
    assert s.score_change == (520, 0) and "(160 + 100) x 2 = 520" in s.explain


def test_countered_failed():
    """Countered x2, failed → defenders (160 + 100) x 2 = 520, takers 0."""
    assert change(tally(value=100, m=2, points=(90, 72))) == (0, 520)


def test_recountered_made_and_failed():
    """Recountered x4: (160 + 80) x 4 = 960 either way."""
    assert change(tally(value=80, m=4, points=(100, 62))) == (960, 0)
    assert change(tally(value=80, m=4, points=(70, 92))) == (0, 960)


def test_belote_is_never_multiplied():
    """Belote "is then added unmultiplied to the side that announced it": (160 + 80) x 2 = 480, +20 → 500; the
    defenders' belote stays theirs: 20."""
    assert change(tally(value=80, m=2, points=(100, 62), belote=(20, 0))) == (500, 0)
    assert change(tally(value=80, m=2, points=(100, 62), belote=(0, 20))) == (480, 20)
    assert change(tally(value=80, m=2, points=(50, 112), belote=(20, 0))) == (20, 480)


def test_capot_countered():
    """Rule decisions: countered made → "(160 + contract value) x multiplier", capot value 250: (160 + 250) x 2 =
    820."""
    assert change(tally(value=250, capot=True, m=2, points=(252, 0), tricks=(8, 0))) == (820, 0)


def test_team_one_takers():
    """Seen from team 1: 110 + 90 = 200 to team 1, 52 to team 0."""
    assert change(tally(takers=1, value=90, points=(52, 110), tricks=(2, 6))) == (52, 200)


# --- table options ----------------------------------------------------------------------------------------------


def test_announced_scoring():
    """``scoring: announced``: made → the contract only: 90; defenders nothing (but their belote); countered: 90 x 2;
    failed unchanged: 160 + 90."""
    rules = ScoringRules(announced=True)
    assert change(tally(value=90, points=(100, 62)), rules) == (90, 0)
    assert change(tally(value=90, points=(100, 42), belote=(0, 20)), rules) == (90, 20)
    assert change(tally(value=90, m=2, points=(100, 62)), rules) == (180, 0)
    assert change(tally(value=90, points=(80, 82)), rules) == (0, 250)


def test_failed_points_162():
    """``failed_points: 162``: failed → 162 + 100 = 262; countered (162 + 100) x 2 = 524."""
    rules = ScoringRules(base=162)
    assert change(tally(value=100, points=(90, 72)), rules) == (0, 262)
    assert change(tally(value=100, m=2, points=(120, 42)), rules) == (524, 0)


@pytest.mark.parametrize(("points", "rounded"), [(84, 80), (85, 90), (86, 90), (162, 160), (0, 0), (245, 250)])
def test_round_to_ten(points, rounded):
    assert round_to_ten(points) == rounded


def test_rounding_option():
    """``rounding``: 84 + 80 = 164 → 160; defenders 78 → 80."""
    s = score_deal(tally(value=80, points=(84, 78)), ScoringRules(rounding=True))
    assert s.score_change == (160, 80) and "rounded 164/78 to 160/80" in s.explain


def test_litige_holds_the_takers_points_over():
    """``litige``: 81-81 on an 80 contract: defenders score their 81, the takers' 81 + 80 = 161 are held over."""
    s = score_deal(tally(value=80, points=(81, 81)), ScoringRules(litige=True))
    assert s.litige and not s.made and s.score_change == (0, 81) and s.held_over == 161


def test_litige_pot_goes_to_the_next_deals_winner():
    """The next deal made by team 1: 100 + 90 = 190, + 161 held over = 351; failed: the defenders take it."""
    rules = ScoringRules(litige=True)
    s = score_deal(tally(takers=1, value=90, points=(62, 100)), rules, held=161)
    assert s.score_change == (62, 351) and s.held_over == 0
    s = score_deal(tally(takers=1, value=90, points=(82, 80)), rules, held=161)
    assert s.score_change == (250 + 161, 0)


def test_litige_only_when_the_bid_is_reached():
    """90 contract, 81-81: the bid is not reached: an ordinary failure, 160 + 90."""
    s = score_deal(tally(value=90, points=(81, 81)), ScoringRules(litige=True))
    assert not s.litige and s.score_change == (0, 250)


# --- a whole deal, through the record ---------------------------------------------------------------------------


def _example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text())


def test_whole_deal_counted_and_dix_de_der():
    """The project's example, deal 0: 90♠ by seat 3; cards + dix de der = 32 and 130 (162 in all): made, so the
    takers score 130 + 90 = 220 and the defenders their 32."""
    out = replay(loads(json.dumps(_example("belote-standard")))).output()
    first = out["deal_results"][0]
    assert first["contract"]["seat"] == 3 and first["contract"]["value"] == 90
    assert first["card_points"] == [32, 130] and sum(first["card_points"]) == 162
    assert first["score_change"] == [32, 220] and first["made"] is True


def test_whole_deal_countered():
    """The same deal with seat 0 countering the 90♠: (160 + 90) x 2 = 500 to the takers, 0 to the defenders."""
    record = _example("belote-standard")
    deal = copy.deepcopy(record["deals"][0])
    assert deal["actions"][2] == {"seat": 3, "type": "bid", "value": 90, "suit": "S"}
    deal["actions"][3] = {"seat": 0, "type": "counter"}
    deal["actions"].insert(6, {"seat": 3, "type": "pass"})  # three passes after the counter: seats 1, 2, 3
    record["deals"] = [deal]
    result = replay(loads(json.dumps(record)))
    assert result.error is None
    out = result.output()
    assert out["deal_results"][0]["score_change"] == [0, 500]
    assert out["deal_results"][0]["contract"]["multiplier"] == 2


def test_capot_is_worth_252_and_the_belote_is_never_lost():
    """§9: all eight tricks by one side: the last trick is worth 100 instead (252); the 500-point example's deal 0
    (100♠ by seat 2) scores 252 + 100.  Deal 2 of the whole-game example: 160♦ failed with the takers' belote, so
    the defenders score 160 + 160 and the takers keep their 20."""
    capot = replay(loads(json.dumps(_example("belote-short-500")))).output()["deal_results"][0]
    assert capot["card_points"] == [252, 0] and capot["score_change"] == [352, 0]
    failed = replay(loads(json.dumps(_example("belote-whole-game")))).output()["deal_results"][2]
    assert failed["made"] is False and failed["belote"] == [0, 20] and failed["score_change"] == [320, 20]


# --- the end of the game ----------------------------------------------------------------------------------------


def finish_with(match: Belote, change: list[int]) -> None:
    match.phase = "play"
    match._record_result({"score_change": change, "thrown_in": False, "made": True})


def test_game_ends_when_a_side_reaches_the_target():
    """§11: "The game continues until one team reaches or exceeds a pre-defined score (usually 1000 points)." """
    m = Belote()
    finish_with(m, [990, 200])
    assert m.phase == BETWEEN_DEALS and m.winner is None
    finish_with(m, [10, 100])
    assert m.phase == GAME_OVER and m.winner == 0 and m.scores() == [1000, 300]


def test_both_reach_the_target_higher_wins():
    """Rule decisions: "if both do, the higher score wins"."""
    m = Belote({"target": 500})
    finish_with(m, [480, 450])
    finish_with(m, [30, 100])
    assert m.phase == GAME_OVER and m.winner == 1


def test_both_reach_the_target_equal_play_on():
    """Rule decisions: "if equal, play on"; the next deal decides."""
    m = Belote({"target": 500})
    finish_with(m, [520, 520])
    assert m.phase == BETWEEN_DEALS and m.winner is None
    finish_with(m, [0, 20])
    assert m.phase == GAME_OVER and m.winner == 1


def test_fixed_number_of_deals():
    """§2: the game "ends when a team reaches or exceeds a pre-defined number of points, or after a pre-defined
    number of hands"; option ``deals``: thrown-in deals count; a tie after the last one plays on."""
    m = Belote({"deals": 2})
    finish_with(m, [1500, 0])
    assert m.phase == BETWEEN_DEALS  # the target does not apply
    finish_with(m, [0, 1500])
    assert m.phase == BETWEEN_DEALS and m.winner is None  # tied: play on
    m.phase = "play"
    m._record_result({"score_change": [0, 0], "thrown_in": True, "made": None})
    assert m.phase == BETWEEN_DEALS
    finish_with(m, [0, 20])
    assert m.phase == GAME_OVER and m.winner == 1


def test_litige_through_whole_deals():
    """Option ``litige`` in a match: a random 81-81 deal (seed 26) holds 161 over; the next deal's winner gets it."""
    import random

    from rules.actions import Action

    rng = random.Random(26)
    m = Belote({"litige": True}, first_dealer=3)
    m.start_deal(m.random_deal(rng))
    m.apply(Action(0, "bid", 80, 1))
    for seat in (1, 2, 3):
        m.apply(Action(seat, "pass"))
    m.play_out(rng)
    assert m.deal_results[-1]["card_points"] == [81, 81] and m.deal_results[-1]["litige"] is True
    assert m.scores() == [0, 81] and m.output()["held_over"] == 161
    m.start_deal(m.random_deal(rng))  # dealer 0: seat 1 speaks first
    m.apply(Action(1, "bid", 80, 0))
    for seat in (2, 3, 0):
        m.apply(Action(seat, "pass"))
    m.play_out(rng)
    last = m.deal_results[-1]
    winner = 1 if last["made"] else 0
    assert last["score_change"][winner] >= 161 and "+161 held over from a litige" in last["explain"]
    assert m.held_over == 0
    assert m.scores() == [sum(r["score_change"][team] for r in m.deal_results) for team in (0, 1)]
