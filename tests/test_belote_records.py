"""Belote Contrée records: bad options and wrong packs are exit 2 with a message naming them; an illegal action
is exit 1 at that action, in a player's words."""

from __future__ import annotations

import json

import pytest

from rules.belote.tables import PACK
from rules.cards import CARD_NAMES
from rules.records import replay_text

HANDS = [[CARD_NAMES[c] for c in PACK[i::4]] for i in range(4)]


def record(options=None, hands=HANDS, actions=(), **extra) -> str:
    deal = {"hands": hands, "kitty": [], "actions": list(actions)}
    rec = {"format": "cardtable-record/1", "game": "belote", "options": options or {}, "first_dealer": 3}
    rec["deals"] = [deal]
    rec.update(extra)
    return json.dumps(rec)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"trumps": "S"}, "unknown option(s) ['trumps']"),
        ({"players": 3}, "option 'players' must be one of [4]"),
        ({"target": 0}, "option 'target': must be at least 1"),
        ({"target": "1000"}, "option 'target' must be a whole number"),
        ({"deals": -1}, "option 'deals'"),
        ({"scoring": "points"}, "option 'scoring' must be one of ['made', 'announced']"),
        ({"failed_points": 161}, "option 'failed_points' must be one of [160, 162]"),
        ({"rounding": 1}, "option 'rounding' must be true or false"),
        ({"sans_atout": "yes"}, "option 'sans_atout' must be true or false"),
    ],
)
def test_bad_options_exit_2(options, words):
    status, out = replay_text(record(options))
    assert status == 2 and words in out["error"]["message"]


def test_wrong_packs_exit_2():
    hands = [list(h) for h in HANDS]
    hands[0][0] = "6S"
    status, out = replay_text(record(hands=hands))
    assert status == 2 and "6S not in this game's pack" in out["error"]["message"]
    hands = [list(h) for h in HANDS]
    hands[0][0] = hands[1][0]
    status, out = replay_text(record(hands=hands))
    assert status == 2 and "dealt more than once" in out["error"]["message"]
    status, out = replay_text(record(hands=[HANDS[0][:7], HANDS[1], HANDS[2], HANDS[3] + [HANDS[0][7]]]))
    assert status == 2 and "seat 0 must be dealt 8 cards, not 7" in out["error"]["message"]
    status, out = replay_text(record(hands=HANDS[:3]))
    assert status == 2 and "needs 4 hands" in out["error"]["message"]


def test_illegal_actions_exit_1_with_the_state_before():
    status, out = replay_text(record(actions=[{"seat": 0, "type": "bid", "value": 80, "suit": "H"},
                                              {"seat": 1, "type": "bid", "value": 80, "suit": "S"}]))  # fmt: skip
    assert status == 1
    assert out["error"] == {"deal": 0, "action": 1, "message": "your bid must be higher than the current bid, 80♥"}
    assert out["phase"] == "bidding" and out["high_bid"] == {"seat": 0, "value": 80, "suit": "H"}


def test_an_action_of_another_game_and_wrong_seat():
    status, out = replay_text(record(actions=[{"seat": 0, "type": "keep"}]))
    assert status == 1 and "'keep' is not a call in the bidding" in out["error"]["message"]
    status, out = replay_text(record(actions=[{"seat": 5, "type": "pass"}]))
    assert status == 1 and out["error"]["message"] == "there is no seat 5 at a 4-player table"


def test_action_after_a_thrown_in_deal():
    passes = [{"seat": s, "type": "pass"} for s in (0, 1, 2, 3)]
    status, out = replay_text(record(actions=passes + [{"seat": 0, "type": "pass"}]))
    assert status == 1 and out["error"]["message"] == "this deal is over; no more actions in it"
    assert out["phase"] == "between_deals" and out["dealer"] == 3 and out["legal"] == []


def test_seeded_record():
    text = json.dumps({"format": "cardtable-record/1", "game": "belote", "seed": 9, "deals": [{"actions": []}]})
    status, out = replay_text(text)
    assert status == 0 and out["phase"] == "bidding" and out["dealer"] == 0 and len(out["legal"]) == 41


def test_play_refused_in_a_players_words():
    actions = [{"seat": 0, "type": "bid", "value": 80, "suit": "H"}] + [{"seat": s, "type": "pass"} for s in (1, 2, 3)]
    lead = {"seat": 0, "type": "play", "cards": [HANDS[0][0]]}
    wrong = {"seat": 1, "type": "play", "cards": [HANDS[0][1]]}
    status, out = replay_text(record(actions=actions + [lead, wrong]))
    assert status == 1 and out["error"]["message"] == f"you do not hold {HANDS[0][1]}"
    two = {"seat": 1, "type": "play", "cards": HANDS[1][:2]}
    status, out = replay_text(record(actions=actions + [lead, two]))
    assert status == 1 and out["error"]["message"] == "play exactly one card"
