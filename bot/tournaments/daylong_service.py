"""Running a daylong against computers over the table service (the rules: bot/tournaments/daylong.py and
docs/tournaments.md).  Each board a player plays is a table of one deal in the player's private thread, the player in
seat 0 and three computer players of the organiser's level in the others; the board's cards come from the player's
instance.  Knows nothing of Discord: what players should see goes through ``DaylongOutput`` (cogs/daylong.py).

Everything is saved before it is said; after a restart ``resume_all`` finds the open daylongs again, re-arms the
window's close and picks up a board whose table ended while the bot was down.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from bot.clocks.clock import Clock
from bot.i18n import N_, _
from bot.storage import daylong as ds
from bot.storage import tournaments as ts
from bot.storage.board_watchers import watched_daylong_boards
from bot.storage.store import PLAYING, Store
from bot.tables.guild_settings import SettingsRefusal, parse_clock
from bot.tables.service import Refusal, Table, TableManager
from bot.tournaments.daylong import (
    MAX_BOARDS,
    MAX_INSTANCES,
    MIN_BOARDS,
    SEATS,
    DaylongLine,
    Played,
    assign_instance,
    board,
    daylong_standings,
    four_handed,
    instance_seed,
)
from bot.tournaments.formats import DAYLONG
from bot.tournaments.plan import seed_commitment
from rules.ai.players import LEVELS
from rules.boards import board_net
from rules.dealing import DealCards
from rules.errors import Words
from rules.game import Match
from rules.registry import game_type

log = logging.getLogger(__name__)

OPEN = "open"  # its status while the window is open (the round-based service never looks for it); then 'finished'
MAX_HOURS = 24 * 7


class DaylongOutput(Protocol):
    async def open_player_thread(self, t: ts.TournamentRow, user_id: int, name: str) -> int:
        """A private place for one player's boards (a thread they are added to); its channel id."""
        ...

    async def table_opened(self, t: ts.TournamentRow, table: Table) -> None:
        """A board's table is seated and about to start: its turn clock is set."""
        ...

    async def board_done(self, t: ts.TournamentRow, thread_id: int, user_id: int, board_no: int, net: int) -> None:
        """Tell the player their board's result and offer the next one."""
        ...

    async def changed(self, t: ts.TournamentRow) -> None:
        """The announcement and its standings image need editing."""
        ...

    async def say(self, t: ts.TournamentRow, text: str, **fields: Any) -> None: ...


@dataclass
class Settings:
    boards: int
    level: str
    instances: int
    closes_at: float  # the clock's time (seconds since the epoch)
    clock: str = "casual"

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Settings:
        return cls(int(data["boards"]), str(data["level"]), int(data["instances"]), float(data["closes_at"]),
                   str(data.get("clock", "casual")))  # fmt: skip


@dataclass
class OneBoard:
    """A board's table (``FixedDeals`` for the table service): its dealer and cards, one deal."""

    seed: int
    instance: int
    number: int

    @property
    def first_dealer(self) -> int | None:
        return board(self.seed, self.instance, self.number).dealer

    @property
    def deals(self) -> int | None:
        return 1

    def cards(self, match: Match, deal_index: int) -> DealCards | None:
        return board(self.seed, self.instance, self.number).cards(match) if deal_index == 0 else None


@dataclass
class Snapshot:
    """A daylong as the cog shows it."""

    t: ts.TournamentRow
    settings: Settings
    players: list[ds.DaylongPlayer]
    boards: list[ds.DaylongBoard]
    lines: list[DaylongLine]

    @property
    def closed(self) -> bool:
        return self.t.status != OPEN

    def name_of(self, user_id: int) -> str:
        return next((p.name for p in self.players if p.user_id == user_id), str(user_id))


class DaylongService:
    def __init__(self, store: Store, manager: TableManager, output: DaylongOutput, rng: random.Random, clock: Clock):
        self.store = store
        self.manager = manager
        self.output = output
        self.rng = rng
        self.clock = clock
        self.locks: dict[int, asyncio.Lock] = {}
        self.by_table: dict[int, tuple[int, int, int]] = {}  # table -> (daylong, player, board)
        self.timers: dict[int, asyncio.Task] = {}
        manager.record_guards.append(self.record_withheld)
        manager.watch_guards.append(self.watch_withheld)

    def lock(self, tid: int) -> asyncio.Lock:
        return self.locks.setdefault(tid, asyncio.Lock())

    async def get(self, tid: int) -> ts.TournamentRow:
        t = await ts.load_tournament(self.store, tid)
        if t is None or t.format != DAYLONG:
            raise Refusal("There is no daylong #{number}.", number=tid)
        return t

    async def snapshot(self, tid: int) -> Snapshot:
        t = await self.get(tid)
        settings = Settings.of(t.settings)
        players = await ds.players(self.store, tid)
        boards = await ds.boards(self.store, tid)
        instance = {p.user_id: p.instance for p in players}
        played = [Played(b.user_id, instance[b.user_id], b.board_no, b.net) for b in boards
                  if b.status == ds.BOARD_FINISHED and b.net is not None]  # fmt: skip
        lines = daylong_standings(instance, played, settings.boards, closed=t.status != OPEN)
        return Snapshot(t, settings, players, boards, lines)

    # --- set-up --------------------------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        organiser_id: int,
        name: str,
        game: str,
        preset: str | None,
        options: dict[str, Any],
        boards: int,
        level: str,
        hours: float,
        instances: int,
        clock: str = "casual",
        language: str = "en",
    ) -> ts.TournamentRow:
        playable = four_handed(game, options)
        if playable is None:
            raise Refusal("A daylong is for two partnerships at four: {game} with these rules is not.",
                          game=game_type(game).name())  # fmt: skip
        options = playable
        if not MIN_BOARDS <= boards <= MAX_BOARDS:
            raise Refusal("A daylong has {low} to {high} boards.", low=MIN_BOARDS, high=MAX_BOARDS)
        if level not in LEVELS:
            raise Refusal("The computer players' level is one of: {levels}.", levels=", ".join(LEVELS))
        if not 1 <= hours <= MAX_HOURS:
            raise Refusal("A daylong's window is 1 to {hours} hours.", hours=MAX_HOURS)
        if not 1 <= instances <= MAX_INSTANCES:
            raise Refusal("A daylong has 1 to {most} instances of its boards.", most=MAX_INSTANCES)
        try:
            clock = parse_clock(clock).spec()
        except SettingsRefusal as e:
            raise Refusal(str(e)) from None
        seed = self.rng.getrandbits(62)
        closes_at = self.clock.now() + hours * 3600
        settings = {"boards": boards, "level": level, "instances": instances, "closes_at": closes_at,
                    "hours": hours, "clock": clock, "language": language}  # fmt: skip
        tid = await ts.create_tournament(
            self.store, guild_id=guild_id, channel_id=channel_id, organiser_id=organiser_id, name=name, game=game,
            preset=preset, options=options, format=DAYLONG, rounds=1, seed=seed, settings=settings,
        )  # fmt: skip
        commitments = ", ".join(f"{i + 1}: {seed_commitment(instance_seed(seed, i))}" for i in range(instances))
        await ts.set_status(
            self.store,
            tid,
            OPEN,
            organiser_id,
            Words("Open; the instances' seeds committed: {commitments}.", commitments=commitments),
        )
        self._arm(tid, closes_at)
        return await self.get(tid)

    def commitments(self, t: ts.TournamentRow) -> list[str]:
        return [seed_commitment(instance_seed(t.seed, i)) for i in range(Settings.of(t.settings).instances)]

    # --- playing -------------------------------------------------------------------------------------------

    async def play(self, tid: int, user_id: int, name: str) -> tuple[int, int]:
        """Open the player's next board (their first: an instance and a private thread); (board, thread)."""
        async with self.lock(tid):
            t = await self.get(tid)
            settings = Settings.of(t.settings)
            if t.status != OPEN or self.clock.now() >= settings.closes_at:
                raise Refusal("{name} is closed.", name=t.name)
            players = {p.user_id: p for p in await ds.players(self.store, tid)}
            mine = [b for b in await ds.boards(self.store, tid) if b.user_id == user_id]
            player = players.get(user_id)
            if player is not None and player.status == ds.WITHDRAWN:
                raise Refusal("You have withdrawn from {name}.", name=t.name)
            under_way = [b for b in mine if b.status == ds.BOARD_PLAYING]
            if under_way and player is not None and player.thread_id is not None:
                raise Refusal(
                    "Your board {board} is under way in <#{thread}>: finish it first.",
                    board=under_way[0].board_no + 1, thread=player.thread_id,
                )  # fmt: skip
            started = {b.board_no for b in mine}
            left = [n for n in range(settings.boards) if n not in started]
            if not left:
                raise Refusal("You have played every board of {name}.", name=t.name)
            # A board one has watched being played in one's own instance is not one's to play (it counts as never
            # started); the instance is known only once one is a player, so a newcomer's is drawn first.
            watched = await watched_daylong_boards(self.store, tid, user_id)
            if player is None:
                taken = [0] * settings.instances
                for p in players.values():
                    taken[p.instance] += 1
                instance = assign_instance(t.seed, user_id, taken)
            else:
                instance = player.instance
            unseen = [n for n in left if (instance, n) not in watched]
            if not unseen:
                raise Refusal(
                    "The boards of {name} you have left are ones you watched being played: you cannot play them.",
                    name=t.name,
                )
            if player is None:
                await ds.add_player(self.store, tid, user_id, name, instance)
            thread = player.thread_id if player is not None else None
            if thread is None:
                thread = await self.output.open_player_thread(t, user_id, name)
                await ds.set_thread(self.store, tid, user_id, thread)
            number = unseen[0]
            await ds.start_board(self.store, tid, user_id, number)
            await self._open_table(t, user_id, name, instance, number, thread)
        await self.output.changed(await self.get(tid))
        return number, thread

    async def _open_table(self, t: ts.TournamentRow, user_id: int, name: str, instance: int, number: int,
                          thread: int) -> None:  # fmt: skip
        settings = Settings.of(t.settings)
        the_board = board(t.seed, instance, number)
        table = await self.manager.create(
            game=t.game, options=the_board.options(t.game, t.options), preset=t.preset, host_id=user_id,
            host_name=name, channel_id=thread, guild_id=t.guild_id, channel_name=f"{t.name} b{number + 1}",
            language=t.settings.get("language"),  # the daylong's own, as its other public texts
        )  # fmt: skip
        for _seat in range(SEATS - 1):
            await self.manager.add_computer(table.id, user_id, settings.level)
        await ds.set_board_table(self.store, t.id, user_id, number, table.id)
        self.by_table[table.id] = (t.id, user_id, number)
        self.manager.fixed_deals[table.id] = OneBoard(t.seed, instance, number)
        await self.output.table_opened(t, table)
        await self.manager.start(table.id, user_id)

    # --- results -------------------------------------------------------------------------------------------

    async def table_acted(self, table: Table, deals_finished: list[int]) -> None:
        """Listener: a board's table has played its deal."""
        if table.id in self.by_table and deals_finished and table.match is not None and table.match.deal_results:
            await self._finish(table)

    async def table_closed(self, table: Table) -> None:
        """Listener: a board's table ended; without its deal played (closed, abandoned) the board is unfinished."""
        if table.id in self.by_table:
            await self._finish(table)

    async def _finish(self, table: Table) -> None:
        tid, user_id, number = self.by_table.pop(table.id)
        self.manager.fixed_deals.pop(table.id, None)
        results = table.match.deal_results if table.match is not None else []
        net = board_net(results[0]) if results else None
        async with self.lock(tid):
            recorded = await ds.finish_board(self.store, tid, user_id, number, net)
            if table.status == PLAYING:
                # The board's one deal is played: the table stops here, closed unrated like any tournament table's.
                await self.manager.cancel(table.id, user_id, admin=True)
            t = await self.get(tid)
        if not recorded:
            return
        if net is not None:
            player = next(p for p in await ds.players(self.store, tid) if p.user_id == user_id)
            if player.thread_id is not None:
                await self.output.board_done(t, player.thread_id, user_id, number, net)
        await self.output.changed(t)

    # --- leaving and closing -------------------------------------------------------------------------------

    async def withdraw(self, tid: int, user_id: int) -> None:
        """The player stops: a board under way is unfinished, and so is every board not played (the rule at the
        close); their finished boards stay in the others' fields."""
        async with self.lock(tid):
            t = await self.get(tid)
            player = next((p for p in await ds.players(self.store, tid) if p.user_id == user_id), None)
            if player is None or player.status == ds.WITHDRAWN:
                raise Refusal("You are not playing {name}.", name=t.name)
            if t.status != OPEN:
                raise Refusal("{name} is closed.", name=t.name)
            await ds.withdraw(self.store, tid, user_id, player.name)
        await self._abandon(tid, user_id)
        await self.output.changed(await self.get(tid))

    async def _abandon(self, tid: int, user_id: int | None) -> None:
        """Boards under way (one player's, or everyone's) become unfinished and their tables close."""
        for b in await ds.boards(self.store, tid):
            if b.status != ds.BOARD_PLAYING or (user_id is not None and b.user_id != user_id):
                continue
            await ds.finish_board(self.store, tid, b.user_id, b.board_no, None)
            if b.table_id is None:
                continue
            self.by_table.pop(b.table_id, None)
            self.manager.fixed_deals.pop(b.table_id, None)
            table = await self.manager.get(b.table_id)
            if table.status == PLAYING:
                await self.manager.cancel(b.table_id, b.user_id, admin=True)

    async def close(self, tid: int, user_id: int | None, *, manager: bool = False) -> None:
        """The window ends (``user_id`` None: its time came; else the organiser closes it early)."""
        async with self.lock(tid):
            t = await self.get(tid)
            if user_id is not None and user_id != t.organiser_id and not manager:
                raise Refusal("Only the organiser (or someone who may manage the server) can do that.")
            if t.status != OPEN:
                if user_id is None:
                    return
                raise Refusal("{name} is closed.", name=t.name)
            await self._abandon(tid, None)
            seeds = ", ".join(f"{i + 1}: {instance_seed(t.seed, i)}" for i in range(Settings.of(t.settings).instances))
            await ts.set_status(
                self.store, tid, ts.FINISHED, user_id, Words("Closed; the instances' seeds were {seeds}.", seeds=seeds)
            )
            t = await self.get(tid)
        timer = self.timers.pop(tid, None)
        if timer is not None and user_id is not None:  # (the organiser's close: the window's own timer is not needed)
            timer.cancel()
        await self.output.say(t, N_("The window is closed: final standings. The instances' seeds were {seeds}."),
                              seeds=seeds)  # fmt: skip
        await self.output.changed(t)

    def _arm(self, tid: int, closes_at: float) -> None:
        old = self.timers.pop(tid, None)
        if old is not None:
            old.cancel()
        self.timers[tid] = asyncio.create_task(self._close_at(tid, closes_at))

    async def _close_at(self, tid: int, closes_at: float) -> None:
        await self.clock.sleep_until(closes_at)
        # The closing is tracked, not the sleep: a FakeClock's advance waits for the callback, not for the window.
        closing = asyncio.create_task(self._close_logged(tid))
        self.clock.track(closing)
        await closing

    async def _close_logged(self, tid: int) -> None:
        try:
            await self.close(tid, None)
        except Exception:
            log.exception("daylong %d: could not close its window", tid)

    async def resume_all(self) -> None:
        for tid in await ts.tournaments_with_status(self.store, OPEN):
            t = await self.get(tid)
            players = {p.user_id: p for p in await ds.players(self.store, tid)}
            for b in await ds.boards(self.store, tid):
                if b.status != ds.BOARD_PLAYING or b.table_id is None:
                    continue
                self.by_table[b.table_id] = (tid, b.user_id, b.board_no)
                self.manager.fixed_deals[b.table_id] = OneBoard(t.seed, players[b.user_id].instance, b.board_no)
                table = await self.manager.get(b.table_id)
                if table.status != PLAYING or (table.match is not None and table.match.deal_results):
                    await self._finish(table)
            self._arm(tid, Settings.of(t.settings).closes_at)

    async def stop(self) -> None:
        for task in self.timers.values():
            task.cancel()
        self.timers.clear()

    # --- fairness ------------------------------------------------------------------------------------------

    async def watch_withheld(self, table: Table, user_id: int) -> str | None:
        """A player of the daylong may not watch a board of their own instance that they have still to play."""
        key = self.by_table.get(table.id) or await ds.board_of_table(self.store, table.id)
        if key is None:
            return None
        tid, owner, number = key
        t = await self.get(tid)
        players = {p.user_id: p for p in await ds.players(self.store, tid)}
        me, theirs = players.get(user_id), players.get(owner)
        if t.status != OPEN or me is None or me.status == ds.WITHDRAWN or theirs is None:
            return None
        if me.instance != theirs.instance:
            return None
        if any(b.board_no == number for b in await ds.boards(self.store, tid) if b.user_id == user_id):
            return None
        return _(
            "Table #{table} plays board {board} of {name}, which you have still to play: you cannot watch it.",
            table=table.id, board=number + 1, name=t.name,
        )  # fmt: skip

    async def record_withheld(self, table: Table, user_id: int) -> str | None:
        """While the window is open a board's record shows its cards: only those who have played that board (in any
        instance, so that nobody can pass it on to a friend of theirs) may see it."""
        key = self.by_table.get(table.id) or await ds.board_of_table(self.store, table.id)
        if key is None:
            return None
        tid, _player, number = key
        t = await self.get(tid)
        if t.status != OPEN:
            return None
        done = {b.board_no for b in await ds.boards(self.store, tid)
                if b.user_id == user_id and b.status != ds.BOARD_PLAYING}  # fmt: skip
        if number in done:
            return None
        return _(
            "Table #{table} played board {board} of {name}, which you have still to play: its record is yours to "
            "see once you have played it, or when the daylong closes.",
            table=table.id, board=number + 1, name=t.name,
        )  # fmt: skip
