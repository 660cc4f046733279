"""What the clocks need from Discord, and nothing more: ``ClockService`` decides what to say and when, and an
implementation of ``ClockOutput`` says it (``bot.presentation.presenter.Presenter``; tests may pass a double)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from bot.tables.service import Table


# What the clocks say is written where its reader's language is known: a table's message in the table's output queue,
# a player's reminder in their own language.  So they pass the writing of it, not the text.
Written = Callable[[], str]  # a text written in the language being spoken when it is called
Composed = Callable[[], Awaitable[str | None]]  # the same, called in the table's output queue


@dataclass(frozen=True)
class SeatButton:
    """The one button under a clock's message: I'm back (an away player), offer the seat, take the offered seat."""

    verb: Literal["back", "offer", "take"]
    seat: int


class ClockOutput(Protocol):
    def refresh(self, table: Table) -> None:
        """Show the table (its clock line and buttons) as it is when the table message is next edited."""

    async def post(self, table: Table, text: str | Composed, *, button: SeatButton | None = None) -> None:
        """Post in the table's channel after what is already queued for the table; return once it is sent."""

    async def remind(self, table: Table, seat: int, text: Written, *, prefix: str, by_dm: bool) -> None:
        """A word for the player of ``seat``, written in their language: by DM when ``by_dm`` and their DMs are open
        (else, and when the DM turns out closed, a mention in the table's channel)."""

    async def send_turn_summary(self, table: Table, seat: int) -> None:
        """An asynchronous game's "your turn" DM, with what happened since the player's last move."""

    async def send_hand_dm(self, table: Table, seat: int) -> bool:
        """The seat's hand by DM (a substitute's first look at it)."""

    async def show_lobby(self, table: Table) -> None:
        """Edit the lobby message to show the lobby as it is now (closed, say)."""
