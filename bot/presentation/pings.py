"""Turn pings: when a human's turn comes, one message that Discord notifies them of.

Editing the table message to name the player to move notifies nobody (Discord never notifies an edit), so a turn
that passes to a human gets its own new message: a mention in the table's channel (allowed to mention that player
only), or a DM, as the player chose with ``/player settings`` (the default follows the table's clock: a live or
casual table is being watched, an asynchronous one is not, so it pings by DM).  Each table has at most one pending
ping: sending the next one deletes the previous one, and the game's end or the table's closing deletes the last.

No ping when the same player keeps the turn after acting (they won the trick and lead: they are looking), for
computer seats, seats a computer stands in for, a draw that happens by itself, or a forced card the bot plays for
its player; and none when the turn is already over by the time the ping would go out.  The clocks' reminders
(bot/clocks) are a later, second notification and stay as they are.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import discord

from bot.clocks.state import clock_of
from bot.i18n import _, speaking
from bot.presentation.budget import DELETE, PING, ChannelBudget
from bot.presentation.language import seat_language
from bot.presentation.live_hands import where as where_played
from bot.presentation.messages import DM_CLOSED, game_name
from bot.storage.store import PLAYING
from bot.tables.service import Outcome, Table, TableManager
from bot.tables.urgency import start_later
from rules.game import BETWEEN_DEALS, GAME_OVER

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


@dataclass
class PingState:
    """A table's turn as the pings saw it, in ``table.extra["turn_ping"]``."""

    to_move: int | None = None  # the seat to move after the last event
    turn: int = 0  # counts turns: a ping for an earlier one is not sent
    pending: tuple[int, int] | None = None  # (channel id, message id) of the ping not yet deleted


def ping_mode(table: Table, user_id: int, manager: TableManager) -> str:
    """channel, dm or off: the player's choice, else the clock's default (an asynchronous table pings by DM)."""
    chosen = manager.settings_of(user_id).turn_ping
    if chosen is not None:
        return chosen
    clock = clock_of(table)
    return "dm" if clock is not None and clock.choice.is_async else "channel"


class TurnPings:
    def __init__(self, bot: discord.Client, budget: ChannelBudget):
        self.bot = bot
        self.budget = budget
        self.manager: TableManager | None = None
        self._deletions: set[asyncio.Task] = set()

    @staticmethod
    def _state(table: Table) -> PingState:
        state = table.extra.get("turn_ping")
        if state is None:
            state = table.extra["turn_ping"] = PingState()
        return state

    def turn_changed(self, table: Table, outcome: Outcome | None) -> Job | None:
        """Called for each event of the table, in order (``outcome`` None: the game started); the ping to send
        behind the table's other output, if the event gave a human the turn."""
        state = self._state(table)
        match = table.match
        seat = match.to_move if match is not None and match.phase not in (BETWEEN_DEALS, GAME_OVER) else None
        previous, state.to_move = state.to_move, seat
        acted = outcome.action.seat if outcome is not None else None
        if seat != previous or acted == previous:
            state.turn += 1  # the turn passed, or its owner used it
        if seat is None or not self._is_due(table, seat):
            return None
        if seat == previous and (acted != seat or not (outcome and outcome.by_computer)):
            return None  # they acted and keep the turn, or someone acted out of turn: the turn is not new
        turn = state.turn
        return lambda: self._send(table, seat, turn)

    def _is_due(self, table: Table, seat: int) -> bool:
        """A human's own turn, that they must play themselves."""
        assert self.manager is not None
        row = table.seats.get(seat)
        if row is None or row.user_id is None or seat in table.away:
            return False
        return not self.manager.plays_itself(table) and ping_mode(table, row.user_id, self.manager) != "off"

    async def _send(self, table: Table, seat: int, turn: int) -> None:
        state = self._state(table)
        match = table.match
        if state.turn != turn or table.status != PLAYING or match is None or match.to_move != seat:
            return  # that turn is over already: no ping for it
        assert self.manager is not None
        row = table.seats[seat]
        assert row.user_id is not None
        link = self._jump_url(table)
        with speaking(seat_language(table, seat)):  # the player's own language, as their hand
            where = _("table #{table} ({game})", table=table.id, game=game_name(table.game))
            in_dm = _("Your turn at {where} in {place}: {link}", where=where, place=where_played(table), link=link)
            in_channel = _("{who}, your turn at {where}: {link}", who=f"<@{row.user_id}>", where=where, link=link)
        message = None
        clock = clock_of(table)
        if ping_mode(table, row.user_id, self.manager) == "dm" and not row.dm_closed:
            if clock is not None and clock.choice.is_async:
                return  # the clock's turn summary is that DM already (bot/clocks): one notification, not two
            with self.budget.priority(PING):
                message = await self._dm(table, seat, f"🔔 {in_dm}")
        if message is None:  # a channel ping, or closed DMs: the channel instead
            with self.budget.priority(PING):
                message = await self._channel(table).send(
                    f"🔔 {in_channel}",
                    allowed_mentions=discord.AllowedMentions(
                        everyone=False, roles=False, users=[discord.Object(row.user_id)]
                    ),
                )
        old, state.pending = state.pending, (message.channel.id, message.id)
        if old is not None:
            self._delete_later(old)

    def withdraw(self, table: Table) -> Job:
        """The game is over or the table closed: its last ping goes."""

        async def withdraw() -> None:
            state = self._state(table)
            state.turn += 1
            if state.pending is not None:
                pending, state.pending = state.pending, None
                self._delete_later(pending)

        return withdraw

    async def _dm(self, table: Table, seat: int, text: str) -> discord.Message | None:
        assert self.manager is not None
        user_id = table.seats[seat].user_id
        assert user_id is not None  # pings go to human seats only (_is_due)
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            return await channel.send(text)
        except discord.Forbidden as e:
            if e.code != DM_CLOSED:
                raise
            await self.manager.mark_dm_closed(table, seat)  # remembered: not tried again
            return None

    def _delete_later(self, where: tuple[int, int]) -> None:
        """Deleting an answered ping may wait: it goes after anything else waiting for the channel."""

        async def delete() -> None:
            with self.budget.priority(DELETE):
                try:
                    await self.bot.http.delete_message(*where)
                except discord.NotFound:
                    pass  # deleted already (by a moderator, say)
                except discord.HTTPException as failure:  # discord.py's retries spent: one line, it may stay
                    log.warning("could not delete the turn ping %s: %s", where, failure)

        task = start_later(delete(), name=f"delete-ping-{where[1]}")
        self._deletions.add(task)
        task.add_done_callback(self._deletions.discard)

    async def drain(self) -> None:
        while self._deletions:
            await asyncio.gather(*list(self._deletions), return_exceptions=True)

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)

    def _jump_url(self, table: Table) -> str:
        if table.row.message_id is None:
            return self._channel(table).jump_url
        return self._channel(table).get_partial_message(table.row.message_id).jump_url
