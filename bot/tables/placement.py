"""Which process does a table's work, when several share the shards (docs/running.md, "How a table's work is placed").

Discord sends a server's events to shard ``(guild_id >> 22) % shard_count`` and every DM to shard 0.  Any process
may answer any interaction (the tables are in the shared database), but a table's own work — its computer players,
its clock's outputs, its table message, the other players' live hands — is done by one process: the one that holds
its server's shard, its *owner*.  Another process that receives an interaction for it (a tap on a live hand in the
DMs, which all reach shard 0) validates and stores the action and answers that player; the owner hears of the
change (NOTIFY), catches up, and does the rest.  So with players tapping in their DMs, the computers' moves and the
table pictures of a table still run where its server is, and the work spreads over the processes as the servers do.

A process that holds every shard (one process: SQLite, or PostgreSQL without ``--shard-ids``) owns every table and
works exactly as it always did, with no check of what a message shows.

Several processes may still edit one message (a late edit from a process that did the work before the owner heard
of it, a clock's line, a player's own click answered elsewhere); ``may_show`` keeps a message from going backwards:
before an edit, the version about to be shown is claimed in the store (bot/storage/shown.py), and the edit is left
out if the message already shows a newer one.  The owner, which edits its tables' messages in the normal course,
only records what it shows (not awaited), for the others' claims.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.storage.record_versions import record_versions
from bot.storage.shown import Shown, claim_shown, prune_shown, record_shown_many
from bot.storage.store import PLAYING, Store

if TYPE_CHECKING:
    from bot.tables.service import Table, TableManager

log = logging.getLogger(__name__)

# What a message last showed is kept this long after its last edit: a message not edited for a day belongs to an
# ended table or deal, which no process edits any more.
SHOWN_KEPT = 24 * 3600.0
ALWAYS = Shown(True, None)
# How often the owner of tables checks, for those waiting for a player, whether another process stored a move it
# did not hear of (a NOTIFY sent while it was not listening — starting, its connection lost — never arrives); one
# query for them all.
SWEEP_INTERVAL = 1.0
# What this process's edits show is written for the others at most this often, in one statement for all the messages
# edited meanwhile (the owner edits a message or two per move: a statement each was a quarter of the database work
# that sharing the shards adds, bench/bench_processes.py).  Another process claiming a message within this time may
# see the version before: the claims are for late edits (a tap taken back after ``CLAIM_WAIT``, a shard taken over),
# which come later than this.
RECORD_EVERY = 0.25
# Other processes' tables are not read at every move made there (their owner shows them; this process needs one only
# to answer a player, and reads it first then: ``TableManager.get``), but every this many sweeps, so that ended tables
# leave memory.  Reading them all more often cost a process sharing two cores a tenth of its time (bench_processes).
BEHIND_EVERY = 30


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a server's events to; DMs (no server) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass
class Placement:
    """This process's shards: ``shard_count`` None (or every shard held) means the one process owns every table."""

    shard_count: int | None = None
    shard_ids: frozenset[int] = frozenset()
    store: Store | None = None
    # The shards whose table work this process does now: its own while it holds their leases, and those it took
    # over from a dead process (bot/tables/leases.py); and the shards another live process holds.
    held: frozenset[int] = frozenset()
    alive: frozenset[int] = frozenset()
    # This process's copy of a table, by id (the manager's): whether the process owns the table a message is of.
    table_of: Callable[[int], Table | None] | None = None
    _to_record: dict[int, tuple[int, int]] = field(default_factory=dict)  # message id → (table id, version)
    _recording: asyncio.Task | None = None

    @classmethod
    def of(cls, shard_count: int | None, shard_ids: Iterable[int] | None, store: Store | None) -> Placement:
        ids = frozenset(shard_ids or ())
        if shard_count is None or shard_count <= 1 or not ids or ids >= set(range(shard_count)):
            return cls(store=store)
        return cls(shard_count, ids, store, held=ids)

    @property
    def shared(self) -> bool:
        """Whether other processes run the rest of the bot's shards (and so may edit the same messages)."""
        return self.shard_count is not None

    def owns_guild(self, guild_id: int | None) -> bool:
        return self.shard_count is None or shard_of(guild_id, self.shard_count) in self.held

    def owns(self, table: Table) -> bool:
        """Whether this process runs the table's computers, clock outputs and table message."""
        return self.owns_guild(table.row.guild_id)

    def owner_alive(self, table: Table) -> bool:
        """Whether another process, alive by its lease, does this table's work (it can be handed the table's taps)."""
        return self.shard_count is not None and shard_of(table.row.guild_id, self.shard_count) in self.alive

    def on_shards(self, tables: Iterable[Table], shards: Iterable[int]) -> list[Table]:
        wanted = set(shards)
        count = self.shard_count or 1
        return [table for table in tables if shard_of(table.row.guild_id, count) in wanted]

    async def may_show(self, table_id: int, message_id: int, version: int, *, again: bool = True) -> Shown:
        """Whether message ``message_id`` may be edited to show the table at ``version`` (it shows nothing newer; nor,
        unless ``again``, this version); claimed in the store when other processes may edit it too.  A store that
        fails does not stop the edit."""
        if not self.shared or self.store is None:
            return ALWAYS
        table = self.table_of(table_id) if self.table_of is not None else None
        if table is not None and self.owns(table):
            # The owner edits its tables' messages (others only answer a tap it did not take, or drive the table
            # while it is gone): it records what it shows, for them, without waiting for the store or reading back.
            self.shown(table_id, message_id, version)
            return ALWAYS
        try:
            return await claim_shown(self.store, table_id, message_id, version, again=again)
        except Exception as failure:
            log.warning("table %d: could not check what message %d shows: %s", table_id, message_id, failure)
            return ALWAYS

    def shown(self, table_id: int, message_id: int, version: int) -> None:
        """Message ``message_id`` was just made to show ``version`` (a player's click answered in place): other
        processes' later edits with an older version are left out.  Written within ``RECORD_EVERY``."""
        if not self.shared or self.store is None:
            return
        before = self._to_record.get(message_id)
        if before is None or before[1] < version:
            self._to_record[message_id] = (table_id, version)
        if self._recording is None or self._recording.done():
            self._recording = asyncio.create_task(self._record_soon())

    async def _record_soon(self) -> None:
        await asyncio.sleep(RECORD_EVERY)
        await self.flush()

    async def flush(self) -> None:
        """Write what the messages edited since the last flush show (tests call it to see it written at once)."""
        shown, self._to_record = self._to_record, {}
        if not shown or self.store is None:
            return
        try:
            await record_shown_many(
                self.store, [(message, table, version) for message, (table, version) in shown.items()]
            )
        except Exception as failure:
            log.warning("could not record what %d message(s) show: %s", len(shown), failure)

    async def close(self) -> None:
        """Write what is still to be written (a process stopping)."""
        if self._recording is not None:
            self._recording.cancel()
        await self.flush()

    async def prune(self) -> None:
        if self.store is not None:
            await prune_shown(self.store, SHOWN_KEPT)

    async def sweep(self, manager: TableManager) -> None:
        """Until cancelled: catch up the owned tables that wait for a player when the store has more of their record
        than this process's copy (a move stored elsewhere whose announcement was not heard), so that such a table
        never waits for ever."""
        if not self.shared or self.store is None:
            return
        beats = 0
        while True:
            await asyncio.sleep(SWEEP_INTERVAL)
            beats += 1
            if beats % BEHIND_EVERY == 0:
                try:
                    await manager.catch_up_behind()
                except Exception:
                    log.exception("could not read the tables other processes changed")
            try:
                waiting = {
                    table.id: table.version
                    for table in list(manager.tables.values())
                    if table.status == PLAYING and table.match is not None and self.owns(table)
                    and not manager.plays_itself(table) and not table.lock.locked()
                }  # fmt: skip
                stored = await record_versions(self.store, list(waiting))
                for table_id, version in stored.items():
                    if version > waiting[table_id]:
                        log.info("table %d: a move stored by another process was not announced here", table_id)
                        await manager.refresh(table_id)
            except Exception:
                log.exception("could not check the tables for moves made elsewhere")
