"""How a table's clock and its idle seats look on the table and lobby messages (text, image label, buttons).

Pure functions of the table: the clock itself lives in ``table.extra["clock"]`` (a ``TableClock``, set by
``bot.clocks.service.ClockService``); tables opened before clocks existed have none and show nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.presentation.components import ComponentId, TableButton
from bot.tables.guild_settings import ClockChoice, clock_text, duration_text

if TYPE_CHECKING:
    from bot.tables.service import Table

CLOCK_VERBS = ("back", "nudge", "offer", "take")


@dataclass
class TableClock:
    choice: ClockChoice
    last_activity: float
    seat: int | None = None  # whose deadline is running
    turn: int | None = None  # the table's version when it started
    deadline: float | None = None
    reminded: bool = False
    nudged_by: set[int] = field(default_factory=set)
    idle_turns: dict[int, int] = field(default_factory=dict)  # seat -> turns in a row played by a stand-in
    open_seats: set[int] = field(default_factory=set)  # offered to a substitute


def clock_of(table: Table) -> TableClock | None:
    return table.extra.get("clock")


def clock_label(table: Table) -> str | None:
    """The short text drawn in the table image's header."""
    clock = clock_of(table)
    if clock is None:
        return None
    return f"{duration_text(clock.choice.seconds)} / turn"


def clock_lines(table: Table) -> list[str]:
    """Lines for the table message: the clock, whose time is running out, who is away."""
    clock = clock_of(table)
    if clock is None:
        return []
    lines = []
    line = f"⏱ Clock: {clock.choice.name}, {clock_text(clock.choice)}"
    if clock.deadline is not None and clock.seat is not None and table.seats.get(clock.seat):
        line += f" · <@{table.seats[clock.seat].user_id}>'s time runs out <t:{int(clock.deadline)}:R>"
    lines.append(line)
    for seat in sorted(table.away):
        row = table.seats.get(seat)
        if row is None:
            continue
        note = "open to a substitute" if seat in clock.open_seats else "press **I'm back** to take it back"
        lines.append(f"🤖 A computer plays for <@{row.user_id}> (seat {seat + 1}): {note}.")
    if table.away and not any(table.stands_in(s) for s in table.away):
        lines.append("⏸️ Everyone is away: the table waits for a player to come back.")
    return lines


def lobby_clock_line(table: Table) -> str | None:
    clock = clock_of(table)
    return None if clock is None else f"Clock: {clock.choice.name} ({clock_text(clock.choice)})"


def clock_buttons(table: Table) -> list[discord.ui.Item]:
    """Extra buttons of the table message: I'm back (when someone is away), Nudge (when a player's time runs)."""
    clock = clock_of(table)
    if clock is None:
        return []
    items: list[discord.ui.Item] = []
    if table.away:
        items.append(TableButton(ComponentId(table.id, "back"), "I'm back", discord.ButtonStyle.success, emoji="🙋"))
    if clock.deadline is not None:
        items.append(TableButton(ComponentId(table.id, "nudge", table.version), "Nudge", emoji="🔔"))
    return items
