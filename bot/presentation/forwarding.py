"""A DM tap is handled once, by its table's owner (docs/running.md, "How a table's work is placed").

Discord sends every DM interaction to shard 0.  When shard 0's process does not own the table a tap on a live hand is
for, and the owner is alive (its shard's lease is fresh: bot/tables/leases.py), it does as little as it can: it
acknowledges the tap at once (a deferred update, well within Discord's 3 s), writes the interaction as Discord sent
it for the owner (bot/storage/forwarded.py) and announces it (NOTIFY).  The owner claims it, rebuilds the interaction
from that payload and handles it exactly as if it had received it — the Tables cog's component handler checks, applies
and stores the move and answers the player through the interaction's token (an edit of the original response, or a
follow-up for a refusal; any process may use a token for its 15 minutes) — then deletes the row.  The player sees
what they would have seen had the tap been answered where it arrived: their hand, edited in place, or a refusal.

If the owner does not claim the tap within ``CLAIM_WAIT`` (dead without its lease gone stale yet, or slow), or a claim
is not answered within ``ANSWER_LEASE`` (it died on it), the forwarding process claims the tap itself and handles it
the same way.  The claims are conditional writes, so one process alone handles a tap; and a move stored by a claim
that died before answering is not made twice (the action log's unique interaction id), and its player is told it
was made (cogs/acting.py's ``show_stale_hand``).

A process that owns the table, a lone process, and every other kind of interaction are handled where they arrive.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.i18n import current_language
from bot.presentation.components import ComponentId, TableButton, TableSelect
from bot.presentation.language import language_of
from bot.presentation.panel import PANEL_VERB
from bot.storage.forwarded import claim_tap, claims_of, forward_tap, prune_taps, taps_answered

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.storage.store import Store
    from bot.tables.placement import Placement
    from bot.tables.service import TableManager

log = logging.getLogger(__name__)

# The taps on a live hand (its panel, its buttons and menus): what a player does at their table from their DMs.
FORWARDED_VERBS = frozenset({PANEL_VERB, "act", "pick", "multi", "throw", "hand"})
# Seconds the forwarding process gives the owner to claim a tap, and then between two looks at a claimed one.
CLAIM_WAIT = 1.5
# Seconds a claim may take before the forwarding process takes the tap over (its claimer died on it).
ANSWER_LEASE = 10.0
# The forwarding process looks at all its taps not yet answered in one query, at most this often; the owner deletes
# the rows of the taps it answered together, at most this often.  (A statement per tap for each was a fifth of the
# database work that forwarding adds: bench/bench_processes.py.)
LOOK_EVERY = 0.5
ANSWERED_EVERY = 0.25
# Rows left by processes that died with nobody to take their taps over are deleted after a day.
TAPS_KEPT = 24 * 3600.0
# The payloads of this many recent DM component interactions are kept (each is looked up once, at its dispatch).
PAYLOADS_KEPT = 2000
# Discord's 15 minutes for an interaction token: past them nobody can answer, so nobody tries.
TOKEN_LIFE = 15 * 60.0
ANSWER_FAILURES = (discord.HTTPException, aiohttp.ClientError, OSError, TimeoutError)


@dataclass
class Watched:
    """A tap this process forwarded and has not seen answered: when to look at it next, when to stop."""

    interaction: discord.Interaction
    table_id: int
    next_look: float
    give_up: float


class Forwarder:
    def __init__(self, bot: commands.Bot, store: Store, manager: TableManager, placement: Placement) -> None:
        self.bot = bot
        self.store = store
        self.manager = manager
        self.placement = placement
        self._payloads: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._tasks: set[asyncio.Task] = set()
        self._watched: dict[int, Watched] = {}
        self._looking: asyncio.Task | None = None
        self._answered: list[int] = []
        self._deleting: asyncio.Task | None = None
        self.forwarded_count = 0  # (read by the benchmark and the tests)
        self.answered_count = 0
        self.taken_back_count = 0

    async def start(self) -> None:
        """Keep the payloads of DM component interactions (discord.py keeps no raw payload), hear forwarded taps."""
        parsers = self.bot._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def keeping(data: dict[str, Any]) -> None:
            if data.get("type") == discord.InteractionType.component.value and not data.get("guild_id"):
                self._payloads[int(data["id"])] = data
                while len(self._payloads) > PAYLOADS_KEPT:
                    self._payloads.popitem(last=False)
            parse(data)

        parsers["INTERACTION_CREATE"] = keeping
        await prune_taps(self.store, TAPS_KEPT)
        await self.store.listen_to_taps(self._heard)

    # --- the process that received the tap -----------------------------------------------------------------

    async def forwarded(self, interaction: discord.Interaction, cid: ComponentId) -> bool:
        """Whether the tap was handed to its table's owner (then nothing else is to be done with it here)."""
        if not self.placement.shared or cid.verb not in FORWARDED_VERBS:
            return False
        payload = self._payloads.pop(interaction.id, None)
        table = self.manager.tables.get(cid.table)
        if payload is None or table is None or self.placement.owns(table) or not self.placement.owner_alive(table):
            return False
        try:
            await interaction.response.defer()  # the hand stays as it is until the owner's answer replaces it
        except ANSWER_FAILURES as failure:
            log.warning("table %d: could not acknowledge a tap to forward it: %s", table.id, failure)
            return True  # expired: nobody can answer it any more
        try:
            await forward_tap(self.store, interaction.id, table.id, json.dumps(payload))
            await self.store.announce_tap(interaction.id, table.id)
        except Exception as failure:
            log.warning("table %d: could not forward a tap (%s); answering it here", table.id, failure)
            self._spawn(self._handle(interaction, table.id, here=True))
            return True
        self.forwarded_count += 1
        now = asyncio.get_running_loop().time()
        self._watch(Watched(interaction, table.id, now + CLAIM_WAIT, now + TOKEN_LIFE))
        return True

    def _watch(self, watched: Watched) -> None:
        """Look at the tap from ``watched.next_look`` on, with the others (``_look``)."""
        self._watched[watched.interaction.id] = watched
        if self._looking is None or self._looking.done():
            self._looking = asyncio.create_task(self._look())

    async def _look(self) -> None:
        """While taps are watched: every ``LOOK_EVERY``, one query for those due; a tap gone was answered, a claim
        younger than ``ANSWER_LEASE`` is being answered; any other (unclaimed after ``CLAIM_WAIT``, or its claimer
        died on it) is taken back and answered here."""
        loop = asyncio.get_running_loop()
        while self._watched:
            await asyncio.sleep(LOOK_EVERY)
            now = loop.time()
            for interaction_id in [i for i, w in self._watched.items() if w.give_up <= now]:
                del self._watched[interaction_id]  # nobody can answer it any more
            due = [i for i, w in self._watched.items() if w.next_look <= now]
            if not due:
                continue
            try:
                claims = await claims_of(self.store, due)
            except Exception as failure:
                log.warning("could not check %d forwarded tap(s): %s", len(due), failure)
                continue
            fresh = time.time() - ANSWER_LEASE
            for interaction_id in due:
                watched = self._watched.get(interaction_id)
                if watched is None:
                    continue
                if interaction_id not in claims:  # answered
                    del self._watched[interaction_id]
                elif (claimed_at := claims[interaction_id]) is not None and claimed_at >= fresh:
                    watched.next_look = now + CLAIM_WAIT
                else:
                    del self._watched[interaction_id]
                    self._spawn(self._take_back(watched))

    async def _take_back(self, watched: Watched) -> None:
        table_id = watched.table_id
        try:
            claim = await claim_tap(self.store, watched.interaction.id, lease=ANSWER_LEASE)
        except Exception as failure:
            log.warning("table %d: could not take a forwarded tap back: %s", table_id, failure)
            claim = None
        if claim is not None and claim.gone:
            return
        if claim is None or not claim.won:  # (claimed just now by its owner, or the store failed: look again)
            watched.next_look = asyncio.get_running_loop().time() + CLAIM_WAIT
            self._watch(watched)
            return
        log.info("table %d: its owner did not answer a forwarded tap in time; answering it here", table_id)
        self.taken_back_count += 1
        await self._handle(watched.interaction, table_id, here=True)

    # --- the owner ---------------------------------------------------------------------------------------------

    def _heard(self, interaction_id: int, table_id: int) -> None:
        table = self.manager.tables.get(table_id)
        if table is not None and self.placement.shared and self.placement.owns(table):
            self._spawn(self._claim(interaction_id, table_id))

    async def _claim(self, interaction_id: int, table_id: int) -> None:
        try:
            claim = await claim_tap(self.store, interaction_id)
        except Exception as failure:
            log.warning("table %d: could not claim a forwarded tap: %s", table_id, failure)
            return
        if not claim.won or claim.payload is None:
            return
        interaction = discord.Interaction(data=json.loads(claim.payload), state=self.bot._connection)
        # Acknowledged by the process that received it: answers go through the token (edit_original_response,
        # followup), as they do for any tap acknowledged before its answer was ready.
        interaction.response._response_type = discord.InteractionResponseType.deferred_message_update
        await self._handle(interaction, table_id, here=False)

    # --- either ------------------------------------------------------------------------------------------------

    async def _handle(self, interaction: discord.Interaction, table_id: int, *, here: bool) -> None:
        """Handle the tap as the Tables cog handles any component (awaited, so that the row is deleted once it is
        answered), then forget it."""
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        values = [str(v) for v in data.get("values", [])]
        cid = _component_id(custom_id)
        try:
            if cid is not None:
                if here:
                    await self.manager.refresh(table_id)  # this process may not have followed the table's moves
                current_language.set(await language_of(interaction))
                listeners = self.bot.extra_events.get("on_table_component", [])
                await asyncio.gather(*(listener(interaction, cid, values) for listener in listeners))
                self.answered_count += 1
        except Exception:
            log.exception("table %d: a forwarded tap failed", table_id)
        self._answered.append(interaction.id)
        if self._deleting is None or self._deleting.done():
            self._deleting = asyncio.create_task(self._delete_answered())

    async def _delete_answered(self) -> None:
        await asyncio.sleep(ANSWERED_EVERY)
        await self._flush_answered()

    async def _flush_answered(self) -> None:
        answered, self._answered = self._answered, []
        if not answered:
            return
        try:
            await taps_answered(self.store, answered)
        except Exception as failure:
            log.warning("could not mark %d forwarded tap(s) answered: %s", len(answered), failure)

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        tasks = [task for task in (*self._tasks, self._looking, self._deleting) if task is not None and not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self._flush_answered()


def _component_id(custom_id: str) -> ComponentId | None:
    for item in (TableButton, TableSelect):
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return ComponentId.from_match(match)
    return None
