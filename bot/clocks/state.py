"""A table's clock as it stands: the turn whose deadline runs, who nudged, which seats a computer plays and for how
long.  It lives in ``table.extra["clock"]`` (set by ``bot.clocks.service.ClockService``); tables opened before
clocks existed have none."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.tables.guild_settings import ClockChoice

if TYPE_CHECKING:
    from bot.tables.service import Table


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
