"""What the players see: the lobby message, the table message, private hands, deal results and the score sheet.

The presenter listens to the table events (``on_table_acted`` and the rest, registered with the bot by the client
before any cog, so that a table's own output is queued before anything a cog or the clocks add).  Everything it
sends for one table goes through that table's queue, in order, by one worker: updates of the table message are
coalesced (several moves between two edits make one edit), so a fast game costs few API calls and one slow table
never holds up another.  The players' live hands have a queue of their own beside it: a table edit waiting for its
interval or for its picture (drawn after the pictures that answer players) never holds back a player's hand.
It is also the clocks' way to Discord (``ClockOutput``, bot/clocks/output.py), and cogs post their own notices
about a table with ``post``, behind what is already queued for it.
"""

from __future__ import annotations

import asyncio
import collections
import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
import discord
from discord.http import handle_message_parameters

from bot.clocks.output import SeatButton, Written
from bot.clocks.service import where
from bot.clocks.state import clock_of
from bot.i18n import DEFAULT, _, current_language, speaking
from bot.i18n.refusals import words_text
from bot.presentation import images
from bot.presentation.budget import EDIT, ChannelBudget
from bot.presentation.choices import name_seats, past_tense
from bot.presentation.clock_view import seat_button, since_last_move
from bot.presentation.components import view_of
from bot.presentation.history import review_view
from bot.presentation.language import seat_language, table_language_of
from bot.presentation.live_hands import LiveHands
from bot.presentation.messages import (  # re-exported: cogs build messages here too
    DM_CLOSED,
    game_name,
    lobby_content,
    lobby_view,
    score_change_text,
    scores_text,
    table_content,
    table_file,
    table_picture_key,
    table_state,
    table_view,
    winner_text,
)
from bot.presentation.pings import TurnPings
from bot.presentation.result_words import result_in_words
from bot.presentation.seat_views import public_view
from bot.presentation.shutdown import report_failure
from bot.storage.store import CANCELLED, FINISHED, LOBBY, PLAYING
from bot.tables.guild_settings import duration_text
from bot.tables.placement import Placement
from bot.tables.service import Outcome, Table, TableManager
from bot.tables.urgency import ahead_if, start_later, start_now
from rules import registry
from rules.events import DealScored
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY

log = logging.getLogger(__name__)


# --- the listener ---------------------------------------------------------------------------------------------

Job = Callable[[], Awaitable[None]]
Compose = Callable[[], Awaitable[str | None]]  # a message worked out when its turn comes (None: nothing to say)
REFRESH = object()  # queue marker: edit the table message with the state as it is when the edit is made


@dataclass(frozen=True)
class NewTableMessage:
    """Queue job: a new table message (a new deal), showing the state as it is then; the old message is left showing
    ``deal_end``, the public view as the deal it showed ended (``DealScored.table``), when known."""

    deal_end: dict | None = None


NEW_TABLE_MESSAGE = NewTableMessage()
HANDS = object()  # queue marker: bring the players' live hands up to date with the state as it is then
SHOWN_PICTURE = "table_picture"  # table.extra: (message id, picture key) of the table message's picture
# Seconds a move may wait for the table message to show it before that edit goes ahead of the other work that may
# wait (still after the players' answers: bot/process/lanes.py).
LATE_EDIT = 2.0


@dataclass
class TableOutput:
    """One table's pending output, run in order by one worker."""

    jobs: collections.deque = field(default_factory=collections.deque)
    worker: asyncio.Task | None = None
    hand_jobs: collections.deque = field(default_factory=collections.deque)  # the live hands' own queue
    hand_worker: asyncio.Task | None = None
    hands_for: int = -1  # the deal whose live hands were started
    last_edit: float = float("-inf")  # loop time of the last table-message edit
    hold_check: asyncio.TimerHandle | None = None  # an edit held back is made by this time at the latest
    unshown_since: float = float("inf")  # loop time of the first move the table message does not show yet


class Presenter:
    def __init__(
        self,
        bot: discord.Client,
        *,
        edit_interval: float = 1.0,
        hold_limit: float = 0.0,
        channel_requests: int = 5,
        channel_window: float = 5.0,
        global_requests: int = 45,
        global_window: float = 1.0,
    ):
        self.bot = bot
        self.live = LiveHands(bot)  # each seated player's hand message, kept current
        # Every request to a channel waits for room in its budget, whoever sends it (bot/presentation/budget.py).
        self.budget = ChannelBudget(
            channel_requests, channel_window, global_requests=global_requests, global_window=global_window
        )
        self.budget.install(bot.http)
        self.pings = TurnPings(bot, self.budget)
        self._manager: TableManager | None = None
        self.placement = Placement()  # which tables' own output is this process's (bot/tables/placement.py)
        # At most one edit of a table's message per interval: moves made meanwhile show in the next edit.  Discord
        # limits edits per channel anyway, and several tables share a channel.
        self.edit_interval = edit_interval
        # Cards the computers play in a row join one edit, for at most this long (0: every move its own edit).
        self.hold_limit = hold_limit
        self._workers: set[asyncio.Task] = set()  # every table's, ended tables' included (drain_all)
        self._held: dict[int, Table] = {}  # tables whose table-message edit is held (_in_passing)

    @property
    def manager(self) -> TableManager | None:
        return self._manager

    @manager.setter
    def manager(self, manager: TableManager | None) -> None:  # set once the manager exists
        self._manager = self.live.manager = self.pings.manager = manager

    # --- the queue ---------------------------------------------------------------------------------------

    def _output(self, table: Table) -> TableOutput:
        out = table.extra.get("output")
        if out is None:
            out = table.extra["output"] = TableOutput()
        return out

    def _queue(self, table: Table, job: Job | object) -> None:
        out = self._output(table)
        if job is REFRESH or isinstance(job, NewTableMessage):
            out.unshown_since = min(out.unshown_since, asyncio.get_running_loop().time())
        if job is REFRESH and any(j is REFRESH or isinstance(j, NewTableMessage) for j in out.jobs):
            return  # coalesced: a pending edit (or new message) shows the table as it is then, so this change too
        out.jobs.append(job)
        if out.worker is None or out.worker.done():  # may wait: the answers to players' taps go first (urgency.py)
            out.worker = self._start(self._work(table, out, out.jobs), f"output-{table.id}", later=True)

    def _queue_hand(self, table: Table, job: Job | object) -> None:
        out = self._output(table)
        if job is HANDS and HANDS in out.hand_jobs:
            return  # coalesced: a pending refresh shows the hands as they are then
        out.hand_jobs.append(job)
        if out.hand_worker is None or out.hand_worker.done():
            out.hand_worker = self._start(self._work(table, out, out.hand_jobs), f"hands-{table.id}")

    def _start(self, work: Awaitable[None], name: str, *, later: bool = False) -> asyncio.Task:
        worker = (start_later if later else start_now)(work, name=name)  # type: ignore[arg-type]
        self._workers.add(worker)
        worker.add_done_callback(self._workers.discard)
        return worker

    async def _work(self, table: Table, out: TableOutput, jobs: collections.deque) -> None:
        current_language.set(table_language_of(table))  # this worker task's own context: the table's language
        while jobs:
            job = jobs.popleft()
            try:
                if job is REFRESH:
                    wait = out.last_edit + self.edit_interval - asyncio.get_running_loop().time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    await self.budget.room(table.row.channel_id)  # a busy channel: later moves join this edit
                    while jobs and jobs[0] is REFRESH:  # asked again while waiting: one edit does
                        jobs.popleft()
                    if self._in_passing(table, out):
                        continue
                    out.last_edit = asyncio.get_running_loop().time()
                    if out.hold_check is not None:  # this edit shows what was held
                        out.hold_check.cancel()
                        out.hold_check = None
                        self._held.pop(table.id, None)
                    late = out.last_edit - out.unshown_since >= LATE_EDIT
                    out.unshown_since = float("inf")  # this edit shows every move until now
                    with self.budget.priority(EDIT), ahead_if(late):  # after pings, live hands and new messages
                        await self._edit_table_message(table)
                elif isinstance(job, NewTableMessage):
                    out.unshown_since = float("inf")
                    await self._post_table_message(table, job.deal_end)
                elif job is HANDS:
                    await self.live.refresh(table)
                else:
                    await job()  # type: ignore[operator]
            except (discord.HTTPException, aiohttp.ClientError, OSError) as failure:
                # Discord refused or the connection failed after discord.py's retries: one line, and the next
                # change of the table tries again.
                log.warning("table %d: could not update Discord: %r", table.id, failure)
            except Exception:
                report_failure(self.bot, log, "table %d: could not update Discord", table.id)

    def _in_passing(self, table: Table, out: TableOutput) -> bool:
        """Whether this edit may be left out: a computer (or the bot for a player) is about to add a card to the
        trick in progress, and the edit after that card will show both.  Each human sees the trick in their own hand
        message when their turn comes, so the table's picture is drawn for the moments people look at it — a
        human's turn, a finished trick — rather than for every card.  Never for long: an edit older than
        ``hold_limit`` is made anyway, and a check is set for that time in case the move never comes."""
        if self.hold_limit <= 0 or self.manager is None or table.match is None or table.status != PLAYING:
            return False
        match = table.match
        if match.phase != PLAY or not public_view(table).get("trick") or not self.manager.plays_itself(table):
            return False
        loop = asyncio.get_running_loop()
        if loop.time() - out.last_edit >= self.hold_limit:
            return False
        if out.hold_check is None:
            out.hold_check = loop.call_later(out.last_edit + self.hold_limit - loop.time(), self._hold_over, table)
            self._held[table.id] = table
        return True

    def _hold_over(self, table: Table) -> None:
        """The held edit is due (or the bot is closing): make it, whatever comes next."""
        out = self._output(table)
        if out.hold_check is not None:
            out.hold_check.cancel()
            out.hold_check = None
        self._held.pop(table.id, None)
        out.last_edit = float("-inf")  # an edit this old is never held
        self._queue(table, REFRESH)

    async def drain(self, table: Table) -> None:
        """Wait until everything queued for the table was sent (tests, shut-down)."""
        out = self._output(table)
        while any(w is not None and not w.done() for w in (out.worker, out.hand_worker)):
            await asyncio.gather(*(asyncio.shield(w) for w in (out.worker, out.hand_worker) if w is not None))

    async def drain_all(self) -> None:
        """Wait until every table's queued output was sent, ended tables' too (tests, shut-down); held edits are
        made now."""
        for table in list(self._held.values()):
            self._hold_over(table)
        while self._workers:
            await asyncio.gather(*(asyncio.shield(w) for w in list(self._workers)), return_exceptions=True)
        await self.pings.drain()

    # --- table events (discord.py listeners, registered by the client) ------------------------------------
    # Each queues at once, before its first await: the order of a table's output is the order of its events.

    async def on_table_game_started(self, table: Table) -> None:
        """The cog turns the lobby message into the table message; hands follow by DM.  (Lobby changes come
        from clicks on the lobby message, which the cog answers by editing it: no listener.)"""
        self._queue_hands(table)
        self._queue_turn_ping(table, None)

    async def on_table_acted(self, table: Table, outcome: Outcome) -> None:
        if not self.placement.owns(table):
            return  # another process shows it once it has caught up (``on_table_caught_up``); the cog answered
        match = table.match
        assert match is not None
        for deal_index in outcome.deals_finished:
            self._queue(table, lambda d=deal_index: self._post_deal_result(table, d))
        if outcome.game_over:
            self._queue(table, REFRESH)
            self._queue(table, lambda: self._post_score_sheet(table))
            self._queue_hand(table, HANDS)
            self._queue(table, self.pings.withdraw(table))
            return
        if outcome.new_deal:
            ended = [e.table for e in outcome.events if isinstance(e, DealScored)]
            self._queue(table, NewTableMessage(ended[-1] if ended else None))
        else:
            self._queue(table, REFRESH)
        self._queue_hands(table)
        self._queue_turn_ping(table, outcome)

    async def on_table_caught_up(self, table: Table, outcome: Outcome) -> None:
        """Moves another process applied to a table this process owns: shown here, as this process's own."""
        await self.on_table_acted(table, outcome)

    async def on_table_closed(self, table: Table) -> None:
        if table.status == CANCELLED and table.match is not None:
            self._queue(table, REFRESH)
        self._queue(table, self.pings.withdraw(table))

    def _queue_turn_ping(self, table: Table, outcome: Outcome | None) -> None:
        """A human's turn came: their ping goes behind the table message that shows it (bot/presentation/pings.py)."""
        ping = self.pings.turn_changed(table, outcome)
        if ping is not None:
            self._queue(table, ping)

    # --- what the clocks and the cogs say (ClockOutput) ---------------------------------------------------

    def refresh(self, table: Table) -> None:
        self._queue(table, REFRESH)

    async def post(self, table: Table, text: str | Compose, *, button: SeatButton | None = None) -> None:
        """Post in the table's channel behind what is already queued for the table (a deal's result before the
        notice about it); returns once it is sent, or failed (the worker logs it)."""
        sent = asyncio.get_running_loop().create_future()

        async def send() -> None:
            try:
                content = text if isinstance(text, str) else await text()
                if content:
                    kwargs = {"view": view_of(seat_button(table, button))} if button else {}
                    await self._channel(table).send(content[:2000], **kwargs)
            finally:
                sent.set_result(None)

        self._queue(table, send)
        await sent

    async def remind(self, table: Table, seat: int, text: Written, *, prefix: str, by_dm: bool) -> None:
        row = table.seats[seat]
        assert row.user_id is not None  # the clocks remind players, never computers
        with speaking(seat_language(table, seat)):
            await self._remind(table, seat, text(), prefix=prefix, by_dm=by_dm)

    async def _remind(self, table: Table, seat: int, text: str, *, prefix: str, by_dm: bool) -> None:
        row = table.seats[seat]
        assert row.user_id is not None
        if by_dm and not row.dm_closed and await self._dm(table, seat, f"{prefix} {text[0].upper()}{text[1:]}"):
            return  # (closed DMs: a mention in the channel instead)
        await self._channel(table).send(
            f"{prefix} <@{row.user_id}>, {text}"[:2000],
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(row.user_id)]),
        )

    async def send_turn_summary(self, table: Table, seat: int) -> None:
        clock = clock_of(table)
        assert clock is not None and clock.deadline is not None
        with speaking(seat_language(table, seat)):  # the player's own language, as their hand
            text = "⏰ " + _("Your turn at table #{table} in {where}: {duration} to play (until {when}).",
                            table=table.id, where=where(table), duration=duration_text(clock.choice.seconds),
                            when=f"<t:{int(clock.deadline)}:f>")  # fmt: skip
            lines = since_last_move(table, seat)
            if lines:
                text += "\n" + _("Since your last move:") + "\n" + "\n".join(f"• {line}" for line in lines)
            await self._dm(table, seat, text)

    async def show_lobby(self, table: Table) -> None:
        assert table.row.message_id is not None
        message = self._channel(table).get_partial_message(table.row.message_id)
        await message.edit(content=lobby_content(table), view=lobby_view(table))

    async def _dm(self, table: Table, seat: int, text: str) -> bool:
        """A DM to the seat's player; False when their DMs turn out closed (remembered: they are not tried again)."""
        user_id = table.seats[seat].user_id
        assert self.manager is not None and user_id is not None
        try:
            channel = await self.bot.create_dm(discord.Object(user_id))
            await channel.send(text[:2000])
        except discord.Forbidden as e:
            if e.code != DM_CLOSED:
                raise
            await self.manager.mark_dm_closed(table, seat)
            return False
        return True

    # --- sending -----------------------------------------------------------------------------------------

    def _queue_hands(self, table: Table) -> None:
        """A new deal's live hands, or an update of the deal's (coalesced: see ``live_hands``)."""
        match = table.match
        if match is None or match.phase in (BETWEEN_DEALS, GAME_OVER):
            if match is not None and table.extra.get("live_hands") is not None:
                self._queue_hand(table, HANDS)  # the deal is over: the hands stop offering choices
            return  # (a drawing deal's hands start empty and grow card by card: each draw is a refresh)
        out = self._output(table)
        if out.hands_for >= match.deal_index:
            self._queue_hand(table, HANDS)
            return
        out.hands_for = match.deal_index
        self._queue_hand(table, lambda d=match.deal_index: self.live.start_deal(table, d))

    def refresh_hands(self, table: Table) -> None:
        """Bring the table's live hands up to date (after a player's click was answered, say)."""
        if table.extra.get("live_hands") is not None:
            self._queue_hand(table, HANDS)

    async def send_hand_dm(self, table: Table, seat: int) -> bool:
        """DM a player their live hand (a substitute's); on closed DMs remember it (they use "My hand")."""
        return await self.live.send_dm(table, seat)

    @staticmethod
    def _result_in_words(table: Table, deal_index: int) -> dict:
        """The public view with deal ``deal_index``'s explanation in players' words: in English the engine's text with
        the roles named by their players (``result_words``); in another language the engine's sentences translated
        (``match.explanations``), seats named."""
        match = table.match
        assert match is not None
        state = match.public_view()
        said = match.explanations[deal_index] if deal_index < len(match.explanations) else ()
        lang = current_language.get()
        if not said or lang == DEFAULT:
            levels = registry.game_type(table.game).scores_are_levels
            return result_in_words(state, deal_index, table.names(), match.seat_teams(), levels)
        result = state["deal_results"][deal_index]
        teams = len(result.get("score_change") or state.get("scores") or []) < table.players
        explain = name_seats(words_text(said, lang, table.names()), table.names(), teams=teams)
        results = list(state["deal_results"])
        results[deal_index] = {**result, "explain": explain}
        return {**state, "deal_results": results}

    async def _post_deal_result(self, table: Table, deal_index: int) -> None:
        state = self._result_in_words(table, deal_index)
        result = state["deal_results"][deal_index]
        png = await images.deal_summary_image(state, table.names(), deal_index)
        text = result.get("explain") or (_("Thrown in: nobody bid.") if result.get("thrown_in") else "")
        change = score_change_text(table, result.get("score_change", []))
        head = _("**Table #{table} · deal {deal} result**", table=table.id, deal=deal_index + 1)
        await self._channel(table).send(
            f"{head}\n{text}\n{change}"[:2000],
            view=review_view(table, deal_index),
            **_file_kwargs(png, f"deal-{table.id}-{deal_index + 1}.png"),
        )

    async def _post_score_sheet(self, table: Table) -> None:
        match = table.match
        assert match is not None
        state = match.public_view()
        png = await images.score_sheet_image(state, table.names())
        content = "🏁 " + _(
            "**{game} — table #{table} is over.** {winner}\nFinal scores: {scores}\n"
            "The whole game: `/table record table:{table}`",
            game=game_name(table.game), table=table.id, winner=winner_text(table, state),
            scores=scores_text(table, state),
        )  # fmt: skip
        await self._channel(table).send(content[:2000], **_file_kwargs(png, f"scores-{table.id}.png"))

    async def _post_table_message(self, table: Table, deal_end: dict | None = None) -> None:
        """A new deal: a new table message at the bottom of the channel (the old one would scroll away).  The old
        message then shows how its deal ended (``deal_end``): every trick taken, the last trick, the scores after."""
        assert self.manager is not None and table.match is not None
        state = table_state(table)
        file = await table_file(table, state)
        kwargs = {"file": file} if file else {}
        view = table_view(table)
        if view is not None:
            kwargs["view"] = view
        old = table.row.message_id
        message = await self._channel(table).send(table_content(table, state)[:2000], **kwargs)
        table.row.message_id = message.id
        table.extra[SHOWN_PICTURE] = (message.id, table_picture_key(table, state) if file else None)
        await self.manager.store.set_message(table.id, message.id)
        if old is None:
            return
        # The old message would still say whose turn it was: show its deal's end, and point to the new one.
        fields: dict = {"view": None}
        content = _("**{game}** — table #{table}", game=game_name(table.game), table=table.id)
        if deal_end is not None:
            deal = int(deal_end.get("deal", 0))
            content += " · " + _("deal {deal} is over. {line}", deal=deal + 1, line=_deal_end_line(table, deal_end))
            png = await images.table_image(
                deal_end,
                table.names(),
                title=_("{game} · table #{table}", game=game_name(table.game), table=table.id),
                show_last_trick=True,
                last_trick=deal_end.get("last_trick"),
            )
            if png:
                fields["attachments"] = [discord.File(io.BytesIO(png), filename=f"table-{table.id}-{deal + 1}.png")]
        else:
            content += _(": that deal is over.")
        # From the table's server, not the message's: a process whose shards do not hold that server (several
        # processes, docs/running.md) has no guild for it and discord.py would write a DM's link.
        where = table.row.guild_id or "@me"
        link = f"https://discord.com/channels/{where}/{message.channel.id}/{message.id}"
        content += "\n" + _("The game goes on below ({link}).", link=link)
        await self._edit_message(table, old, version=table.version, content=content[:2000], **fields)

    async def _edit_table_message(self, table: Table) -> None:
        if table.match is None:
            return
        if table.row.message_id is None:
            await self._post_table_message(table)
            return
        version, state = table.version, table_state(table)
        message_id = table.row.message_id
        fields: dict = {"content": table_content(table, state)[:2000], "view": table_view(table)}
        key = table_picture_key(table, state) if images.enabled else None
        if key is None or table.extra.get(SHOWN_PICTURE) != (message_id, key):  # else the message keeps its picture
            file = await table_file(table, state, key)
            fields["attachments"] = [file] if file else []
            key = key if file else None
        if await self._edit_message(table, message_id, version=version, **fields):
            table.extra[SHOWN_PICTURE] = (message_id, key)
        else:  # another process showed a newer table: its picture, not ours, is on the message now
            table.extra.pop(SHOWN_PICTURE, None)

    async def _edit_message(self, table: Table, message_id: int, *, version: int, **fields) -> bool:
        """What ``PartialMessage.edit`` sends, without what it does for a caller that wants the result: building a
        ``Message`` from Discord's answer and storing the view (table views hold only dynamic items, which are
        dispatched by their custom ids).  The table message is edited about once per move, so this is a hot path.
        Left out (False) when another process already made the message show a newer ``version`` of the table."""
        if not (await self.placement.may_show(table.id, message_id, version)).won:
            return False
        state = self.bot._connection
        state.prevent_view_updates_for(message_id)
        with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions, **fields) as params:
            await state.http.edit_message(table.row.channel_id, message_id, params=params)
        return True

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.row.channel_id, guild_id=table.row.guild_id)

    # --- after a restart ---------------------------------------------------------------------------------

    async def resumed(self, table: Table) -> None:
        """Re-send only what a restart may have lost: the deal's hands if they never went out, a missing table
        message, and the table message's last edit (it may have been queued, unsent, when the process died).
        Buttons need nothing: their custom ids carry the table."""
        if table.status != PLAYING or table.match is None:
            return
        self._queue(table, NEW_TABLE_MESSAGE if table.row.message_id is None else REFRESH)
        self._queue_hands(table)


def _deal_end_line(table: Table, deal_end: dict) -> str:
    """The deal's result in a line: the score change, and the scores after it."""
    results = deal_end.get("deal_results") or []
    result = results[int(deal_end.get("deal", 0))] if int(deal_end.get("deal", 0)) < len(results) else {}
    change = score_change_text(table, result.get("score_change", [])) if result else ""
    return f"{change + '; ' if change else ''}" + _("scores now: {scores}", scores=scores_text(table, deal_end))


def _file_kwargs(png: bytes | None, name: str) -> dict:
    return {"file": discord.File(io.BytesIO(png), filename=name)} if png else {}


def table_line(table: Table, user_id: int, now: float) -> str:
    """One line of ``/tables``: where, which game, whose turn and how long is left."""
    head = _(
        "#{table} {game} in {channel}", table=table.id, game=game_name(table.game), channel=f"<#{table.row.channel_id}>"
    )
    if table.status == LOBBY:
        return head + " — " + _("lobby, {seated}/{players} seated", seated=len(table.seats), players=table.players)
    match = table.match
    if match is None or match.to_move is None:
        return f"{head} — {table.status}"
    seat = match.to_move
    clock = clock_of(table)
    left = ""
    if clock is not None and clock.deadline is not None and clock.seat == seat:
        left = " (" + _("{time} left", time=duration_text(clock.deadline - now)) + ")"
    if table.seat_of(user_id) == seat:
        who = "**" + _("your turn") + "**" + left
    else:
        row = table.seats.get(seat)
        name = row.name if row else _("seat {number}", number=seat + 1)
        stand_in = " (" + _("a computer stands in") + ")" if table.stands_in(seat) else ""
        who = _("{name}'s turn", name=name) + left + stand_in
    return f"{head} — {who}"


def outcome_text(table: Table, outcome: Outcome) -> str:
    who = table.names()[outcome.action.seat]
    return _("{who} {did}.", who=who, did=past_tense(outcome.action.to_json()))


__all__ = [
    "FINISHED",
    "Presenter",
    "REFRESH",
    "game_name",
    "lobby_content",
    "lobby_view",
    "table_content",
    "table_file",
    "table_line",
    "table_view",
]
