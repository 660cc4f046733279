"""A clock firing (a reminder, a turn's deadline) is claimed as a lease: the process that claims it may die before
its output is made, and then another process takes the firing over once the lease runs out; a firing done is never
made again.  In the store on both engines, and with real bot processes (``tests/botkit/shard_process.py``) on two
shards of one offline Discord and one PostgreSQL, the claimer SIGKILLed between its claim and its output."""

from __future__ import annotations

import asyncio

from bot.storage import clocks as clock_store
from bot.storage.engines import open_store
from tests.botkit import postgres
from tests.botkit.harness import bot_world
from tests.test_processes import BotProcess
from tests.test_shards import on_shard_one

TURN, DEADLINE = 4, 1_800_000_060.0


async def a_table(store) -> int:
    return await store.create_table(
        guild_id=1, guild_name="g", channel_id=2, channel_name="c", game="toy", preset=None, options={},
        host_id=3, host_name="Host",
    )  # fmt: skip


async def test_a_claim_holds_for_its_lease_then_may_be_taken_over_and_a_done_firing_never_again(database):
    first, second = await open_store(database), await open_store(database)  # two processes' stores
    try:
        table_id = await a_table(first)

        async def claim(store, now: float) -> clock_store.Claim:
            return await clock_store.claim_firing(store, table_id, "remind", TURN, DEADLINE, now=now, lease=30)

        assert (await claim(first, 1000.0)).won
        lost = await claim(second, 1010.0)  # held, and not done: try again when the lease runs out
        assert not lost.won and lost.retry_at == 1030.0
        assert (await claim(second, 1030.0)).won  # the first claimer never finished: taken over
        assert not (await claim(first, 1031.0)).won  # …and now held by the second
        await clock_store.finish_firing(second, table_id, "remind", TURN, DEADLINE)
        done = await claim(first, 5000.0)
        assert not done.won and done.retry_at is None  # done: nobody acts on it again, however late
        # Another turn, or another deadline of the same turn (a player back), is another firing.
        assert (await clock_store.claim_firing(first, table_id, "remind", TURN + 1, DEADLINE, now=1.0, lease=30)).won
        assert (await clock_store.claim_firing(first, table_id, "deadline", TURN, DEADLINE, now=1.0, lease=30)).won
    finally:
        await first.close()
        await second.close()


async def test_done_firings_are_pruned_after_their_keeping_time_and_the_others_kept(database):
    store = await open_store(database)
    try:
        table_id = await a_table(store)
        for turn in (1, 2, 3):
            await clock_store.claim_firing(store, table_id, "deadline", turn, DEADLINE, now=1.0, lease=30)
        await clock_store.finish_firing(store, table_id, "deadline", 1, DEADLINE)
        await clock_store.finish_firing(store, table_id, "deadline", 2, DEADLINE)
        await store.write_one(  # done two days ago
            "UPDATE clock_firings SET done_at = ? WHERE turn = ?", ("2000-01-01T00:00:00.000Z", 1)
        )
        await clock_store.prune_firings(store, older_than=86_400)
        left = await store.fetch_all("SELECT turn, done_at FROM clock_firings ORDER BY turn")
        assert [r[0] for r in left] == [2, 3]  # done just now, and not done: kept
        assert (
            await clock_store.claim_firing(store, table_id, "deadline", 2, DEADLINE, now=9e9, lease=30)
        ).won is False
    finally:
        await store.close()


async def said_by_one_of(processes: list[BotProcess], line: bytes, seconds: float = 30.0) -> BotProcess:
    """The process that prints ``line`` first (or printed it while it started)."""
    for process in processes:
        if line in process.said:
            process.said.remove(line)
            return process
    readers = {asyncio.create_task(p.proc.stdout.readline()): p for p in processes}  # type: ignore[union-attr]
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while readers:
            done, _ = await asyncio.wait(
                readers, timeout=max(0.0, deadline - loop.time()), return_when="FIRST_COMPLETED"
            )
            if not done:
                break
            for task in done:
                process = readers.pop(task)
                if task.result().strip() == line:
                    return process
                if task.result():
                    readers[asyncio.create_task(process.proc.stdout.readline())] = process  # type: ignore[union-attr]
        raise AssertionError(f"nobody said {line!r}")
    finally:
        for task in readers:
            task.cancel()


async def test_a_reminder_and_a_time_out_whose_claimer_is_killed_are_each_made_once_by_another_process(
    tmp_path, postgres_server, monkeypatch
):
    url = await postgres.new_schema(postgres_server)
    monkeypatch.setenv("CARDTABLE_TEST_CUSTOM_MIN", "1")
    monkeypatch.setenv("CARDTABLE_TEST_FIRING_LEASE", "2")
    monkeypatch.setenv("CARDTABLE_TEST_HANG_AFTER_CLAIM", str(tmp_path))
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = BotProcess(world, url, 0, 1), BotProcess(world, url, 1, 2)
        try:
            await a.start()
            await b.start()
            # B (the server's shard) opens and starts the table and arms its clock; A hears of it and arms the same
            # timers: the reminder 3 s after the turn starts (8 s less the 5 s lead), the deadline at 8 s.
            result = await world.slash(world.alice, "table", {"game": "toy", "clock": "8s"}, subcommand="new")
            lobby = result.message
            await world.click(world.bob, lobby, "join")
            await world.click(world.alice, lobby, "start")
            table_id = int(lobby.content.split("table #")[1].split()[0].rstrip(","))
            for kind in (b"remind", b"deadline"):
                holder = await said_by_one_of([a, b], b"CLAIMED " + kind)
                await holder.kill()  # between its claim and anything it says: a supervisor starts it again
                await holder.start()

            store = await open_store(url)
            try:
                for _ in range(200):  # the lease (2 s) runs out, then the time-out is made
                    if any("ran out of time" in m.content for m in world.fake.messages(world.channel)):
                        break
                    await asyncio.sleep(0.05)
                await asyncio.sleep(1.0)  # time for a second copy, were there one
                away = await store.fetch_all("SELECT seat FROM idle_seats WHERE table_id = ? AND away = 1", (table_id,))
                firings = await store.fetch_all(
                    "SELECT kind, done_at FROM clock_firings WHERE table_id = ? ORDER BY turn, kind", (table_id,)
                )
                seats = {
                    r[0]: r[1]
                    for r in await store.fetch_all("SELECT seat, user_id FROM seats WHERE table_id = ?", (table_id,))
                }
            finally:
                await store.close()
        finally:
            await a.stop()
            await b.stop()
        assert len(away) == 1, away  # timed out once
        mover = seats[away[0][0]]
        texts = [m.content for m in world.fake.messages(world.channel)]
        reminders = [t for t in texts if f"<@{mover}>" in t and f"it is your turn at table #{table_id} in" in t]
        time_outs = [t for t in texts if f"<@{mover}> ran out of time at table #{table_id}" in t]
        assert len(reminders) == 1, texts
        assert len(time_outs) == 1, texts
        assert [kind for kind, _ in firings[:2]] == ["deadline", "remind"] and all(done for _, done in firings[:2])
