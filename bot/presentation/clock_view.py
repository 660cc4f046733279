"""How a table's clock and its idle seats look on Discord: the table and lobby messages (text, image label,
buttons), the buttons under the clocks' messages and the "since your last move" summary.

Pure functions of the table: the clock itself lives in ``table.extra["clock"]`` (a ``TableClock``, kept by
``bot.clocks.service.ClockService``); tables opened before clocks existed have none and show nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.clocks.output import SeatButton
from bot.clocks.state import TableClock, clock_of
from bot.i18n import _
from bot.presentation.choices import past_tense
from bot.presentation.components import ComponentId, TableButton
from bot.tables.guild_settings import clock_text, duration_text

if TYPE_CHECKING:
    from bot.tables.service import Table

CLOCK_VERBS = ("back", "nudge", "offer", "take")
SUMMARY_LIMIT = 15  # lines of "since your last move"

__all__ = ["CLOCK_VERBS", "TableClock", "clock_of"]  # the clock's state, re-exported for the views' readers


def clock_label(table: Table) -> str | None:
    """The short text drawn in the table image's header."""
    clock = clock_of(table)
    if clock is None:
        return None
    return _("{duration} / turn", duration=duration_text(clock.choice.seconds))


def clock_lines(table: Table) -> list[str]:
    """Lines for the table message: the clock, whose time is running out, who is away."""
    clock = clock_of(table)
    if clock is None:
        return []
    lines = []
    line = "⏱ " + _("Clock: {name}, {per_turn}", name=_(clock.choice.name), per_turn=clock_text(clock.choice))
    if clock.deadline is not None and clock.seat is not None and table.seats.get(clock.seat):
        line += " · " + _("{who}'s time runs out {when}", who=f"<@{table.seats[clock.seat].user_id}>",
                          when=f"<t:{int(clock.deadline)}:R>")  # fmt: skip
    lines.append(line)
    for seat in sorted(table.away):
        row = table.seats.get(seat)
        if row is None:
            continue
        note = _("open to a substitute") if seat in clock.open_seats else _("press **I'm back** to take it back")
        lines.append("🤖 " + _("A computer plays for {who} (seat {n}): {note}.", who=f"<@{row.user_id}>", n=seat + 1,
                               note=note))  # fmt: skip
    if table.away and not any(table.stands_in(s) for s in table.away):
        lines.append("⏸️ " + _("Everyone is away: the table waits for a player to come back."))
    return lines


def lobby_clock_line(table: Table) -> str | None:
    clock = clock_of(table)
    if clock is None:
        return None
    return _("Clock: {name} ({per_turn})", name=_(clock.choice.name), per_turn=clock_text(clock.choice))


def clock_buttons(table: Table) -> list[discord.ui.Item]:
    """Extra buttons of the table message: I'm back (when someone is away), Nudge (when a player's time runs)."""
    clock = clock_of(table)
    if clock is None:
        return []
    items: list[discord.ui.Item] = []
    if table.away:
        items.append(back_button(table))
    if clock.deadline is not None:
        items.append(TableButton(ComponentId(table.id, "nudge", table.version), _("Nudge"), emoji="🔔"))
    return items


def back_button(table: Table) -> TableButton:
    return TableButton(ComponentId(table.id, "back"), _("I'm back"), discord.ButtonStyle.success, emoji="🙋")


def seat_button(table: Table, button: SeatButton) -> TableButton:
    """The button under a clock's message (bot/clocks/output.py names it; this draws it)."""
    if button.verb == "back":
        return back_button(table)
    cid = ComponentId(table.id, button.verb, None, str(button.seat))
    if button.verb == "offer":
        return TableButton(cid, _("Offer seat {n} to a substitute", n=button.seat + 1))
    return TableButton(cid, _("Take seat {n}", n=button.seat + 1), discord.ButtonStyle.success)


def since_last_move(table: Table, seat: int) -> list[str]:
    """What the others did since ``seat`` last acted, newest last, at most ``SUMMARY_LIMIT`` lines."""
    if table.record is None:
        return []
    names = table.names()
    lines: list[str] = []
    for index in range(len(table.record.deals) - 1, -1, -1):
        deal_lines = []
        stop = False
        for action in reversed(table.record.deals[index].actions):
            data = action if isinstance(action, dict) else action.to_json()
            if data.get("seat") == seat:
                stop = True
                break
            who = names[data["seat"]] if data.get("seat") is not None else _("The table")
            deal_lines.append(f"{who} {past_tense(data)}")
        lines = list(reversed(deal_lines)) + lines
        if stop:
            break
        if index > 0:
            lines = ["— " + _("deal {number} began", number=index + 1)] + lines
    if len(lines) > SUMMARY_LIMIT:
        lines = ["… " + _("{count} earlier moves", count=len(lines) - SUMMARY_LIMIT)] + lines[-SUMMARY_LIMIT:]
    return lines
