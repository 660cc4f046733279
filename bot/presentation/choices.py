"""A player's legal actions as things to click: labels, and how they group into buttons and select menus.

Pure functions over the replay output's ``legal`` list (record-style dicts), so they serve every game alike and
are tested without Discord.  An action travels in a component as compact JSON without its seat: the seat is
always the clicking user's own, looked up by the table manager.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import N_, _, current_language
from bot.i18n.terms import card_text

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
SUIT_WORDS = {
    "s": "S", "spade": "S", "spades": "S", "♠": "S",
    "h": "H", "heart": "H", "hearts": "H", "♥": "H",
    "d": "D", "diamond": "D", "diamonds": "D", "♦": "D",
    "c": "C", "club": "C", "clubs": "C", "♣": "C",
    "nt": "NT", "notrump": "NT", "notrumps": "NT", "no-trump": "NT", "no-trumps": "NT", "sans": "NT",
}  # fmt: skip
CONTRACT_WORDS = {
    "misere": "misere", "misère": "misere", "nullo": "misere",
    "open_misere": "open_misere", "open-misere": "open_misere", "openmisere": "open_misere",
    "all_trumps": "all_trumps", "all-trumps": "all_trumps", "tout_atout": "all_trumps",
}  # fmt: skip
JOKER_LABELS = {"JK": N_("Joker"), "BJ": N_("Black joker"), "RJ": N_("Red joker")}
SELECT_LIMIT = 25  # Discord: options per select menu
BUTTON_TYPES = ("pass", "keep", "counter", "recounter", "trump", "draw", "claim_draw", "expose")
TYPE_LABELS = {
    "pass": N_("Pass"),
    "keep": N_("Keep (equal the bid)"),
    "counter": N_("Counter (double)"),
    "recounter": N_("Recounter (×4)"),
    "draw": N_("Draw"),
    "claim_draw": N_("Show my hand: annul the deal"),
}
PAST = {
    "counter": N_("countered (double)"),
    "recounter": N_("recountered (×4)"),
    "keep": N_("kept the contract at the bid"),
    "draw": N_("drew a card"),
    "claim_draw": N_("showed your hand to annul the deal"),
    "undo": N_("took back a card"),
}
# Words the labels take from the actions themselves, marked here for the catalogues.
# (The announcements' words come from each game's registry entry: bot/i18n/tools.py's game_words.)
ACTION_WORDS = (N_("Capot"), N_("All trumps"), N_("Tout atout"), N_("Misère"), N_("Open misère"), N_("misère"),
                N_("open misère"), N_("Nullo"))  # fmt: skip


class Unreadable(ValueError):
    """What a player typed is not a card, bid or suit: a message id (English) and its fields, for bot/i18n."""

    def __init__(self, message: str, /, **fields: Any):
        self.msgid = message
        self.fields = fields
        super().__init__(message.format(**fields) if fields else message)


def encode(action: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in action.items() if k != "seat"}, separators=(",", ":"), ensure_ascii=False)


def decode(text: str) -> dict[str, Any] | None:
    """An encoded action, or None when the text is not one (e.g. free text typed into a slash command)."""
    if not text.startswith("{"):
        return None
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return None
    return value if isinstance(value, dict) and isinstance(value.get("type"), str) else None


def card_label(card: str) -> str:
    """A card on a button or in a message: 10♥ (French: V♥ for the valet; jokers in each language's words)."""
    lang = current_language.get()
    if lang in ("fr", "zh") and (lang == "fr" or card in ("JK", "BJ", "RJ")):
        return card_text(card, lang)
    for suit in ("S", "H", "D", "C"):
        if card.endswith(suit) and len(card) > 1:
            return card[:-1] + SUIT_SYMBOLS[suit]
    return _(JOKER_LABELS[card]) if card in JOKER_LABELS else card


def name_seats(text: str, names: list[str], *, teams: bool = False) -> str:
    """An engine's explanation in players' words: "seat 2" -> the player's name, "team 1" -> "team B" (and "side 1"
    -> "team B", or the player's name in a game of individuals), "10H" -> "10♥"."""

    def seats(m: re.Match) -> str:
        return " & ".join(names[int(n)] if int(n) < len(names) else n for n in re.findall(r"\d+", m.group(1)))

    text = re.sub(r"\bseats? (\d+(?:, \d+)*)", seats, text)
    if not teams:
        text = re.sub(r"\bside (\d+)\b", seats, text)
    text = re.sub(r"\b(?:team|side) (\d)\b", lambda m: f"team {'ABCDEF'[int(m.group(1))]}", text)
    return re.sub(r"\b(?:10|[2-9JQKA])[SHDC]\b|\b(?:JK|BJ|RJ)\b", lambda m: card_label(m[0]), text)


def _bid_words(action: dict[str, Any]) -> str:
    parts = []
    if action.get("contract"):
        parts.append(_(action["contract"].replace("_", " ").replace("misere", "misère").capitalize()))
    if action.get("value") is not None:
        parts.append(_(str(action["value"]).capitalize()))
    if action.get("suit"):
        parts.append(_("NT") if action["suit"] == "NT" else SUIT_SYMBOLS.get(action["suit"], action["suit"]))
    return " ".join(parts)


def label(action: dict[str, Any]) -> str:
    """An action as a button or menu says it, in the language being spoken."""
    kind = action["type"]
    if kind == "bid":
        return _("Bid {what}", what=_bid_words(action))
    if kind == "trump":
        return _("Trump {suit}", suit=_("NT") if action["suit"] == "NT" else SUIT_SYMBOLS.get(action["suit"], ""))
    if kind == "play":
        text = " ".join(card_label(c) for c in action.get("cards", []))
        if action.get("suit"):
            text += " " + _("(as {suit})", suit=SUIT_SYMBOLS.get(action["suit"], action["suit"]))
        if action.get("announce"):
            text += f" + {_(action['announce'].capitalize())}"
        return text
    if kind == "expose":
        return _("Expose {card}", card=card_label(action["card"]))
    if kind == "call":
        if action.get("contract"):
            return _("Announce {contract}", contract=_(action["contract"].replace("_", " ")))
        return _("Call {card}", card=card_label(action["card"])) if action.get("card") else _("Play alone")
    if kind == "discard":
        return _("Discard {cards}", cards=" ".join(card_label(c) for c in action.get("cards", [])))
    return _(TYPE_LABELS[kind]) if kind in TYPE_LABELS else kind.replace("_", " ").capitalize()


def past_tense(action: dict[str, Any]) -> str:
    """What a player did, for the others ("Ann played 10♥"), in the language being spoken."""
    kind = action["type"]
    if kind == "play":
        return _("played {what}", what=label(action))
    if kind == "pass":
        return _("passed")
    if kind == "trump":
        suit = str(action.get("suit"))
        return _("named no trumps") if suit == "NT" else _("named {suit} trumps", suit=SUIT_SYMBOLS.get(suit, suit))
    if kind in PAST:
        return _(PAST[kind])
    if kind == "bid":
        return _("bid {what}", what=_bid_words(action))
    if kind == "expose":
        return _("exposed {card}", card=card_label(action["card"]))
    if kind == "discard":
        return _("discarded {cards}", cards=" ".join(card_label(c) for c in action.get("cards", [])))
    if kind == "call":
        if action.get("contract"):
            return _("announced {contract}", contract=_(action["contract"].replace("_", " ")))
        return _("called {card}", card=card_label(action["card"])) if action.get("card") else _("play alone")
    return label(action).lower()


@dataclass
class Plan:
    """What to offer a player now: buttons, single-choice selects, and a multi-card pick."""

    buttons: list[dict] = field(default_factory=list)
    selects: list[tuple[str, list[dict]]] = field(default_factory=list)  # (placeholder, actions)
    multi: dict | None = None  # {"type", "cards", "min", "max", "placeholder"}
    note: str = ""  # a choice that only a slash command can make


def plan(
    legal: list[dict],
    seat: int,
    hand: list[str],
    *,
    lead_several: bool = False,
    announcements: Mapping[str, str] | None = None,
) -> Plan:
    """``lead_several``: the seat may lead several cards at once (``Match.seat_view``), so it picks cards freely.
    ``announcements``: what each announcement a card may be played with is worth (the game's ``GameType``)."""
    mine = [a for a in legal if a.get("seat") == seat]
    result = Plan()
    bids, plays, others = [], [], []
    for a in mine:
        if a["type"] in BUTTON_TYPES:
            result.buttons.append(a)
        elif a["type"] == "bid":
            bids.append(a)
        elif a["type"] == "play":
            plays.append(a)
        elif a["type"] == "discard" and len(a["from"]) > SELECT_LIMIT:
            result.note = f"Too many cards for a menu: discard with `/move discard cards:` ({a['choose']} cards)."
        elif a["type"] == "discard":
            choose = a["choose"]
            result.multi = {
                "type": "discard",
                "cards": a["from"],
                "min": choose,
                "max": choose,
                "placeholder": (
                    _("Choose {count} cards to discard", count=choose) if choose > 1 else _("Choose a card to discard")
                ),
            }
        else:
            others.append(a)
    for start in range(0, len(bids), SELECT_LIMIT):
        result.selects.append((_("Choose your bid"), bids[start : start + SELECT_LIMIT]))
    calls = [a for a in others if a["type"] == "call"]  # Five Hundred's called partner: often more than 25 cards
    others = [a for a in others if a["type"] != "call"]
    for start in range(0, len(calls), SELECT_LIMIT):
        chunk = calls[start : start + SELECT_LIMIT]
        cards = [card_label(a["card"]) for a in chunk if a.get("card")]
        span = f" ({cards[0]} … {cards[-1]})" if len(calls) > SELECT_LIMIT and cards else ""
        result.selects.append((_("Call a partner's card, or play alone") + span, chunk))
    if others:
        result.selects.append((_("Choose"), others[:SELECT_LIMIT]))
    announced = next((a["announce"] for a in plays if a.get("announce")), None)
    if announced:  # the same card offered with and without it: say that the plain one gives the announcement up
        worth = (announcements or {}).get(announced)
        result.note = (
            f"You hold the {announced}: pick a card marked '+ {announced.capitalize()}' to announce it"
            + (f" ({worth})" if worth else "")
            + ", or it is lost."
        )
    if plays and any(a["type"] == "trump" for a in result.buttons):
        # Two Hundred: "If the contractor fails to announce a trump suit before leading to the first trick, the suit
        # of the first card played by the contractor automatically becomes trump"
        result.note = "Name trump with a button, or lead a card: its suit becomes trump."
    if plays:
        sizes = {len(a["cards"]) for a in plays}
        if sizes == {1} and not lead_several:
            for start in range(0, len(plays), SELECT_LIMIT):
                result.selects.append((_("Play a card"), plays[start : start + SELECT_LIMIT]))
        else:
            # Several cards at once: a lead of one or more cards, or following a multi-card lead.
            order = {c: i for i, c in enumerate(hand)}
            cards = sorted({c for a in plays for c in a["cards"]}, key=lambda c: order.get(c, len(order)))
            if lead_several:
                cards = list(hand)
                low, high = 1, min(len(cards), SELECT_LIMIT)
            else:
                low = high = max(sizes)
            result.multi = {
                "type": "play",
                "cards": cards[:SELECT_LIMIT],
                "min": low,
                "max": high,
                "placeholder": _("Play one card, or several of one suit")
                if lead_several
                else _("Play {count} cards", count=high),
            }
    return result


# --- reading what a player typed ------------------------------------------------------------------------------

_CARD = re.compile(r"^(10|[2-9tjqka]|1[123])([shdc])$|^(jk|bj|rj)$", re.IGNORECASE)
_SYMBOL_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def parse_cards(text: str) -> list[str]:
    """``"AS 10h, K♥"`` → ``["AS", "10H", "KH"]``; ``ValueError`` naming the word that is not a card."""
    cards = []
    for word in re.split(r"[\s,;]+", text.strip()):
        if not word:
            continue
        w = word
        for symbol, letter in _SYMBOL_SUITS.items():
            w = w.replace(symbol, letter)
        if not _CARD.match(w):
            raise Unreadable("'{word}' is not a card: write rank then suit, like AS, 10H, 7C or JK", word=word)
        cards.append(w.upper().replace("T", "10") if w[0] in "tT" else w.upper())
    if not cards:
        raise Unreadable("name at least one card, like AS or 10H")
    return cards


def parse_bid(text: str) -> dict[str, Any]:
    """``"55"``, ``"8 hearts"``, ``"8H"``, ``"100 ♠"``, ``"capot S"``, ``"misere"`` → a bid action."""
    raw = text.strip().lower()
    if raw in ("pass", "p"):
        return {"type": "pass"}
    compact = raw.replace(" ", "")
    if compact in CONTRACT_WORDS:
        return {"type": "bid", "contract": CONTRACT_WORDS[compact]}
    m = re.fullmatch(r"(\d+|capot)\s*([a-z♠♥♦♣\-]*)", raw)
    if not m:
        raise Unreadable("'{text}' is not a bid: write a number and, where the game asks, a suit (like 8H)", text=text)
    value: int | str = int(m.group(1)) if m.group(1).isdigit() else m.group(1)
    bid: dict[str, Any] = {"type": "bid", "value": value}
    if m.group(2):
        suit = SUIT_WORDS.get(m.group(2))
        if suit is None:
            raise Unreadable("'{text}' is not a suit: use S, H, D, C or NT", text=m.group(2))
        bid["suit"] = suit
    return bid


def parse_suit(text: str) -> str:
    suit = SUIT_WORDS.get(text.strip().lower()) or (text.strip().upper() if text.strip().upper() in "SHDC" else None)
    if not suit:
        raise Unreadable("'{text}' is not a suit: use S, H, D, C or NT", text=text)
    return suit
