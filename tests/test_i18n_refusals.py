"""The engines refuse with a message id and its fields; the bot says it in each player's language, the game words
(cards, suits, seats) written as that language's players write them.  The English text is unchanged."""

from __future__ import annotations

import pytest

from bot.i18n.refusals import refusal_text
from bot.i18n.terms import card_text
from rules.actions import Action
from rules.cards import parse_card
from rules.errors import IllegalAction, Term
from tests.test_belote_play import position, refusal


def refused(match, card: str) -> IllegalAction:
    refusal(match.clone(), card)  # refused, and nothing changed
    with pytest.raises(IllegalAction) as e:
        match.apply(Action(match.to_move, "play", cards=(parse_card(card),)))
    return e.value


def test_belote_follow_suit_in_three_languages():
    """Belote §5.2: "You must always follow the leading suit if you have cards in it." """
    m = position("H", "KS", "AS 7S JH 9C 8D QD KC 10H")
    e = refused(m, "JH")
    assert e.message == "you must follow suit: you hold spades"
    assert refusal_text(e.msgid, e.fields, "fr") == "vous devez fournir : vous avez des piques"
    assert refusal_text(e.msgid, e.fields, "zh") == "你必须跟同花色：你有黑桃"


def test_belote_overtrump_names_the_cards_in_each_language():
    """Belote §5.2: "If the leading suit is trump, you must play a higher trump card than any already played"."""
    m = position("H", "10H", "AH 9H QH 7H 8C 8D QD KC")
    e = refused(m, "QH")
    assert e.message == "you must play a higher trump than 10H: you hold 9H, AH"
    assert refusal_text(e.msgid, e.fields, "fr") == "vous devez monter sur 10♥ : vous avez 9♥, A♥"
    assert refusal_text(e.msgid, e.fields, "zh") == "你必须出比 红桃10 大的主牌：你有 红桃9、红桃A"


def test_void_must_trump_says_couper():
    """Belote §5.2: void in the suit led, partner not winning: "you must play a trump card if you have one"."""
    m = position("H", "AS", "JH 9C 8D QD KC 10C 7D 8C")
    e = refused(m, "9C")
    assert e.message == "you must trump: you have no spades and your partner is not winning the trick"
    assert refusal_text(e.msgid, e.fields, "fr").startswith("vous devez couper : vous n'avez pas de piques")


def test_seats_become_names_and_nested_reasons_are_translated():
    turn = IllegalAction("it is not your turn: {seat} is to act", seat=Term("seat", 2))
    assert turn.message == "it is not your turn: seat 2 is to act"
    assert refusal_text(turn.msgid, turn.fields, "fr", ["Ann", "Bob", "Chloé", "Dai"]) == (
        "ce n'est pas votre tour : c'est à Chloé de jouer"
    )
    inner = IllegalAction("you must follow with {suit}: you hold {cards}", suit=Term("suit", "H"),
                          cards=Term("cards", ("AH",)))  # fmt: skip
    outer = IllegalAction("{reason} ({card} is a trump, not a {suit})", reason=inner, card=Term("card", "2H"),
                          suit=Term("suit", "H", 1))  # fmt: skip
    assert outer.message == "you must follow with hearts: you hold AH (2H is a trump, not a heart)"
    assert refusal_text(outer.msgid, outer.fields, "zh") == "你必须跟红桃：你有 红桃A（红桃2 是主牌，不是红桃）"


def test_card_words():
    """French R/D/V for K/Q/J; Chinese suit then rank, 大王 the red joker and 小王 the black."""
    assert [card_text(c, "fr") for c in ("KH", "QS", "JD", "AC", "10H")] == ["R♥", "D♠", "V♦", "A♣", "10♥"]
    assert [card_text(c, "zh") for c in ("AH", "10S", "RJ", "BJ")] == ["红桃A", "黑桃10", "大王", "小王"]
    assert card_text("QH", "en") == "Q♥"
