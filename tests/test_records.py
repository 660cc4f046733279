"""Reading, validating and replaying records: docs/records.md, "`cardtable replay`".

Exit 2 "is for the record itself"; "everything wrong with an action's content ... is exit 1 at that action"."""

import copy
import json
import random

import pytest

pytest.importorskip("rules.two_hundred")

from rules.players import RandomPlayer  # noqa: E402
from rules.records import loads, parse_record, replay, replay_text  # noqa: E402
from rules.simulate import recorded_game  # noqa: E402


def simulated_record(seed=1, options=None, max_deals=3):
    record, match = recorded_game("two_hundred", options or {}, random.Random(seed), [RandomPlayer()] * 4, max_deals)
    return record.to_json(), match


def run(obj):
    return replay_text(json.dumps(obj))


def test_a_simulated_record_replays_to_the_same_state():
    rec, match = simulated_record()
    status, out = run(rec)
    assert status == 0
    assert out == json.loads(json.dumps({**match.output(), "error": None}))


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda r: r.update(format="cardtable-record/9"), "format"),
        (lambda r: r.update(game="poker"), "unknown game"),
        (lambda r: r.update(options={"colour": 1}), "unknown option"),
        (lambda r: r.update(options={"target": "x"}), "target"),
        (lambda r: r.update(first_dealer=7), "first_dealer"),
        (lambda r: r.update(deals={}), "'deals' must be a list"),
        (lambda r: r["deals"][0]["hands"][0].__setitem__(0, r["deals"][0]["hands"][1][0]), "more than once"),
        (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "6S"), "not in this game's pack"),
        (lambda r: r["deals"][0]["hands"][0].pop(), "must be dealt 9 cards"),
        (lambda r: r["deals"][0]["hands"][0].__setitem__(0, "XX"), "not a card"),
        (lambda r: r["deals"][0]["actions"].__setitem__(0, "pass"), "JSON object"),
        (lambda r: r["deals"][0]["actions"][0].update(seat="1"), "integer 'seat'"),
        (lambda r: r["deals"][0]["actions"][0].update(type=3), "string 'type'"),
        (lambda r: r["deals"][0].pop("hands"), "no cards"),
        (lambda r: r.update(surprise=True), "unknown top-level"),
    ],
)
def test_malformed_records_exit_2_naming_the_problem(mutate, fragment):
    rec, _ = simulated_record()
    mutate(rec)
    status, out = run(rec)
    assert status == 2
    assert set(out) == {"error"}
    assert fragment in out["error"]["message"]


def test_bad_json_exits_2():
    status, out = replay_text("{not json")
    assert status == 2 and "not valid JSON" in out["error"]["message"]


def test_a_deal_after_an_unfinished_deal_exits_2():
    rec, _ = simulated_record()
    first = rec["deals"][0]
    rec["deals"] = [dict(first, actions=first["actions"][:3]), copy.deepcopy(first)]
    status, out = run(rec)
    assert status == 2 and "unfinished" in out["error"]["message"]


def test_a_deal_after_the_game_ended_exits_2():
    rec, match = simulated_record(seed=3, max_deals=500)
    assert match.phase == "game_over"
    rec["deals"].append(copy.deepcopy(rec["deals"][0]))
    status, out = run(rec)
    assert status == 2 and "after the game ended" in out["error"]["message"]


def first_play_index(deal):
    return next(i for i, a in enumerate(deal["actions"]) if a["type"] == "play")


@pytest.mark.parametrize(
    "bad_action, fragment",
    [
        ({"type": "play", "cards": ["ZZ"]}, "not a card"),
        ({"type": "dance"}, "dance"),
        ({"type": "play", "cards": ["AS"], "colour": "red"}, "unexpected key"),
    ],
)
def test_bad_action_content_exits_1_with_the_state_just_before(bad_action, fragment):
    rec, _ = simulated_record()
    deal = rec["deals"][0]
    i = first_play_index(deal)
    seat = deal["actions"][i]["seat"]
    deal["actions"] = deal["actions"][:i] + [dict(bad_action, seat=seat)]
    rec["deals"] = [deal]
    status, out = run(rec)
    assert status == 1
    assert out["error"]["deal"] == 0 and out["error"]["action"] == i
    assert fragment in out["error"]["message"]
    before = dict(rec, deals=[dict(deal, actions=deal["actions"][:i])])
    _, expected = run(before)
    assert {k: v for k, v in out.items() if k != "error"} == {k: v for k, v in expected.items() if k != "error"}


def test_a_seat_out_of_range_or_out_of_turn_is_exit_1():
    rec, _ = simulated_record()
    deal = rec["deals"][0]
    first = deal["actions"][0]
    for seat, fragment in ((9, "no seat 9"), ((first["seat"] + 1) % 4, "not your turn")):
        rec["deals"] = [dict(deal, actions=[dict(first, seat=seat)])]
        status, out = run(rec)
        assert status == 1 and fragment in out["error"]["message"], out["error"]


def test_an_action_after_its_deal_ended_is_exit_1():
    rec, match = simulated_record(max_deals=1)
    deal = rec["deals"][0]
    deal["actions"].append({"seat": 0, "type": "pass"})
    status, out = run(rec)
    assert status == 1
    assert out["error"]["action"] == len(deal["actions"]) - 1
    assert "over" in out["error"]["message"]


def test_a_seeded_record_deals_from_its_seed_and_is_deterministic():
    rec = {"format": "cardtable-record/1", "game": "two_hundred", "seed": 42, "first_dealer": 0,
           "deals": [{"actions": []}]}  # fmt: skip
    s1, out1 = run(rec)
    s2, out2 = run(rec)
    assert s1 == s2 == 0 and out1 == out2
    assert out1["phase"] == "bidding" and out1["legal"]
    hands = [replay(parse_record(rec)).match.hand(s) for s in range(4)]
    assert sorted(c for h in hands for c in h) == sorted(replay(parse_record(rec)).match.pack())


def test_an_empty_game_is_between_deals():
    status, out = run({"format": "cardtable-record/1", "game": "two_hundred", "deals": []})
    assert status == 0 and out["phase"] == "between_deals" and out["legal"] == []


def test_record_round_trip_through_text():
    rec, _ = simulated_record()
    assert loads(json.dumps(rec)).to_json() == rec
