"""Five Hundred records through `cardtable replay` (docs/records.md): exit 2 for a malformed record or a
wrong pack, exit 1 at an illegal action with the state just before it, and simulated games of every form replaying."""

import json
import random

import pytest

from rules.players import RandomPlayer
from rules.records import replay_text
from rules.simulate import recorded_game

HANDS = [
    ["JK", "7H", "8H", "9H", "10H", "7S", "8S", "9S", "10S", "7C"],
    ["JH", "QH", "KH", "7D", "8D", "9D", "JS", "QS", "KS", "8C"],
    ["JD", "AH", "AS", "10D", "QD", "KD", "AD", "9C", "10C", "JC"],
]
WIDOW = ["QC", "KC", "AC"]


def record(actions=(), options=None, hands=None, kitty=None, **top):
    return {
        "format": "cardtable-record/1",
        "game": "five_hundred",
        "options": options or {},
        "first_dealer": top.pop("first_dealer", 2),
        "deals": [{"hands": hands or HANDS, "kitty": WIDOW if kitty is None else kitty, "actions": list(actions)}],
        **top,
    }


def run(obj):
    return replay_text(json.dumps(obj))


@pytest.mark.parametrize(
    "obj, fragment",
    [
        (record(hands=[HANDS[0][:-1] + ["6C"], HANDS[1], HANDS[2]]), "6C not in this game's pack"),
        (record(hands=HANDS[:2]), "needs 3 hands"),
        (record(kitty=["QC", "KC"]), "kitty must hold 3"),
        (record(options={"players": 8}), "players"),
        (record(options={"six_player_method": 2}), "six players only"),
        (record(options={"colour": "red"}), "unknown option"),
        (record(options={"players": 2}, first_dealer=1), "needs 2 hands"),
    ],
)
def test_malformed_records_exit_2_naming_the_problem(obj, fragment):
    status, out = run(obj)
    assert status == 2 and fragment in out["error"]["message"]


def test_an_illegal_action_exits_1_with_the_state_before_it():
    actions = [
        {"seat": 0, "type": "bid", "value": 6, "suit": "H"},
        {"seat": 1, "type": "pass"},
        {"seat": 2, "type": "pass"},
        {"seat": 0, "type": "discard", "cards": WIDOW},
        {"seat": 0, "type": "play", "cards": ["7H"]},
        {"seat": 1, "type": "play", "cards": ["7D"]},
    ]
    status, out = run(record(actions))
    assert status == 1
    assert out["error"] == {"deal": 0, "action": 5, "message": "you must follow trumps (hearts): you hold J♥, Q♥, K♥"}
    assert out["trick"] == [{"seat": 0, "cards": ["7H"]}] and out["phase"] == "play"


@pytest.mark.parametrize(
    "action, fragment",
    [
        ({"seat": 3, "type": "pass"}, "no seat 3"),
        ({"seat": 0, "type": "draw"}, "bid or pass"),
        ({"seat": 0, "type": "bid", "value": 7, "suit": "NT", "colour": 1}, "unexpected key"),
        ({"seat": 0, "type": "bid", "value": 7, "suit": "X"}, "not a suit"),
    ],
)
def test_wrong_action_content_exits_1(action, fragment):
    status, out = run(record([action]))
    assert status == 1 and fragment in out["error"]["message"]


def test_seeded_record_deals_from_the_seed():
    obj = record([{"seat": 0, "type": "pass"}], seed=42)
    del obj["deals"][0]["hands"], obj["deals"][0]["kitty"]
    status, out = run(obj)
    assert status == 0 and out["phase"] == "bidding" and out["legal"][0]["seat"] == 1


def test_two_player_record_kitty_holds_the_widow_then_the_dead_hand():
    status, out = run(record(options={"players": 2}, hands=HANDS[:2], kitty=WIDOW + HANDS[2], first_dealer=1))
    assert status == 0 and out["widow"] == WIDOW and out["out_of_play"] == HANDS[2]


@pytest.mark.parametrize(
    "options",
    [{}, {"players": 2}, {"players": 2, "two_player_method": 2}, {"players": 4}, {"players": 5}, {"players": 6},
     {"players": 6, "six_player_method": 2}],
)  # fmt: skip
def test_simulated_games_of_every_form_replay_exactly(options):
    players = [RandomPlayer()] * (options.get("players", 3))
    rec, match = recorded_game("five_hundred", options, random.Random(5), players, 4)
    status, out = run(rec.to_json())
    assert status == 0
    assert out == json.loads(json.dumps({**match.output(), "error": None}))
