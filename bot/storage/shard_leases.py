"""Which process does the table work of which shard (migration 0017; bot/tables/leases.py).

Each process renews the lease of its own shards every beat.  A lease not renewed for a while is stale: its process is
dead or cut off, and another process takes the shard over with a conditional write (one taker wins) and does its
tables' work until the shard's own process is back: that one asks for it (``wanted_by``), the taker hands it back
(``holder`` NULL) at its next beat, and the owner takes it at its own.  Times are seconds since the epoch from each
process's clock (keep the machines' clocks in step: NTP).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from bot.storage.store import Store


@dataclass(frozen=True)
class Lease:
    shard_id: int
    holder: str | None
    renewed_at: float
    wanted_by: str | None


async def hold_own_shard(store: Store, shard_id: int, me: str, stale_before: float, *, starting: bool = False) -> None:
    """Take or renew the lease of one of this process's own shards: when nobody holds it, this process does, or its
    holder's lease is stale; and (``starting``) when a process started before it for the same shards holds it (``me``
    is ``<its shards>:<a token of this start>``): the one it replaces, dead or about to be stopped, which holds
    nothing from its next beat.  A live process that took it over keeps it until it hands it back."""
    same_shards = me.split(":", 1)[0] + ":%" if starting else me
    await store.write_one(
        "INSERT INTO shard_leases (shard_id, holder, renewed_at) VALUES (?, ?, ?) ON CONFLICT (shard_id) DO UPDATE"
        " SET holder = excluded.holder, renewed_at = excluded.renewed_at, wanted_by = NULL"
        " WHERE shard_leases.holder IS NULL OR shard_leases.holder = excluded.holder OR shard_leases.holder LIKE ?"
        " OR shard_leases.renewed_at < ?",
        (shard_id, me, time.time(), same_shards, stale_before),
    )


async def renew_taken_shard(store: Store, shard_id: int, me: str) -> None:
    """Renew a shard taken over from its dead process, unless that process is back and wants it."""
    await store.write_one(
        "UPDATE shard_leases SET renewed_at = ? WHERE shard_id = ? AND holder = ? AND wanted_by IS NULL",
        (time.time(), shard_id, me),
    )


async def take_stale_shard(store: Store, shard_id: int, me: str, stale_before: float) -> None:
    """Take over a shard whose holder stopped renewing its lease (a conditional write: one taker wins)."""
    await store.write_one(
        "UPDATE shard_leases SET holder = ?, renewed_at = ?, wanted_by = NULL WHERE shard_id = ? AND renewed_at < ?",
        (me, time.time(), shard_id, stale_before),
    )


async def want_shard_back(store: Store, shard_id: int, me: str) -> None:
    await store.write_one(
        "UPDATE shard_leases SET wanted_by = ? WHERE shard_id = ? AND (holder IS NULL OR holder <> ?)",
        (me, shard_id, me),
    )


async def release_shard(store: Store, shard_id: int, me: str) -> None:
    """Hand a taken shard back: its own process, which asked for it, takes it at its next renewal."""
    await store.write_one("UPDATE shard_leases SET holder = NULL WHERE shard_id = ? AND holder = ?", (shard_id, me))


async def leases(store: Store) -> list[Lease]:
    rows = await store.fetch_all("SELECT shard_id, holder, renewed_at, wanted_by FROM shard_leases")
    return [Lease(int(r["shard_id"]), r["holder"], float(r["renewed_at"]), r["wanted_by"]) for r in rows]
