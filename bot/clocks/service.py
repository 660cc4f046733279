"""Turn clocks, idle players and abandoned tables.  ``ClockService`` listens to the table events (``on_table_acted``
and the rest, registered with the bot by the client) and keeps, for every table with a clock:

- a **deadline** for the human whose turn it is (stored in ``table_clocks``, re-armed at start-up);
- a **reminder** before it: a mention in the channel, or a DM when the clock is asynchronous (an hour a turn or
  more), "it is your turn at table #X in #channel, 3 h left"; with asynchronous clocks the player also gets, when
  their turn comes, a DM summary of what happened since their last move;
- at the deadline a **stand-in**: the seat is marked away and the heuristic computer player plays it (through the
  table manager, so only legal moves) until its player presses **I'm back** or acts.  If everyone is away the
  table pauses instead;
- after ``SUBSTITUTE_AFTER`` stand-in turns in a row, the host (or, if the host is the one away, any other seated
  player) may **offer the seat** to a substitute; anyone not seated may then **take the seat**;
- a **close** timer: a table (or lobby) where no human did anything for ``close_after(clock)`` is cancelled, its
  record and an unrated result kept, and the reason stored in ``table_closures``.

All times come from a ``bot.clocks.clock.Clock``; tests use a ``FakeClock``.  The service decides what to say and
when; it says it through a ``ClockOutput`` (bot/clocks/output.py), which the presenter implements: nothing here
knows Discord.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

from bot.clocks.clock import Clock, Timers
from bot.clocks.output import ClockOutput, Composed, SeatButton, Written
from bot.clocks.state import TableClock, clock_of
from bot.i18n import _
from bot.storage import clocks as clock_store
from bot.storage.store import CANCELLED, LOBBY, PLAYING, SeatRow
from bot.tables import guild_settings
from bot.tables.guild_settings import ClockChoice, duration_text, parse_clock
from bot.tables.service import Outcome, Refusal, Table, TableManager

log = logging.getLogger(__name__)

SUBSTITUTE_AFTER = 3  # stand-in turns in a row before the seat may be offered to a substitute
REMIND_LEAD = {"live": 15, "casual": 120, "async": 3 * 3600}
CLOSE_AFTER = {"live": 15 * 60, "casual": 2 * 3600, "async": 7 * 86_400}
LOBBY_CLOSE_MIN = 3600  # a lobby is never closed sooner than an hour after its last change
# Seconds a process's claim on a reminder or a deadline holds before another process may take it over (the claimer
# may have died before its output was made); far more than a reminder or a time-out takes to say.
FIRING_LEASE = 30.0
# A process that does not own a table (bot/tables/placement.py) leaves its clock's firings to the owner for this long
# first, and acts on one only if the owner has not (it is dead or stopped: a deadline outlives it all the same).
OWNER_FIRST = 5.0
# A clock another process saved, for a table this process does not own, is read again at most this often, for all such
# tables in one query: its timers here stand by should the owner die.  One query per move made elsewhere was the
# largest part of the database work that each process added (bench/bench_processes.py).
ELSEWHERE_READ_EVERY = 1.0
# Done firings are kept this long (then pruned at start-up and daily): long enough for any timer still armed for
# them in another process, whose stored clock has moved on anyway.
FIRINGS_KEPT = 86_400.0


def remind_lead(choice: ClockChoice) -> int:
    """How long before the deadline the reminder comes."""
    if choice.kind in REMIND_LEAD:
        return REMIND_LEAD[choice.kind]
    return max(5, choice.seconds // (8 if choice.is_async else 4))


def close_after(choice: ClockChoice, lobby: bool = False) -> int:
    """How long a table may go without any human doing anything before it is closed."""
    seconds = CLOSE_AFTER.get(choice.kind) or min(14 * 86_400, max(15 * 60, 10 * choice.seconds))
    return max(seconds, LOBBY_CLOSE_MIN) if lobby else seconds


class ClockService:
    def __init__(
        self,
        manager: TableManager,
        clock: Clock,
        output: ClockOutput,
        *,
        output_failures: tuple[type[BaseException], ...] = (OSError, TimeoutError),
    ):
        self.manager = manager
        self.output = output
        # What the output raises when Discord refuses or cannot be reached (the client names Discord's errors here).
        self.output_failures = output_failures
        self.store = manager.store
        self.clock = clock
        self.timers = Timers(clock)
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task] = set()  # output in the background, and table events being handled
        self.rng = random.Random()
        self._stale: set[int] = set()  # other processes' tables whose clock changed since this process read it
        self._reading: asyncio.Task | None = None

    # --- helpers ---------------------------------------------------------------------------------------------

    def _lock(self, table: Table) -> asyncio.Lock:
        return self._locks.setdefault(table.id, asyncio.Lock())

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Discord output in the background: a listener must not hold up the player's answer."""
        task = asyncio.create_task(self._guarded(coro))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self.clock.track(task)

    @contextlib.contextmanager
    def _handling(self) -> Iterator[None]:
        """A table event being handled: ``settle`` (and a ``FakeClock``) wait for it like for a spawned task."""
        task = asyncio.current_task()
        if task is None:
            yield
            return
        self._tasks.add(task)
        self.clock.track(task)
        try:
            yield
        finally:
            self._tasks.discard(task)

    async def _guarded(self, coro: Coroutine[Any, Any, Any]) -> None:
        what = getattr(coro, "__qualname__", "output")
        try:
            await coro
        except self.output_failures as e:
            # Discord refused it or could not be reached, after its client's own retries: that message is lost and
            # the clock goes on; the reason says all there is to say (a traceback would only point at the sender).
            log.warning("clock output %s failed: %s: %s", what, type(e).__name__, e)
        except Exception:
            log.exception("clock output %s failed", what)  # a mistake of ours: where it happened matters

    async def settle(self) -> None:
        await asyncio.sleep(0)  # table events dispatched just now start handling
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _refresh(self, table: Table) -> None:
        """The table message shows the clock: edited by the table's owner (bot/tables/placement.py), which re-reads
        a clock another process saved (``on_table_refreshed``)."""
        if table.match is None or table.status != PLAYING:
            return
        if self.manager.owns is None or self.manager.owns(table):
            self.output.refresh(table)

    async def _save(self, table: Table) -> None:
        clock = clock_of(table)
        if clock is None:
            return
        await clock_store.save_clock(
            self.store,
            table.id,
            seat=clock.seat,
            turn=clock.turn,
            deadline=clock.deadline,
            reminded=clock.reminded,
            nudged_by=clock.nudged_by,
            last_activity=clock.last_activity,
        )
        await self.store.announce_table(table.id)  # the other processes re-read it (``on_table_refreshed``)

    async def _save_seat(self, table: Table, seat: int) -> None:
        clock = clock_of(table)
        assert clock is not None
        await clock_store.save_idle_seat(
            self.store,
            clock_store.IdleSeat(
                table.id, seat, seat in table.away, clock.idle_turns.get(seat, 0), seat in clock.open_seats
            ),
        )

    # --- set-up and start-up ---------------------------------------------------------------------------------

    async def setup_table(self, table: Table, choice: ClockChoice) -> None:
        """A new table's clock (``/table new``), stored before its lobby message is shown."""
        now = self.clock.now()
        await clock_store.create_clock(self.store, table.id, choice.spec(), choice.seconds, now)
        table.extra["clock"] = TableClock(choice, now)
        self._arm_close(table)

    async def resume(self) -> None:
        """After a restart: every running table's clock, away seats and timers, from the store."""
        await self._prune()
        rows = await clock_store.load_clocks(self.store)
        seats = await clock_store.load_idle_seats(self.store)
        for table in list(self.manager.tables.values()):
            row = rows.get(table.id)
            if table.status not in (LOBBY, PLAYING):
                continue
            if row is None:  # opened before clocks existed: the server's default clock, from now on
                server = await guild_settings.load(self.store, table.row.guild_id)
                await self.setup_table(table, server.clock_for(table.game, None))
                if table.status == PLAYING:
                    await self.rearm(table, announce=False)
                continue
            clock = _adopt(table, row)
            for s in seats:
                if s.table_id != table.id:
                    continue
                if s.away:
                    table.away.add(s.seat)
                if s.idle_turns:
                    clock.idle_turns[s.seat] = s.idle_turns
                if s.open:
                    clock.open_seats.add(s.seat)
            self._arm_close(table)
            if table.status == PLAYING:
                await self.rearm(table, announce=False)

    async def _prune(self) -> None:
        """Done firings past keeping leave the store, now and each day after."""
        try:
            await clock_store.prune_firings(self.store, FIRINGS_KEPT)
        except Exception:
            log.exception("could not prune the clock firings; tried again tomorrow")
        self.timers.at(("prune",), self.clock.now() + 86_400, self._prune)

    async def on_table_refreshed(self, table: Table) -> None:
        """Another process sharing the database changed the table or its clock: the same timers here, from the
        stored clock, so that a deadline survives the death of the process that armed it (``claim_firing`` lets
        one process act on it)."""
        with self._handling():
            row = await clock_store.load_clock(self.store, table.id)
            if row is not None:
                await self._adopt_stored(table, row)

    async def _adopt_stored(self, table: Table, row: clock_store.StoredClock) -> None:
        if table.status not in (LOBBY, PLAYING):
            return
        async with self._lock(table):
            before = clock_of(table)
            shown = (before.deadline, before.seat) if before is not None else None
            clock = _adopt(table, row)
            if shown != (clock.deadline, clock.seat):
                self._refresh(table)  # set by another process: the table message shows it
            if row.deadline is None:
                self.timers.cancel(("deadline", table.id))
                self.timers.cancel(("remind", table.id))
            else:
                self._arm(table, clock)
            self._arm_close(table)

    async def on_table_changed_elsewhere(self, table: Table) -> None:
        """Another process changed a table this one does not own and has not read again: its clock is re-read all the
        same, if it has one, so that its deadline here stays the owner's (and fires should the owner die) — within
        ``ELSEWHERE_READ_EVERY``, with the others changed meanwhile."""
        if clock_of(table) is None:
            return
        self._stale.add(table.id)
        if self._reading is None or self._reading.done():
            self._reading = asyncio.create_task(self._read_stale())

    async def _read_stale(self) -> None:
        await asyncio.sleep(ELSEWHERE_READ_EVERY)
        stale, self._stale = sorted(self._stale), set()
        try:
            rows = await clock_store.load_clocks_of(self.store, stale)
            for table_id, row in rows.items():
                table = self.manager.tables.get(table_id)
                if table is not None:
                    await self._adopt_stored(table, row)
        except Exception as failure:
            log.warning("could not read the clocks other processes changed: %s", failure)

    async def close(self) -> None:
        if self._reading is not None:
            self._reading.cancel()
        await self.timers.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # --- table events (discord.py listeners, registered by the client) ----------------------------------------

    async def on_table_lobby_changed(self, table: Table) -> None:
        with self._handling():
            await self.touch(table)

    async def on_table_game_started(self, table: Table) -> None:
        with self._handling():
            await self.touch(table)
            await self.rearm(table)

    async def on_table_acted(self, table: Table, outcome: Outcome) -> None:
        with self._handling():
            await self._acted(table, outcome)

    async def _acted(self, table: Table, outcome: Outcome) -> None:
        clock = clock_of(table)
        if clock is None:
            return
        seat = outcome.action.seat
        if not outcome.by_computer:
            if seat in table.away or clock.idle_turns.get(seat):
                await self._back(table, seat)
            clock.last_activity = self.clock.now()
            self._arm_close(table)
        elif outcome.by_computer and seat in table.away:
            clock.idle_turns[seat] = clock.idle_turns.get(seat, 0) + 1
            await self._save_seat(table, seat)
            if clock.idle_turns[seat] == SUBSTITUTE_AFTER:
                self._spawn(self._offer_prompt(table, seat))
        if outcome.game_over:
            self.timers.cancel(("close", table.id))
        await self.rearm(table)

    async def on_table_closed(self, table: Table) -> None:
        with self._handling():
            await self._closed(table)

    async def _closed(self, table: Table) -> None:
        self.timers.cancel_prefix(("deadline", table.id))
        self.timers.cancel_prefix(("remind", table.id))
        self.timers.cancel_prefix(("close", table.id))
        clock = clock_of(table)
        if clock is not None:
            clock.deadline = clock.seat = None
            await self._save(table)
        if table.status == CANCELLED:  # by its host or an admin, unless a closure reason was written first
            await clock_store.record_cancelled(self.store, table.id)

    async def touch(self, table: Table) -> None:
        clock = clock_of(table)
        if clock is None:
            return
        clock.last_activity = self.clock.now()
        await self._save(table)
        self._arm_close(table)

    # --- deadlines -------------------------------------------------------------------------------------------

    def human_to_move(self, table: Table) -> int | None:
        """The seat whose clock runs: a human's turn that no computer plays and that is no automatic draw."""
        match = table.match
        if table.status != PLAYING or match is None or match.to_move is None:
            return None
        seat = match.to_move
        row = table.seats.get(seat)
        if row is None or row.user_id is None or seat in table.away:
            return None
        if self.manager.plays_itself(table):
            return None
        return seat

    async def rearm(self, table: Table, *, announce: bool = True) -> None:
        """Start the deadline of the turn now running (kept if it is the same turn), or stop it."""
        clock = clock_of(table)
        if clock is None:
            return
        async with self._lock(table):
            seat = self.human_to_move(table)
            if seat is None:
                if clock.deadline is not None:
                    clock.deadline = clock.seat = clock.turn = None
                    self._refresh(table)
                    await self._save(table)
                self.timers.cancel(("deadline", table.id))
                self.timers.cancel(("remind", table.id))
                return
            same = clock.seat == seat and clock.turn == table.version and clock.deadline is not None
            if not same:
                clock.seat, clock.turn = seat, table.version
                clock.deadline = self.clock.now() + clock.choice.seconds
                clock.reminded = False
                clock.nudged_by = set()
                # The table message shows whose time runs out: the edit the action queued shows it too (the
                # presenter heard the action first); a game's first turn or a player back gets its own edit.
                self._refresh(table)
                await self._save(table)
                if announce and clock.choice.is_async and last_mover(table) != seat:
                    # (not when the same player goes on, e.g. leading after winning a trick: they are here)
                    self._spawn(self._turn_summary(table, seat))
            self._arm(table, clock)

    def _arm(self, table: Table, clock: TableClock) -> None:
        """The timers of the deadline running now (its reminder unless sent)."""
        seat, deadline, turn = clock.seat, clock.deadline, clock.turn
        assert seat is not None and deadline is not None and turn is not None
        self.timers.at(("deadline", table.id), deadline, lambda: self._on_deadline(table.id, seat, turn))
        if not clock.reminded:
            lead = remind_lead(clock.choice)
            if lead < clock.choice.seconds:
                self.timers.at(("remind", table.id), deadline - lead, lambda: self._on_remind(table.id, seat, turn))

    def _current(self, table_id: int, seat: int, turn: int) -> Table | None:
        table = self.manager.tables.get(table_id)
        clock = clock_of(table) if table else None
        if table is None or clock is None or table.status != PLAYING:
            return None
        if clock.seat != seat or clock.turn != turn or table.version != turn:
            return None
        return table

    def _left_to_owner(self, kind: str, table: Table, fire: Callable[[], Any], late: bool) -> bool:
        """Whether this firing is left to the table's owner for now: tried again here ``OWNER_FIRST`` later."""
        if late or self.manager.owns is None or self.manager.owns(table):
            return False
        self.timers.at((kind, table.id), self.clock.now() + OWNER_FIRST, fire)
        return True

    async def _on_remind(self, table_id: int, seat: int, turn: int, late: bool = False) -> None:
        table = self._current(table_id, seat, turn)
        if table is None:
            return
        if self._left_to_owner("remind", table, lambda: self._on_remind(table_id, seat, turn, True), late):
            return
        clock = clock_of(table)
        assert clock is not None and clock.deadline is not None
        deadline = clock.deadline
        if not await self._claim(("remind", table_id), turn, deadline, lambda: self._on_remind(table_id, seat, turn)):
            return  # another process sharing the database reminds them (or did)
        stored = await clock_store.load_clock(self.store, table_id)
        if stored is not None and _same_firing(stored, turn, deadline) and not stored.reminded:
            seconds_left = deadline - self.clock.now()
            await self.tell(
                table,
                seat,
                lambda: _("it is your turn at table #{table} in {where}, {left} left.",
                          table=table.id, where=where(table), left=duration_text(seconds_left)),
            )  # fmt: skip
            clock.reminded = True
            await self._save(table)
        # (else a process that died before saying so had reminded them: only the firing is left to finish)
        await clock_store.finish_firing(self.store, table_id, "remind", turn, deadline)

    async def _claim(self, key: tuple[str, int], turn: int, deadline: float, fire: Callable[[], Any]) -> bool:
        """Whether this process acts on the firing of timer ``key``; when another holds it, this one tries again
        once that claim's lease runs out (``FIRING_LEASE``: the holder may die before its output is made)."""
        kind, table_id = key
        claim = await clock_store.claim_firing(
            self.store, table_id, kind, turn, deadline, now=self.clock.now(), lease=FIRING_LEASE
        )
        if not claim.won and claim.retry_at is not None:
            self.timers.at(key, claim.retry_at, fire)
        return claim.won

    async def tell(self, table: Table, seat: int, text: Written, *, prefix: str = "⏳") -> None:
        """A word for the player of ``seat``: by DM in asynchronous games, else a mention in the table's channel."""
        clock = clock_of(table)
        by_dm = clock is not None and clock.choice.is_async
        await self.output.remind(table, seat, text, prefix=prefix, by_dm=by_dm)

    async def _on_deadline(self, table_id: int, seat: int, turn: int, late: bool = False) -> None:
        table = self._current(table_id, seat, turn)
        if table is None:
            return
        if self._left_to_owner("deadline", table, lambda: self._on_deadline(table_id, seat, turn, True), late):
            return
        async with table.lock:
            if self._current(table_id, seat, turn) is None or seat != self.human_to_move(table):
                return
            clock = clock_of(table)
            assert clock is not None and clock.deadline is not None
            deadline = clock.deadline
            fire = lambda: self._on_deadline(table_id, seat, turn)  # noqa: E731
            if not await self._claim(("deadline", table_id), turn, deadline, fire):
                return  # another process sharing the database acts on it (or did)
            stored = await clock_store.load_clock(self.store, table_id)
            if stored is None or not _same_firing(stored, turn, deadline):
                # A process that died before saying so had timed the seat out (the stored clock moved on): once.
                await clock_store.finish_firing(self.store, table_id, "deadline", turn, deadline)
                return
            table.away.add(seat)
            clock.deadline = clock.seat = clock.turn = None
            await self._save_seat(table, seat)
            await self._save(table)
        self.timers.cancel(("remind", table.id))
        who, closes = f"<@{table.seats[seat].user_id}>", f"<t:{int(clock.last_activity + close_after(clock.choice))}:R>"
        if table.stands_in(seat):
            text = in_queue(
                lambda: "⏰ "
                + _("{who} ran out of time at table #{table}: a computer plays seat {seat} until they press "
                    "**I'm back** (or play).", who=who, table=table.id, seat=seat + 1)
            )  # fmt: skip
        else:
            text = in_queue(
                lambda: "⏰ "
                + _("{who} ran out of time at table #{table}, and every player is away: the table waits. Press "
                    "**I'm back** to play on; without anyone it closes {when}.", who=who, table=table.id, when=closes)
            )  # fmt: skip
        self.manager.schedule_computers(table)
        if table.computer_task is not None:
            self.clock.track(table.computer_task)  # a FakeClock waits for the stand-in's moves
        self._refresh(table)
        await self.output.post(table, text, button=SeatButton("back", seat))
        await clock_store.finish_firing(self.store, table_id, "deadline", turn, deadline)

    # --- players' requests -----------------------------------------------------------------------------------

    def _playing(self, table: Table) -> TableClock:
        clock = clock_of(table)
        if table.status != PLAYING or table.match is None:
            raise Refusal("Table #{table} is not being played.", table=table.id)
        if clock is None:
            raise Refusal("Table #{table} has no clock.", table=table.id)
        return clock

    async def back(self, table: Table, user_id: int) -> int:
        """The player takes their seat back from the stand-in, at once."""
        self._playing(table)
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("You are not seated at table #{table}.", table=table.id)
        if seat not in table.away:
            raise Refusal("Nobody plays for you at table #{table}: your seat is yours.", table=table.id)
        async with table.lock:
            await self._back(table, seat)
        await self.touch(table)
        await self.rearm(table)
        self._refresh(table)
        return seat

    async def _back(self, table: Table, seat: int) -> None:
        clock = clock_of(table)
        assert clock is not None
        table.away.discard(seat)
        clock.idle_turns.pop(seat, None)
        clock.open_seats.discard(seat)
        await self._save_seat(table, seat)

    async def nudge(self, table: Table, user_id: int) -> int:
        clock = self._playing(table)
        seat = table.seat_of(user_id)
        if seat is None:
            raise Refusal("Only the players of table #{table} can nudge.", table=table.id)
        to_move = self.human_to_move(table)
        if to_move is None or clock.deadline is None:
            raise Refusal("Nobody's clock is running: a computer is playing (or the table waits).")
        if to_move == seat:
            raise Refusal("It is your own turn!")
        if user_id in clock.nudged_by:
            raise Refusal("You already nudged this turn; once per turn is enough.")
        clock.nudged_by.add(user_id)
        await self._save(table)
        seconds_left, nudger = clock.deadline - self.clock.now(), table.seats[seat].name
        self._spawn(
            self.tell(
                table,
                to_move,
                lambda: _("{who} nudges you: it is your turn at table #{table} in {where}, {left} left.",
                          who=nudger, table=table.id, where=where(table), left=duration_text(seconds_left)),
                prefix="🔔",
            )
        )  # fmt: skip
        return to_move

    async def _offer_prompt(self, table: Table, seat: int) -> None:
        row = table.seats[seat]
        await self.output.post(
            table,
            in_queue(
                lambda: (
                    "🪑 "
                    + _(
                        "A computer has played {turns} turns in a row for {who} (seat {seat}) at table #{table}. "
                        "The host can offer the seat to a substitute (any other player can when the host is the one "
                        "away); until someone takes it, its player can still press **I'm back**.",
                        turns=SUBSTITUTE_AFTER,
                        who=f"<@{row.user_id}>",
                        seat=seat + 1,
                        table=table.id,
                    )
                )
            ),  # fmt: skip
            button=SeatButton("offer", seat),
        )

    async def offer(self, table: Table, user_id: int, seat: int, *, admin: bool = False) -> None:
        clock = self._playing(table)
        if seat not in table.away or clock.idle_turns.get(seat, 0) < SUBSTITUTE_AFTER:
            raise Refusal(
                "Seat {seat} can be offered only after a computer played it {turns} turns in a row.",
                seat=seat + 1,
                turns=SUBSTITUTE_AFTER,
            )
        if seat in clock.open_seats:
            raise Refusal("Seat {seat} is already open to a substitute.", seat=seat + 1)
        host = table.row.host_id
        host_away = table.seat_of(host) in table.away if table.seat_of(host) is not None else True
        mine = table.seat_of(user_id)
        allowed = admin or user_id == host or (host_away and mine is not None and mine not in table.away)
        if not allowed:
            raise Refusal("Only the host of table #{table} (or a server admin) can offer a seat.", table=table.id)
        clock.open_seats.add(seat)
        await self._save_seat(table, seat)
        await self.touch(table)
        self._refresh(table)
        self._spawn(
            self.output.post(
                table,
                in_queue(
                    lambda: (
                        "🪑 "
                        + _(
                            "Seat {seat} at table #{table} is open: anyone not playing there can take it and play on "
                            "from where it stands.",
                            seat=seat + 1,
                            table=table.id,
                        )
                    )
                ),  # fmt: skip
                button=SeatButton("take", seat),
            )
        )

    async def take(self, table: Table, user_id: int, name: str, seat: int) -> None:
        clock = self._playing(table)
        if table.seat_of(user_id) is not None:
            raise Refusal("You already play at table #{table}.", table=table.id)
        async with table.lock:
            if seat not in clock.open_seats or seat not in table.away:
                raise Refusal("Seat {seat} at table #{table} is not open (any more).", seat=seat + 1, table=table.id)
            dm_closed = user_id in table.closed_dms
            # The ratings credit the seat to the substitute from here on (bot/ratings/standins.py); noted
            # before the seat changes, so that a crash between the two writes leaves a takeover that is simply ignored.
            played = sum(len(d.actions) for d in table.record.deals) if table.record else 0
            await clock_store.record_takeover(self.store, table.id, seat, user_id, table.seats[seat].user_id, played)
            await self.manager.seat_substitute(
                table, SeatRow(seat=seat, name=name, user_id=user_id, dm_closed=dm_closed)
            )
            await self._back(table, seat)
        await self.touch(table)
        await self.rearm(table)
        self._refresh(table)
        self._spawn(self.output.send_hand_dm(table, seat))

    # --- closing abandoned tables ----------------------------------------------------------------------------

    def _arm_close(self, table: Table) -> None:
        clock = clock_of(table)
        if clock is None or table.status not in (LOBBY, PLAYING):
            return
        when = clock.last_activity + close_after(clock.choice, lobby=table.status == LOBBY)
        self.timers.at(("close", table.id), when, lambda: self._on_close(table.id))

    async def _on_close(self, table_id: int) -> None:
        table = self.manager.tables.get(table_id)
        clock = clock_of(table) if table else None
        if table is None or clock is None or table.status not in (LOBBY, PLAYING):
            return
        idle_for = close_after(clock.choice, lobby=table.status == LOBBY)
        if self.clock.now() < clock.last_activity + idle_for:
            self._arm_close(table)
            return
        await self.close_table(table, "abandoned", None)
        await self.output.post(
            table,
            in_queue(
                lambda: (
                    "🧹 "
                    + _(
                        "Table #{table} was closed: nobody played there for {idle}.",
                        table=table.id,
                        idle=duration_text(idle_for),
                    )
                    + " "
                    + (
                        _("Its record is kept: `/table record table:{table}`.", table=table.id)
                        if table.match is not None
                        else _("The channel is free for a new table.")
                    )
                )
            ),  # fmt: skip
        )

    async def close_table(self, table: Table, reason: str, user_id: int | None) -> None:
        await clock_store.record_closure(self.store, table.id, reason, user_id)
        was_lobby = table.status == LOBBY
        async with table.lock:
            if table.status not in (LOBBY, PLAYING):
                return
            await self.manager.close_cancelled(table)
        if was_lobby and table.row.message_id is not None:
            await self.output.show_lobby(table)

    # --- async comfort ---------------------------------------------------------------------------------------

    async def _turn_summary(self, table: Table, seat: int) -> None:
        """Asynchronous games: when a player's turn comes, a DM of what happened since their last move."""
        row = table.seats.get(seat)
        clock = clock_of(table)
        if row is None or row.user_id is None or row.dm_closed or clock is None or clock.deadline is None:
            return
        await self.output.send_turn_summary(table, seat)


def _same_firing(stored: clock_store.StoredClock, turn: int, deadline: float) -> bool:
    """The stored clock still runs the deadline a firing is for (nobody acted on it yet)."""
    return (
        stored.turn == turn and stored.deadline is not None and round(stored.deadline * 1000) == round(deadline * 1000)
    )


def _adopt(table: Table, row: clock_store.StoredClock) -> TableClock:
    """The table's clock as stored (at start-up, or after another process changed it); idle turns and offered seats
    are kept from the clock this process had."""
    try:
        choice = parse_clock(row.preset)
    except Exception:
        choice = ClockChoice("custom", row.turn_seconds)
    clock = TableClock(
        choice,
        row.last_activity,
        seat=row.seat,
        turn=row.turn,
        deadline=row.deadline,
        reminded=row.reminded,
        nudged_by=set(row.nudged_by),
    )
    before = clock_of(table)
    if before is not None:
        clock.idle_turns, clock.open_seats = before.idle_turns, before.open_seats
    table.extra["clock"] = clock
    return clock


def where(table: Table) -> str:
    """The table's server and channel, as a reminder names them."""
    return f"**{table.row.guild_name or _('a server')}** › <#{table.row.channel_id}>"


def in_queue(write: Written) -> Composed:
    """A table's message written when the table's output queue sends it, in the table's language."""

    async def composed() -> str:
        return write()

    return composed


def last_mover(table: Table) -> int | None:
    """The seat of the last action in the current deal (None at a deal's start)."""
    if table.record is None or not table.record.deals or not table.record.deals[-1].actions:
        return None
    action = table.record.deals[-1].actions[-1]
    return (action if isinstance(action, dict) else action.to_json()).get("seat")
