"""The Discord client: opens the store, resumes every table, wires the table events, loads the cogs and registers
the commands."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import re
import uuid
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from bot.clocks.clock import Clock, SystemClock
from bot.clocks.service import ClockService
from bot.i18n.translator import CatalogTranslator
from bot.presentation import deadline, images
from bot.presentation.components import TableButton, TableSelect
from bot.presentation.errors import on_app_command_error
from bot.presentation.forwarding import Forwarder
from bot.presentation.language import SpeakingTree, remember
from bot.presentation.presenter import Presenter
from bot.presentation.unknown_components import answer_unknown
from bot.process import lanes
from bot.process.settings import Settings
from bot.storage.engines import open_store
from bot.storage.store import Store
from bot.tables.leases import ShardLeases
from bot.tables.placement import Placement
from bot.tables.service import CAUGHT_UP, CHANGED_ELSEWHERE, REFRESHED, TABLE_EVENTS, TableManager
from bot.tournaments.followers import TableFollowers

log = logging.getLogger(__name__)

COGS = (
    "cogs.tables",
    "cogs.play",
    "cogs.leaderboard",
    "cogs.clocks",
    "cogs.admin",
    "cogs.hint",
    "cogs.help",
    "cogs.history",
    "cogs.tournaments",
    "cogs.daylong",
)


class CardTableBot(commands.Bot):
    def __init__(
        self,
        settings: Settings,
        *,
        rng: random.Random | None = None,
        clock: Clock | None = None,
        tune_gc: bool = True,
        **client_options,
    ):
        self._tune_gc = tune_gc  # process-wide, so tests that run many bots in one process turn it off
        # Only the guilds intent: the bot works from interactions alone, so message events (one per message the bot
        # itself sends or edits) and the message cache would be pure overhead.
        client_options.setdefault("max_messages", None)
        client_options.setdefault("tree_cls", SpeakingTree)  # commands answer in each player's language
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents(guilds=True), **client_options)
        self.settings = settings
        self._rng = rng
        self.clock: Clock = clock or SystemClock()  # tests pass a FakeClock (bot/clocks/clock.py)
        self.clocks: ClockService | None = None
        self.followers: TableFollowers | None = None
        self.store: Store | None = None
        self.presenter = Presenter(
            self,
            edit_interval=settings.edit_interval,
            hold_limit=settings.hold_limit,
            channel_requests=settings.channel_requests,
            channel_window=settings.channel_window,
            global_requests=settings.global_requests,
            global_window=settings.global_window,
        )
        self.manager: TableManager | None = None
        self._resumed = False
        self._sweep: asyncio.Task | None = None  # the owner's check for moves it did not hear of (placement.py)
        self.leases: ShardLeases | None = None  # which shards' table work is this process's (bot/tables/leases.py)
        self._beating: asyncio.Task | None = None
        self.forwarder: Forwarder | None = None  # DM taps handed to their table's owner (presentation/forwarding.py)
        self.tree.error(on_app_command_error)  # refusals → their reason; faults → logged, one generic answer
        self.component_templates: list[re.Pattern[str]] = []  # of every DynamicItem added (see on_interaction)

    async def setup_hook(self) -> None:
        lanes.install()  # players' answers before work that may wait (bot/process/lanes.py)
        deadline.install()  # interaction callbacks retried within Discord's 3 s, not discord.py's 1 s + 3 s
        if images.enabled:  # tests turn drawing off: no workers to start then
            images.start(self.settings.render_mode())
        self.store = await open_store(self.settings.database())
        self.manager = TableManager(
            self.store,
            self.dispatch,
            ai_delay=self.settings.ai_delay,
            draw_interval=self.settings.draw_interval,
            kitty_pause=self.settings.kitty_pause,
            rng=self._rng,
        )
        self.presenter.manager = self.manager
        self._place_tables()
        placement = self.presenter.placement
        if placement.shared:
            await placement.prune()  # what messages of ended tables showed
            me = f"{','.join(map(str, sorted(placement.shard_ids)))}/{placement.shard_count}:{uuid.uuid4().hex}"
            self.leases = ShardLeases(self.store, placement, me,
                                      stale_after=self.settings.lease_seconds, gained=self._took_over)  # fmt: skip
            await self.leases.beat()  # this process's shards: those whose leases it holds (not yet, if taken over)
        # Turn clocks and idle players (bot/clocks/service.py); they reach Discord through the presenter.
        failures = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)  # Discord's, after retries
        self.clocks = ClockService(self.manager, self.clock, self.presenter, output_failures=failures)
        # Tables that tournaments and daylongs open for themselves (their cogs' services follow them here).
        self.followers = TableFollowers(self.presenter.resumed)
        self._listen_to_tables(self.presenter, self.clocks, self.followers)
        self.add_listener(remember, "on_interaction")  # each player's language, for what is sent to them later
        resumed = await self.manager.resume_all()
        log.info("resumed %d table(s) from %s", len(resumed), self.settings.database_name())
        await self.manager.listen_to_other_processes()  # PostgreSQL: tables other processes change are reloaded
        if placement.shared and self.leases is not None:
            self._sweep = asyncio.create_task(placement.sweep(self.manager), name="owner-sweep")
            self._beating = asyncio.create_task(self.leases.run(), name="shard-leases")
            self.forwarder = Forwarder(self, self.store, self.manager, placement)
            await self.forwarder.start()
        await self.clocks.resume()  # deadlines and away seats re-armed from the store
        self.add_dynamic_items(TableButton, TableSelect)
        for cog in COGS:
            await self.load_extension(cog)
        await self.tree.set_translator(CatalogTranslator())  # commands' names and descriptions in each language
        await self.sync_commands()

    def _place_tables(self) -> None:
        """Which tables' own work is this process's: those whose server is on one of its shards (several processes
        sharing the shards); a process holding every shard does every table's (bot/tables/placement.py)."""
        assert self.manager is not None
        ids = getattr(self, "shard_ids", None) or ([self.shard_id] if self.shard_id is not None else None)
        placement = Placement.of(self.shard_count, ids, self.store)
        self.presenter.placement = self.presenter.live.placement = placement
        if placement.shared:
            self.manager.owns = placement.owns
            placement.table_of = self.manager.tables.get
            log.info("this process does the work of the tables on shard(s) %s of %d", sorted(ids or ()),
                     placement.shard_count)  # fmt: skip

    async def _took_over(self, shards: frozenset[int]) -> None:
        """Shards whose leases this process just took (their process died, or this one is back): their tables are
        read as the store has them, their messages edited once, their computers moved, as at a restart."""
        assert self.manager is not None
        if not self._resumed:
            return  # still starting: on_ready resumes every table this process owns by then
        for table in self.presenter.placement.on_shards(list(self.manager.tables.values()), shards):
            try:
                await self.manager.refresh(table.id)
                await self.presenter.resumed(table)
                self.manager.schedule_computers(table)
            except Exception:
                log.exception("table %d: could not take it over", table.id)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.component_templates += [item.__discord_ui_compiled_template__ for item in items]

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component id that none of the bot's components has gets a short refusal instead of silence."""
        await answer_unknown(interaction, self.component_templates)

    def _listen_to_tables(self, *listeners: object) -> None:
        """Table events (``self.dispatch("table_acted", ...)`` by the manager) reach these listeners' ``on_table_*``
        methods.  discord.py starts an event's listeners in the order they were added: these first, in the order
        given, then the cogs' (added as they load).  So the presenter queues a table's own output (it does so before
        its first await) before the clocks or a cog queue anything about the same event."""
        for listener in listeners:
            for event in (*TABLE_EVENTS, REFRESHED, CAUGHT_UP, CHANGED_ELSEWHERE):
                handler = getattr(listener, f"on_{event}", None)
                if handler is not None:
                    self.add_listener(handler)

    async def sync_commands(self) -> None:
        """Per guild while developing (instant), globally in production (may take a while to appear)."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            commands_ = await self.tree.sync(guild=guild)
            log.info("registered %d commands in guild %s", len(commands_), self.settings.dev_guild_id)
        else:
            commands_ = await self.tree.sync()
            log.info("registered %d global commands", len(commands_))

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s)", self.user, self.user.id if self.user else "?")
        if self._resumed or self.manager is None:
            return
        self._resumed = True  # on_ready fires again after reconnects; resume once
        for table in list(self.manager.tables.values()):
            if self.presenter.placement.owns(table):  # another process shows the others (bot/tables/placement.py)
                await self.presenter.resumed(table)
        self.manager.start_computers()
        if self._tune_gc:
            self._tune_garbage_collector()

    @staticmethod
    def _tune_garbage_collector() -> None:
        # Everything loaded so far lives as long as the process: keep it out of the collector's full passes, which
        # otherwise walk it all and stall the event loop (measured by bench/bench_bot.py).
        gc.freeze()
        # Fewer, not longer, collections: the young generation is collected every 50,000 allocations instead of
        # 700, and a full pass is considered a hundred times less often.  A card game allocates in small steady
        # amounts, so memory stays flat (bench/bench_bot.py reports the collections and their pauses).
        gc.set_threshold(50_000, 20, 100)

    async def close(self) -> None:
        for task in (self._sweep, self._beating):
            if task is not None:
                task.cancel()
        if self.forwarder is not None:
            await self.forwarder.close()
        if self.clocks is not None:
            await self.clocks.close()
        if self.manager is not None:
            await self.manager.close()
            await self.presenter.drain_all()  # ended tables' last messages too (a score sheet, say)
        await self.presenter.placement.close()  # what those showed, for the other processes
        await asyncio.to_thread(images.stop)  # waits for the workers to exit
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None


class ShardedCardTableBot(CardTableBot, commands.AutoShardedBot):
    """A process that runs several of the bot's shards (``cardtable run --shards N --shard-ids a-b``)."""


def bot_for(settings: Settings, **options: Any) -> CardTableBot:
    """The bot for these settings: one shard (the bot's only one, or the one ``--shard-ids`` names), or several."""
    shards = settings.shards()
    if shards is None:
        return CardTableBot(settings, **options)
    count, ids = shards
    if len(ids) == 1:
        return CardTableBot(settings, shard_id=ids[0], shard_count=count, **options)
    return ShardedCardTableBot(settings, shard_ids=ids, shard_count=count, **options)
