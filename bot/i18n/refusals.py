"""A refusal in the player's language: the message id translated first, then its fields written in that language
(cards, suits and seats as ``bot/i18n/terms.py`` writes them; a field may itself be a refusal, a reason with a note)."""

from __future__ import annotations

from typing import Any

from bot.i18n.catalogs import lookup
from bot.i18n.terms import term_text
from rules.errors import IllegalAction, Term, Words

# French sets a space before its semicolon; Chinese uses the full-width one.
SEMICOLON = {"fr": " ; ", "zh": "；"}


def refusal_text(msgid: str, fields: dict[str, Any], lang: str, seat_names: list[str] | None = None) -> str:
    text = lookup(lang, msgid) or msgid
    if not fields:
        return text
    return text.format(**{key: field_text(value, lang, seat_names) for key, value in fields.items()})


def words_text(said: tuple[Words, ...], lang: str, seat_names: list[str] | None = None) -> str:
    """A game's sentences (a deal's explanation) in ``lang``, each language's semicolon between them."""
    return SEMICOLON.get(lang, "; ").join(refusal_text(w.msgid, w.fields, lang, seat_names) for w in said)


def field_text(value: object, lang: str, seat_names: list[str] | None = None) -> str:
    if isinstance(value, Term):
        return term_text(value, lang, seat_names)
    if isinstance(value, IllegalAction | Words):
        return refusal_text(value.msgid, value.fields, lang, seat_names)
    return str(value)
