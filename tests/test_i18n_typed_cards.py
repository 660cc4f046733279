"""Cards and bids typed in the player's language are understood, as well as the short form."""

from __future__ import annotations

import pytest

from bot.i18n.typed_cards import bid_to_short_form, to_short_form
from bot.presentation.choices import parse_bid, parse_cards
from tests.botkit.harness import bot_world


@pytest.mark.parametrize(
    ("typed", "lang", "cards"),
    [
        ("VC", "fr", ["JH"]),  # valet de cœur
        ("RP DK 10T", "fr", ["KS", "QD", "10C"]),  # roi de pique, dame de carreau, dix de trèfle
        ("valet de cœur, as de pique", "fr", ["JH", "AS"]),
        ("AC", "fr", ["AH"]),  # French first: as de cœur
        ("AC", "en", ["AC"]),
        ("AS 10H", "fr", ["AS", "10H"]),  # the short form still works where it is not French
        ("V♥", "fr", ["JH"]),
        ("红桃A", "zh", ["AH"]),
        ("红桃A黑桃10 大王 小王", "zh", ["AH", "10S", "RJ", "BJ"]),
        ("梅花J ♦Q", "zh", ["JC", "QD"]),
        ("10H", "zh", ["10H"]),
    ],
)
def test_cards_typed_in_each_language(typed: str, lang: str, cards: list[str]):
    assert parse_cards(to_short_form(typed, lang)) == cards


def test_bids_typed_in_french_and_chinese():
    assert parse_bid(bid_to_short_form("80 cœur", "fr")) == parse_bid("80 H")
    assert parse_bid(bid_to_short_form("tout atout", "fr")) == parse_bid("tout_atout")
    assert parse_bid(bid_to_short_form("capot pique", "fr")) == parse_bid("capot S")
    assert parse_bid(bid_to_short_form("100 红桃", "zh")) == parse_bid("100 H")


async def test_a_french_player_types_vc_and_the_engine_answers_in_french(tmp_path):
    async with bot_world(tmp_path) as world:
        for user in (world.alice, world.bob, world.carol, world.dan):
            user.locale = "fr"
        async with world.running() as client:
            users = [world.alice, world.bob, world.carol, world.dan]
            table = await world.seated_and_started(client, users, "belote")
            mover = next(u for u in users if u.id == table.seats[table.match.to_move].user_id)
            r = await world.slash(mover, "play", {"card": "VC"})
            # the card was read (a jack of hearts), and refused in French: the bidding is on
            assert r.content == "⛔ les enchères ne sont pas finies : passez, enchérissez, contrez ou surcontrez"
            r = await world.slash(mover, "play", {"card": "XY"})
            assert r.content.startswith("⛔ « XY » n'est pas une carte")
            r = await world.slash(mover, "bid", {"value": "80 cœur"})
            assert not r.content.startswith("⛔"), r.content
            bid = table.record.deals[0].actions[-1]
            assert (bid["type"], bid["value"], bid["suit"]) == ("bid", 80, "H")


def test_a_hands_captions_are_what_each_player_types():
    """The caption under each card of a hand picture is the card as the player types it, read back as that card."""
    from render.i18n import card_caption
    from rules.cards import CARD_NAMES

    for lang in ("en", "fr", "zh"):
        for card in CARD_NAMES:
            if card == "?" or card.startswith(("11", "12", "13")):  # the six-player Five Hundred ranks: short form
                continue
            assert parse_cards(to_short_form(card_caption(card, lang), lang)) == [card], (lang, card)
    assert [card_caption(c, "fr") for c in ("JH", "KS", "QD", "10C")] == ["VC", "RP", "DK", "10T"]
    assert [card_caption(c, "zh") for c in ("AH", "10S", "RJ", "BJ")] == ["♥A", "♠10", "大王", "小王"]
