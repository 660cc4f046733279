"""The rows behind forwarded taps and shard leases (migration 0017), on both engines: one claim wins a tap, a claim
left unanswered past its lease is taken over; a stale shard lease is taken by one process, and handed back to its
own process when it asks (bot/storage/forwarded.py, bot/storage/shard_leases.py, bot/tables/leases.py)."""

from __future__ import annotations

import time

from bot.storage.engines import open_store
from bot.storage.forwarded import claim_tap, claims_of, forward_tap, prune_taps, taps_answered
from bot.storage.shard_leases import leases
from bot.tables.leases import ShardLeases
from bot.tables.placement import Placement


async def test_a_forwarded_tap_is_claimed_once_and_taken_over_when_its_claim_is_not_answered(database):
    store = await open_store(database)
    try:
        await forward_tap(store, 901, 7, '{"id": "901"}')
        await forward_tap(store, 901, 7, '{"id": "again"}')  # a second copy of the interaction is ignored
        owner = await claim_tap(store, 901)
        assert owner.won and owner.table_id == 7 and owner.payload == '{"id": "901"}'
        assert not (await claim_tap(store, 901)).won  # one claim only
        await forward_tap(store, 903, 8, "{}")
        looked = await claims_of(store, [901, 903, 904])  # the forwarder's look: claimed when, not yet, answered
        assert set(looked) == {901, 903} and looked[903] is None and abs(looked[901] - time.time()) < 60
        assert not (await claim_tap(store, 901, lease=60.0)).won  # the owner's claim is still fresh
        taken = await claim_tap(store, 901, lease=-1.0)  # …and once it is older than the lease
        assert taken.won and taken.payload == '{"id": "901"}'
        await taps_answered(store, [901, 903])
        assert await claims_of(store, [901, 903]) == {}
        assert (await claim_tap(store, 901, lease=0.0)).gone
        await forward_tap(store, 902, 7, "{}")
        await prune_taps(store, -1.0)  # (forwarded "before now + 1 s": pruned)
        assert (await claim_tap(store, 902, lease=0.0)).gone
    finally:
        await store.close()


async def test_a_stale_shard_is_taken_over_by_one_process_and_handed_back_when_its_own_is_back(database):
    store = await open_store(database)
    try:
        own = [Placement.of(3, [shard], store) for shard in range(3)]
        beats = [ShardLeases(store, own[shard], f"{shard}/3:first", stale_after=5.0) for shard in range(3)]
        for _ in range(2):  # (the first beats see only the leases taken before them)
            for beat in beats:
                await beat.beat()
        assert [p.held for p in own] == [{0}, {1}, {2}]
        assert own[0].alive == {1, 2} and own[1].alive == {0, 2}

        # Process 1 dies: its lease is not renewed (made old here rather than waited for).
        await store.write_one("UPDATE shard_leases SET renewed_at = ? WHERE shard_id = 1", (time.time() - 60,))
        await beats[0].beat()
        await beats[2].beat()  # the second to look finds it taken already
        assert own[0].held == {0, 1} and own[2].held == {2} and own[2].alive == {0, 1}  # (1: p0 now)
        taken = {lease.shard_id: lease.holder for lease in await leases(store)}
        assert taken == {0: "0/3:first", 1: "0/3:first", 2: "2/3:first"}

        # Process 1 is started again (a new token): it cannot take a lease p0 renews, so it asks for it.
        back = Placement.of(3, [1], store)
        restarted = ShardLeases(store, back, "1/3:again", stale_after=5.0)
        await restarted.beat()
        assert back.held == frozenset() and 1 in back.alive  # nobody drives a table twice meanwhile
        await beats[0].beat()  # p0 hands it back…
        assert own[0].held == {0}
        await restarted.beat()  # …and p1 takes it
        assert back.held == {1}
        await beats[0].beat()
        assert own[0].held == {0} and own[0].alive == {1, 2}

        # Process 2 restarted before its lease went stale (a supervisor's quick restart): the new start of the same
        # shards takes them at once, and the old one, were it still running, holds nothing at its next beat.
        new_two = Placement.of(3, [2], store)
        await ShardLeases(store, new_two, "2/3:again", stale_after=5.0).beat()
        assert new_two.held == {2}
        await beats[2].beat()
        assert own[2].held == frozenset() and 2 in own[2].alive
    finally:
        await store.close()
