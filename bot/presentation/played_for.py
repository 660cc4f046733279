"""Saying that a card was played for its player (their auto-play setting: their only legal card), on the table
message and in their own hand, while that card is still the last move or on the table in the trick."""

from __future__ import annotations

from bot.i18n import _
from bot.presentation.choices import card_label
from bot.tables.service import Table


def _played_for(table: Table, state: dict) -> tuple[int, list[str]] | None:
    """(seat, cards) of the card last played for its player, while it is worth saying."""
    found = table.extra.get("played_for")
    if found is None:
        return None
    version, seat, cards = found
    in_trick = any(p.get("seat") == seat and p.get("cards") == cards for p in state.get("trick") or [])
    return (seat, cards) if table.version == version or in_trick else None


def table_line(table: Table, state: dict) -> str | None:
    """For everyone: "🤖 7♥ was played for alice (her only legal card)."."""
    found = _played_for(table, state)
    if found is None:
        return None
    seat, cards = found
    played = " ".join(map(card_label, cards))
    return "🤖 " + _("{cards} was played for {name} (their only legal card).", cards=played, name=table.names()[seat])


def hand_note(table: Table, seat: int, state: dict) -> str | None:
    """For the player: "🤖 Your only legal card, 7♥, was played for you (auto-play, /player settings)."."""
    found = _played_for(table, state)
    if found is None or found[0] != seat:
        return None
    cards = " ".join(map(card_label, found[1]))
    return "🤖 " + _("Your only legal card, {cards}, was played for you (auto-play: `/player settings`).", cards=cards)
