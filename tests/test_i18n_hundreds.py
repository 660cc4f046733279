"""Two Hundred and Five Hundred in every language: their bidding, kitty (widow) and call refusals and their deals'
explanations are message ids with typed fields, said in French and Chinese by the bot; the English text (what the
record and `cardtable replay` say) is unchanged.  Every refusal an engine raises is a message id the catalogues can
hold, never an English sentence built on the spot."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from bot.i18n.catalogs import lookup
from bot.i18n.refusals import refusal_text, words_text
from rules.errors import IllegalAction
from rules.registry import new_match
from tests.test_five_hundred_helpers import act as act500
from tests.test_five_hundred_helpers import bid as bid500
from tests.test_five_hundred_helpers import new_deal, play
from tests.test_two_hundred_helpers import SUITED
from tests.test_two_hundred_helpers import act as act200
from tests.test_two_hundred_helpers import new_match as new200

NAMES = ["Ann", "Bob", "Chloé", "Dai", "Eve"]


def refused(act, *args, **keys) -> IllegalAction:
    with pytest.raises(IllegalAction) as e:
        act(*args, **keys)
    return e.value


def said(e: IllegalAction, lang: str) -> str:
    return refusal_text(e.msgid, e.fields, lang, NAMES)


# --- Two Hundred ------------------------------------------------------------------------------------------------


def test_two_hundred_bid_refusals_in_three_languages():
    """Two Hundred: "The minimum bid is 50, all bids must be multiples of 5"; each bid "must be higher than the
    previous bid"."""
    m = new200(hands=SUITED)
    e = refused(act200, m, 1, "bid", value=52)
    assert e.message == "a bid must be at least 50 and a multiple of 5 (at most 100); not 52"
    assert said(e, "fr") == "une enchère vaut au moins 50, par multiples de 5 (100 au plus) ; pas 52"
    assert said(e, "zh") == "叫分至少 50，须为 5 的倍数（最多 100）；不能是 52"
    act200(m, 1, "bid", value=60)
    e = refused(act200, m, 2, "bid", value=55)
    assert e.message == "a bid must be higher than the last bid (60)"
    assert said(e, "fr") == "une enchère doit dépasser la précédente (60)"
    assert said(e, "zh") == "叫分必须高于上一个叫分（60）"


def test_two_hundred_keep_and_wrong_action_refusals():
    """Two Hundred variants: "the dealer may 'keep' (equal) the highest bid"; only the dealer may."""
    m = new200({"dealer_keeps": True}, hands=SUITED)
    act200(m, 1, "bid", value=60)
    e = refused(act200, m, 2, "keep")
    assert e.message == "only the dealer may keep the bid"
    assert said(e, "fr") == "seul le donneur peut garder l'enchère"
    e = refused(act200, m, 2, "discard", cards=["AD"])
    assert e.message == "you cannot discard now: the auction is on: bid, pass"
    assert said(e, "fr") == "vous ne pouvez pas écarter maintenant : les enchères sont en cours : enchérissez ou passez"
    assert said(e, "zh") == "现在不能扣底：正在叫牌：请叫牌或不叫"


def kitty_deal(options: dict) -> object:
    """A four-player kitty game where seat 1 wins the auction at 60 and holds the kitty."""
    m = new200({"kitty": True, **options}, dealer=0, seed=3)
    act200(m, 1, "bid", value=60)
    for seat in (2, 3, 0):
        act200(m, seat, "pass")
    return m


def test_two_hundred_kitty_refusals():
    """Two Hundred with a kitty: the contractor "takes the four kitty cards ... and discards four cards"; at a
    table that forbids it, "the discard may not contain aces, tens or fives"."""
    m = kitty_deal({"kitty_discard": "no_points"})
    hand = m.seat_view(1)["hand"]
    e = refused(act200, m, 1, "discard", cards=hand[:3])
    assert e.message == "discard exactly 4 different cards"
    assert said(e, "fr") == "écartez exactement 4 cartes différentes"
    assert said(e, "zh") == "必须正好扣 4 张不同的牌"
    points = [c for c in hand if c[:-1] in ("A", "10", "5")]
    others = [c for c in hand if c not in points]
    e = refused(act200, m, 1, "discard", cards=[points[0], *others[:3]])
    assert e.message == "at this table you may not discard aces, tens or fives"
    assert said(e, "fr") == "à cette table, vous ne pouvez pas écarter d'as, de dix ni de cinq"
    assert said(e, "zh") == "本牌桌不能扣 A、10 或 5"
    e = refused(act200, m, 1, "trump", suit="S")
    assert e.message == "you cannot trump now: take the kitty and discard 4 cards"
    assert said(e, "fr") == "vous ne pouvez pas nommer l'atout maintenant : prenez le talon et écartez 4 cartes"


def test_two_hundred_called_card_refusal_names_the_card_in_each_language():
    """Two Hundred, five players: the contractor "calls a card"; its holder becomes the partner."""
    m = new200({"players": 5}, dealer=0, seed=1)
    act200(m, 1, "bid", value=60)
    for seat in (2, 3, 4, 0):
        act200(m, seat, "pass")
    own = m.seat_view(1)["hand"][0]
    e = refused(act200, m, 1, "call", card=own)
    assert e.message == f"{own} is in your hand"
    rank, suit = own[:-1], own[-1]
    french = {"K": "R", "Q": "D", "J": "V"}.get(rank, rank) + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    assert said(e, "fr") == f"{french} est dans votre main"


def test_two_hundred_explanation_names_the_players_in_french_and_chinese():
    """Two Hundred: "the contractor's team scores the points it took if it made its bid, loses the bid if not; the
    opponents score the points they took"; the record keeps the English roles."""
    m = new_match("two_hundred", {}, 0)
    from rules.ai.players import make_ai_player
    from rules.playing import play_deal

    play_deal(m, [make_ai_player("heuristic") for _ in range(4)], random.Random(1), None)
    (result,), (words,) = m.deal_results, m.explanations
    assert "; ".join(w.message for w in words) == result["explain"]
    assert result["explain"].startswith("contractors took ")
    french, chinese = words_text(words, "fr", NAMES), words_text(words, "zh", NAMES)
    contractors = {0: "Ann & Chloé", 1: "Bob & Dai"}[result["sides"][0][0]]
    assert french.startswith(f"{contractors} (contrat à ") and " points, " in french and " ; " in french
    assert chinese.startswith(f"{contractors}（定约方，叫分 ") and "；" in chinese
    assert "took" not in french + chinese and "contractors" not in french + chinese


# --- Five Hundred -----------------------------------------------------------------------------------------------


def test_five_hundred_bid_not_higher_names_both_contracts():
    """Five Hundred: "each in turn may pass or make a higher bid" (the Avondale table's order)."""
    m = new_deal()
    bid500(m, 0, "7H")
    e = refused(bid500, m, 1, "7S")
    assert e.message == "7♠ (140) is not higher than the bid of 7♥ (200)"
    assert said(e, "fr") == "7♠ (140) ne dépasse pas l'enchère de 7♥ (200)"
    bid500(m, 1, "8NT")
    e = refused(bid500, m, 2, "misere")
    assert e.message == "misère (250) is not higher than the bid of 8NT (320)"
    assert said(e, "fr") == "misère (250) ne dépasse pas l'enchère de 8 SA (320)"
    assert said(e, "zh") == "不赢（250）不高于 8无主（320）的叫牌"
    e = refused(act500, m, 2, "bid", value=11, suit="S")
    assert e.message == "a bid is for 6 to 10 tricks, not 11"
    assert said(e, "fr") == "une enchère porte sur 6 à 10 plis, pas 11"


def test_five_hundred_widow_and_call_refusals():
    """Five Hundred: the soloist "takes up the widow ... then discards any three cards"; five players: "the highest
    bidder may either play alone or call for a partner" by naming a card."""
    m = new_deal(options={"players": 5}, hands={0: "AS KS QS JH 10S"})
    bid500(m, 0, "6S")
    while m.phase == "bidding":
        act500(m, m.to_move, "pass")
    e = refused(act500, m, 0, "play", cards=["AS"])
    assert e.message == "you have taken the widow: discard 3 cards"
    assert said(e, "fr") == "vous avez pris le talon : écartez 3 cartes"
    assert said(e, "zh") == "你已拿起底牌：请扣 3 张"
    widow = list(m.output()["widow"])
    act500(m, 0, "discard", cards=widow)
    spade = next(c for seat in (1, 2, 3, 4) for c in m.seat_view(seat)["hand"] if c.endswith("S") and c[0] not in "JQK")
    e = refused(act500, m, 0, "call", card=spade)
    assert e.message == f"{spade[:-1]}♠ is a trump, and the card called may not be a trump"
    assert said(e, "fr") == f"{spade[:-1]}♠ est un atout, et la carte appelée ne peut pas être un atout"
    e = refused(act500, m, 0, "call", card="JH")
    assert e.message == "you hold J♥ yourself: call a card another player holds"
    assert said(e, "fr") == "vous avez vous-même V♥ : appelez une carte que tient un autre joueur"
    assert said(e, "zh") == "红桃J 在你自己手里：请叫一张别人手里的牌"
    e = refused(act500, m, 0, "call", card=widow[0])
    assert e.message.startswith("you discarded ")
    assert said(e, "fr").startswith("vous avez écarté ")


def test_five_hundred_explanation_in_french_and_chinese():
    """Five Hundred: "If he makes his contract he scores its value ... each opponent scores 10 points per trick
    captured by himself"."""
    m = new_deal(hands={0: "JK JS JC AS KS QS 10S 9S AH 8S"})
    bid500(m, 0, "6S")
    while m.phase == "bidding":
        act500(m, m.to_move, "pass")
    act500(m, 0, "discard", cards=list(m.output()["widow"]))
    rng = random.Random(2)
    while m.phase == "play":
        legal = [a for a in m.legal_json() if a["type"] == "play"]
        play(m, rng.choice(legal)["cards"][0])
    (words,) = m.explanations
    assert "; ".join(w.message for w in words) == m.deal_results[0]["explain"]
    assert m.deal_results[0]["explain"].startswith("seat 0 bid 6♠ (40), took ")
    french = words_text(words, "fr", NAMES)
    assert french.startswith("Ann : contrat 6♠ (40), ") and "plis : réussi" in french
    assert words_text(words, "zh", NAMES).startswith("Ann 叫 6♠（40），赢 ")


# --- every engine -----------------------------------------------------------------------------------------------

RULES = Path(__file__).resolve().parents[1] / "rules"


def test_every_engine_refusal_is_a_message_id():
    """No refusal or deal explanation in rules/ is an English sentence built on the spot (an f-string, a variable):
    each is a literal message id, so the catalogues hold it and the bot can say it in every language."""
    built = []
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("IllegalAction", "Words", "Unparsable") or not node.args:
                continue
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            passed_on = isinstance(first, ast.Attribute) and first.attr == "msgid"  # another refusal's id
            if not (literal or passed_on or isinstance(first, ast.Name | ast.Subscript)):  # or a marked constant
                built.append(f"{path.relative_to(RULES.parent)}:{node.lineno}")
    assert built == []


@pytest.mark.parametrize("game", ["two_hundred", "five_hundred"])
def test_every_explanation_of_a_played_game_is_translated(game):
    """Whole games between computer players: each deal's explanation has French and Chinese words for every
    sentence, and its English is the record's."""
    from rules.ai.players import make_ai_player
    from rules.playing import play_game

    for seed in range(3):
        m = new_match(game, {"players": 4 if game == "two_hundred" else 3})
        play_game(m, [make_ai_player("heuristic") for _ in range(m.players)], random.Random(seed), None, 6)
        assert len(m.explanations) == len(m.deal_results)
        for result, words in zip(m.deal_results, m.explanations, strict=True):
            assert "; ".join(w.message for w in words) == result["explain"]
            for w in words:
                assert lookup("fr", w.msgid) and lookup("zh", w.msgid), w.msgid
