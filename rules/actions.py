"""Actions as the engines see them, and their JSON form in a game record."""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import CARD_NAMES, parse_card, parse_suit, suit_name
from rules.errors import IllegalAction, RecordError, Unparsable

ACTION_TYPES = (
    "pass", "bid", "keep", "counter", "recounter", "discard", "trump", "call",
    "draw", "expose", "claim_draw", "play",
)  # fmt: skip
_KNOWN_KEYS = {"seat", "type", "value", "suit", "contract", "cards", "card", "announce"}


@dataclass(frozen=True, slots=True)
class Action:
    """One player action.  Cards are card ids, suits are suit indices (``NO_TRUMP`` for NT)."""

    seat: int
    type: str
    value: int | str | None = None
    suit: int | None = None
    contract: str | None = None
    cards: tuple[int, ...] = ()
    card: int | None = None
    announce: str | None = None

    def to_json(self) -> dict:
        out: dict = {"seat": self.seat, "type": self.type}
        if self.value is not None:
            out["value"] = self.value
        if self.suit is not None:
            out["suit"] = suit_name(self.suit)
        if self.contract is not None:
            out["contract"] = self.contract
        if self.type in ("play", "discard"):
            out["cards"] = [CARD_NAMES[c] for c in self.cards]
        if self.card is not None:
            out["card"] = CARD_NAMES[self.card]
        if self.announce is not None:
            out["announce"] = self.announce
        return out


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    """A legal discard, listed once rather than as every combination: choose ``choose`` cards from ``from_cards``."""

    seat: int
    choose: int
    from_cards: tuple[int, ...]
    type: str = "discard"

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "type": "discard",
            "choose": self.choose,
            "from": [CARD_NAMES[c] for c in self.from_cards],
        }


def check_action_shape(obj: object) -> None:
    """An action is malformed for the *record* (exit 2) unless it is an object with an integer seat and string type."""
    if not isinstance(obj, dict):
        raise RecordError(f"an action must be a JSON object, not {type(obj).__name__}")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(f"an action needs an integer 'seat' (got {seat!r})")
    if not isinstance(obj.get("type"), str):
        raise RecordError(f"an action needs a string 'type' (got {obj.get('type')!r})")


def action_from_json(obj: dict, shape_checked: bool = False) -> Action:
    """Parse the content of a well-shaped action; anything wrong with it is an ``IllegalAction`` (exit 1).

    ``shape_checked``: the record reader has already checked the shape (it is a record error, exit 2)."""
    if not shape_checked:
        check_action_shape(obj)
    kind = obj["type"]
    if kind not in ACTION_TYPES:
        raise IllegalAction("'{action}' is not an action of any game here", action=kind)
    unknown = obj.keys() - _KNOWN_KEYS
    if unknown:
        raise IllegalAction("unexpected key(s) {keys} in a '{action}' action", keys=sorted(unknown), action=kind)
    value = obj.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | str)):
        raise IllegalAction("a bid value must be a number, not {value}", value=repr(value))
    try:
        suit = parse_suit(obj["suit"], allow_nt=True) if obj.get("suit") is not None else None
        cards: tuple[int, ...] = ()
        if "cards" in obj:
            raw = obj["cards"]
            if not isinstance(raw, list):
                raise IllegalAction('\'cards\' must be a list of cards like ["AS", "10H"]')
            cards = tuple(parse_card(c) for c in raw)
        card = parse_card(obj["card"]) if obj.get("card") is not None else None
    except Unparsable as e:
        raise IllegalAction(e.msgid, **e.fields) from None
    contract = obj.get("contract")
    if contract is not None and not isinstance(contract, str):
        raise IllegalAction("a contract must be text like 'misere', not {value}", value=repr(contract))
    announce = obj.get("announce")
    if announce is not None and not isinstance(announce, str):
        raise IllegalAction("an announcement must be text like 'belote', not {value}", value=repr(announce))
    if isinstance(value, str):
        value = value.lower()
    return Action(obj["seat"], kind, value, suit, contract, cards, card, announce)
