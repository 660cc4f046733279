"""The two ways a record or a move can be wrong.

``IllegalAction`` is a player's mistake (exit 1 in ``cardtable replay``).  It carries a message id (the English
sentence with ``{fields}``) and the fields' values, so that the bot can say it in each player's language
(bot/i18n/refusals.py) without translating an English sentence after the fact; ``message`` is the English text.
A field that is a game word (a card, some cards, a suit, a number of cards of a suit, a seat) is a ``Term``, which
each language writes its own way.  ``RecordError`` means the record itself is malformed (exit 2); it is for
developers and stays English.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Term:
    """A game word inside a refusal.  ``kind``: "card" (value: its record name, "10H"), "cards" (names), "suit"
    (S H D C, NT or "trump"), "count" (n and a suit letter, "trump", "card" or "other card"), "seat" (a number),
    "action" (an action type: "bid", "discard"), "contract" (a contract: "7S", "10NT", "misere"), "players" (a side's
    seats).
    ``str()`` is its English form."""

    kind: str
    value: Any
    number: int = 2  # how many, for a suit or a count (English: 1 → "heart", else "hearts")
    english: str | None = None  # how a game's English writes it, when not the default ("the Joker")

    def __str__(self) -> str:
        if self.english is not None:
            return self.english
        if self.kind == "card":
            return str(self.value)
        if self.kind == "cards":
            return ", ".join(self.value)
        if self.kind == "cards_spaced":
            return " ".join(self.value)
        if self.kind == "seat":
            return f"seat {self.value}"
        if self.kind == "suit":
            return _suit_english(self.value, self.number)
        if self.kind == "count":
            word = _suit_english(self.value, self.number)
            return f"{self.number} {word}"
        return str(self.value)


_SUIT_PLURALS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no trumps", "trump": "trumps",
                 "card": "cards", "other card": "other cards"}  # fmt: skip


def _suit_english(key: str, number: int) -> str:
    plural = _SUIT_PLURALS.get(key, key)
    return plural[:-1] if number == 1 and key != "NT" else plural


def marked(message: str) -> str:
    """Marks a message id kept in a table (the bot's catalogues pick it up); it is the English text itself."""
    return message


class Words:
    """A sentence a game says (a deal's result in words): a message id with fields like a refusal's, so that the bot
    can say it in each language; ``message`` is the English text."""

    def __init__(self, message: str, /, **fields: Any):
        self.msgid = message
        self.fields = fields
        self.message = message.format(**{k: str(v) for k, v in fields.items()}) if fields else message

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"Words({self.message!r})"


class Unparsable(ValueError):
    """Text that is not a card or a suit (a ``ValueError``), with a message id and fields like a refusal's, which a
    record's action passes on as its ``IllegalAction``."""

    def __init__(self, message: str, /, **fields: Any):
        self.msgid = message
        self.fields = fields
        super().__init__(message.format(**{k: str(v) for k, v in fields.items()}) if fields else message)


class IllegalAction(Exception):
    def __init__(self, message: str, /, **fields: Any):
        self.msgid = message
        self.fields = fields
        self.message = message.format(**{k: str(v) for k, v in fields.items()}) if fields else message
        super().__init__(self.message)


class RecordError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message
