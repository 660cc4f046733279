"""Turning legal actions into buttons and menus, and reading what players type (no Discord needed)."""

from __future__ import annotations

import pytest

from bot.presentation.choices import decode, encode, label, parse_bid, parse_cards, parse_suit, plan
from bot.tables.presets import OptionsError, game_id, parse_options_text, resolve


def test_actions_travel_without_their_seat():
    action = {"seat": 2, "type": "bid", "value": 8, "suit": "H"}
    assert decode(encode(action)) == {"type": "bid", "value": 8, "suit": "H"}
    assert decode("AS") is None and decode("{not json") is None


@pytest.mark.parametrize(
    ("action", "text"),
    [
        ({"type": "bid", "value": 65}, "Bid 65"),
        ({"type": "bid", "value": 8, "suit": "NT"}, "Bid 8 NT"),
        ({"type": "bid", "contract": "open_misere"}, "Bid Open misère"),
        ({"type": "bid", "value": "capot", "suit": "H"}, "Bid Capot ♥"),
        ({"type": "play", "cards": ["10H"]}, "10♥"),
        ({"type": "play", "cards": ["JK"], "suit": "D"}, "Joker (as ♦)"),
        ({"type": "play", "cards": ["KH"], "announce": "belote"}, "K♥ + Belote"),
        ({"type": "trump", "suit": "S"}, "Trump ♠"),
        ({"type": "call"}, "Play alone"),
    ],
)
def test_labels(action, text):
    assert label(action) == text


def test_plan_groups_a_players_choices():
    legal = [
        {"seat": 1, "type": "pass"},
        *({"seat": 1, "type": "bid", "value": v} for v in range(50, 105, 5)),
        {"seat": 0, "type": "pass"},  # someone else's: never offered
    ]
    p = plan(legal, 1, [])
    assert [b["type"] for b in p.buttons] == ["pass"]
    assert len(p.selects) == 1 and len(p.selects[0][1]) == 11


def test_plan_splits_long_bid_lists_and_builds_multi_card_picks():
    bids = [{"seat": 0, "type": "bid", "value": v, "suit": s} for v in range(80, 170, 10) for s in "SHDC"]
    p = plan(bids, 0, [])
    assert [len(opts) for _, opts in p.selects] == [25, 11]
    discard = [{"seat": 0, "type": "discard", "choose": 3, "from": ["AS", "KS", "QS", "JS"]}]
    p = plan(discard, 0, ["AS", "KS", "QS", "JS"])
    assert p.multi == {"type": "discard", "cards": ["AS", "KS", "QS", "JS"], "min": 3, "max": 3,
                       "placeholder": "Choose 3 cards to discard"}  # fmt: skip
    many = [f"{r}{s}" for s in "SHDC" for r in ("2", "3", "4", "5", "6", "7", "8")]
    p = plan([{"seat": 0, "type": "discard", "choose": 6, "from": many}], 0, many)
    assert p.multi is None and "/move discard" in p.note
    lead = [{"seat": 0, "type": "play", "cards": [c]} for c in ["AS", "AS", "KH"]]
    p = plan(lead, 0, ["AS", "AS", "KH"], lead_several=True)
    assert p.multi["min"] == 1 and p.multi["max"] == 3 and p.multi["cards"] == ["AS", "AS", "KH"]


def test_reading_typed_cards_bids_and_suits():
    assert parse_cards("AS 10h, k♥ th jk") == ["AS", "10H", "KH", "10H", "JK"]
    with pytest.raises(ValueError, match="'ZZ' is not a card"):
        parse_cards("AS ZZ")
    assert parse_bid("65") == {"type": "bid", "value": 65}
    assert parse_bid("8 hearts") == {"type": "bid", "value": 8, "suit": "H"}
    assert parse_bid("8nt") == {"type": "bid", "value": 8, "suit": "NT"}
    assert parse_bid("capot ♠") == {"type": "bid", "value": "capot", "suit": "S"}
    assert parse_bid("Misère") == {"type": "bid", "contract": "misere"}
    assert parse_bid("pass") == {"type": "pass"}
    with pytest.raises(ValueError, match="not a bid"):
        parse_bid("lots")
    assert parse_suit("clubs") == "C" and parse_suit("nt") == "NT"


def test_game_choices_presets_and_options_text():
    assert game_id("200") == "two_hundred" and game_id("DaBaiFen") == "da_bai_fen" and game_id("belote") == "belote"
    with pytest.raises(OptionsError, match="Unknown game"):
        game_id("poker")
    assert parse_options_text("kitty=true target=300 name='a b'") == {"kitty": True, "target": 300, "name": "a b"}
    with pytest.raises(OptionsError, match="key=value"):
        parse_options_text("kitty")
    assert resolve("five_hundred", "four-players", "target=300") == ("four-players", {"players": 4, "target": 300})
    with pytest.raises(OptionsError, match="Unknown preset"):
        resolve("belote", "nope", None)
    # Da Bai Fen's levels are text even when typed as numbers
    assert resolve("da_bai_fen", None, "target=7")[1] == {"target": "7"}
