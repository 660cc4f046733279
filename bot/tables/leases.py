"""Which process does the table work of each shard, kept in the store as leases (bot/storage/shard_leases.py).

A process sharing the shards renews the leases of its own shards every ``BEAT``.  When a process dies, its leases go
stale after ``lease_seconds``; the first other process to see it takes each of them over with a conditional write
(one taker wins) and does those tables' work — their computers, clocks, table messages, forwarded taps — until the
shard's own process is back.  That one, started again, asks for its shards (it cannot take a lease a live process
renews), the taker hands each back at its next beat and stops, and the owner takes it and resumes its tables.  A
process started again before its lease went stale (a supervisor's quick restart) takes its shards at once: the
holder is the process it replaces (the token names the shards it was started for).  So a
table is driven by one process at a time; and should two overlap for a moment (a beat's write racing a move), the
action log's (table, deal, sequence) key still lets one move alone be stored for a turn.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bot.storage.shard_leases import (
    hold_own_shard,
    leases,
    release_shard,
    renew_taken_shard,
    take_stale_shard,
    want_shard_back,
)
from bot.storage.store import Store
from bot.tables.placement import Placement

log = logging.getLogger(__name__)

# Seconds between two renewals of a process's leases (and looks at the others').
BEAT = 1.0


class ShardLeases:
    def __init__(
        self,
        store: Store,
        placement: Placement,
        me: str,
        *,
        stale_after: float,
        gained: Callable[[frozenset[int]], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        self.placement = placement
        self.me = me
        self.stale_after = stale_after
        self.gained = gained
        self._starting = True

    async def beat(self) -> None:
        """Renew this process's leases, hand back the shards their processes want again, take over stale ones;
        then say which shards this process holds (``placement.held``) and which another live one does."""
        placement, store, me = self.placement, self.store, self.me
        count = placement.shard_count
        if count is None:
            return
        stale_before = time.time() - self.stale_after
        for shard in sorted(placement.shard_ids):
            await hold_own_shard(store, shard, me, stale_before, starting=self._starting)
        self._starting = False
        for shard in sorted(placement.held - placement.shard_ids):
            await renew_taken_shard(store, shard, me)
        changed = False
        first = await leases(store)
        for lease in first:
            shard = lease.shard_id
            if shard >= count:
                continue
            if lease.holder == me:
                if shard not in placement.shard_ids and lease.wanted_by is not None:
                    log.info("shard %d: its own process is back; handing its tables back", shard)
                    await release_shard(store, shard, me)
                    changed = True
            elif shard in placement.shard_ids:
                if lease.wanted_by != me:
                    await want_shard_back(store, shard, me)
            elif lease.renewed_at < stale_before:
                await take_stale_shard(store, shard, me, stale_before)
                changed = True
        rows = await leases(store) if changed else first
        fresh = time.time() - self.stale_after
        held = frozenset(lease.shard_id for lease in rows if lease.holder == me and lease.shard_id < count)
        alive = frozenset(
            lease.shard_id
            for lease in rows
            if lease.holder not in (None, me) and lease.renewed_at >= fresh and lease.shard_id < count
        )
        gained, lost = held - placement.held, placement.held - held
        placement.held, placement.alive = held, alive
        for shard in sorted(gained - placement.shard_ids):
            log.warning(
                "shard %d: its process stopped renewing its lease; this process does its tables' work now", shard
            )
        for shard in sorted(lost):
            log.info("shard %d: no longer this process's", shard)
        if gained and self.gained is not None:
            await self.gained(gained)

    async def run(self) -> None:
        """Until cancelled: a beat every ``BEAT`` seconds; a failing store costs a log line, not the loop."""
        while True:
            await asyncio.sleep(BEAT)
            try:
                await self.beat()
            except Exception as failure:
                log.warning("could not renew the shards' leases: %s", failure)
