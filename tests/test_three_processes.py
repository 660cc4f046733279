"""Three real bot processes (``tests/botkit/shard_process.py``) on the three shards of one offline Discord, with one
PostgreSQL database: a table on each shard, its players tapping their live hands in their DMs (which reach shard 0's
process and are forwarded to the table's).  The third process is SIGKILLed while it handles a tap, its move stored and
not yet answered, and is not started again: its shard's lease goes stale and another process does its tables' work.
Every table keeps working, every acknowledged action is stored once, none twice, and a turn clock armed by the dead
process fires once."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

from bot.storage.engines import open_store
from bot.storage.shard_leases import leases
from rules.game import GAME_OVER
from rules.records import replay
from tests.botkit import postgres
from tests.botkit.harness import TIMEOUT, bot_world, find_id, tap_action
from tests.fakediscord.gateway import shard_of
from tests.test_placement import the_game
from tests.test_processes import BotProcess

SHARDS = 3
ENV = {
    "CARDTABLE_LEASE_SECONDS": "2",  # a dead process's shard is taken over 2 s after its last renewal
    "CARDTABLE_TEST_CUSTOM_MIN": "1",  # an 8-second turn clock
    "CARDTABLE_TEST_ANSWER_LEASE": "3",  # a forwarded tap claimed by a dead process is answered by shard 0's after 3 s
}


class Server:
    """A Discord server on one shard, its channel and its own players (each table's players have their own DMs)."""

    def __init__(self, world, shard: int):
        fake = world.fake
        self.guild = fake.add_guild(f"Club {shard}")
        while shard_of(self.guild.id, SHARDS) != shard:
            self.guild = fake.add_guild(f"Club {shard}")
        self.channel = fake.add_text_channel(self.guild, "tables")
        self.users = []
        for n in range(4):
            user = fake.add_user(f"player{shard}{n}")
            fake.add_member(self.guild, user)
            self.users.append(user)


async def open_table(world, server: Server, players: list, options: dict) -> int:
    """A toy table opened in the server's channel (its shard's process answers), its players seated, started."""
    host = players[0]
    result = await world.fake.slash(host, server.channel, "table", {"game": "toy", **options}, subcommand="new")
    await result.wait(TIMEOUT)
    lobby = result.message
    assert lobby is not None, result.content
    for guest in players[1:]:
        await world.click(guest, lobby, "join")
    if options.get("options") == "players=3":
        await world.click(host, lobby, "cpu")
    await world.click(host, lobby, "start")
    return int(find_id(lobby, "hand").split(":")[1])


def dm_hand(world, user, table_id: int, version: int):
    """The user's live hand of this table in their DMs, once it offers the choices of table ``version``."""
    for message in reversed(world.dms(user)):
        ids = [c for c in message.custom_ids() if c.startswith(f"ct:{table_id}:hp:")]
        if ids:
            return message if any(f":hp:{version}:" in c for c in ids) else None
    return None


class Players:
    """The humans of the played tables: each taps a random legal move on their DM hand when it shows their turn."""

    def __init__(self, world, url: str, users: list):
        self.world, self.url = world, url
        self.users = {u.id: u for u in users}
        self.rng = random.Random(20)
        self.taps: list[int] = []  # every tap that made a move, or tried to
        self.acknowledged: list[int] = []  # those whose answer said the move was made

    async def version(self, table_id: int) -> int:
        game, store = await the_game(self.url, table_id)
        await store.close()
        return game.version

    async def tap(self, table_id: int) -> bool:
        """Tap a move at the table if a human is to move and their hand shows it; whether one was tapped."""
        table, store = await the_game(self.url, table_id)
        await store.close()
        seat = table.match.to_move
        user = self.users.get(table.seats[seat].user_id) if seat is not None else None
        hand = dm_hand(self.world, user, table_id, table.version) if user is not None else None
        if table.match.phase == GAME_OVER or hand is None:
            return False
        legal = [x for x in table.match.legal_json() if x.get("seat") == seat]
        action = {k: v for k, v in self.rng.choice(legal).items() if k != "seat"}
        result = await tap_action(self.world, table, user, hand, action)
        self.taps.append(result.id)
        answer = (result.content or "") + (result.message.content if result.message else "")
        if "✅" in answer:
            self.acknowledged.append(result.id)
        return True

    async def play(self, tables: list[int], moves: int, seconds: float = 60.0) -> None:
        """Until each table has moved ``moves`` times more (or ended): humans tap, computers follow."""
        loop = asyncio.get_running_loop()
        start = {t: await self.version(t) for t in tables}
        give_up = loop.time() + seconds
        while loop.time() < give_up:
            behind = [t for t in tables if await self.version(t) < start[t] + moves]
            behind = [t for t in behind if (await the_game_over(self.url, t)) is False]
            if not behind:
                return
            tapped = [await self.tap(t) for t in behind]
            if not any(tapped):
                await asyncio.sleep(0.05)
        raise AssertionError(f"tables did not move on: {[(t, start[t], await self.version(t)) for t in tables]}")


async def the_game_over(url: str, table_id: int) -> bool:
    game, store = await the_game(url, table_id)
    await store.close()
    return game.match.phase == GAME_OVER


async def said_line(process: BotProcess, prefix: bytes) -> bytes:
    assert process.proc is not None and process.proc.stdout is not None
    while True:
        line = (await asyncio.wait_for(process.proc.stdout.readline(), TIMEOUT)).strip()
        assert line, "the process ended"
        if line.startswith(prefix):
            return line


async def test_three_processes_one_killed_mid_action_its_tables_move_on_each_action_once_its_clock_fires_once(
    tmp_path, postgres_server
):
    url = await postgres.new_schema(postgres_server)
    freeze = Path(tmp_path) / "freeze"
    freeze.mkdir()
    async with bot_world(tmp_path, database=url) as world:
        servers = [Server(world, shard) for shard in range(SHARDS)]
        processes = [
            BotProcess(world, url, shard, shard + 1, env=ENV, shards=SHARDS, guild=servers[shard].guild)
            for shard in range(SHARDS)
        ]
        processes[2].env["CARDTABLE_TEST_FREEZE_AFTER_ACT"] = str(freeze)
        try:
            for process in processes:
                await process.start()
            # A table on each shard: two humans and a computer, which only the table's process moves.
            tables = [await open_table(world, server, server.users[:2], {"options": "players=3"}) for server in servers]
            players = Players(world, url, [u for server in servers for u in server.users])
            await players.play(tables, moves=3)

            # On shard 2, a table with an 8-second turn clock that nobody plays: armed by process 2.
            clocked = await open_table(world, servers[2], servers[2].users[2:], {"clock": "8s"})
            armed_at = asyncio.get_running_loop().time()
            # Process 2 stores the next tap on its table and stops dead before answering it; it is killed.
            (freeze / "armed").touch()
            before = await players.version(tables[2])
            tapping = asyncio.create_task(retry_until_tapped(players, tables[2]))
            await said_line(processes[2], b"ACTED")
            await processes[2].kill()
            assert asyncio.get_running_loop().time() - armed_at < 8  # the clock had not run out: the others fire it
            await tapping  # answered all the same, by shard 0's process once the claim's lease ran out
            killed = players.taps[-1]
            assert killed in players.acknowledged  # told that the move was made, not that their hand was out of date
            assert await players.version(tables[2]) > before

            # Its tables move on in the others: taps, computers, the clock.
            await players.play(tables, moves=4)
            holder = {lease.shard_id: lease.holder for lease in await leases_of(url)}[2]
            assert holder is not None and holder.split("/")[0] in ("0", "1"), holder  # taken over by a live process
            time_outs = await timed_out(world, servers[2].channel, clocked)
            await asyncio.sleep(1.5)  # time for a second copy, were there one
            assert await timed_out(world, servers[2].channel, clocked) == time_outs
        finally:
            for process in processes:
                await process.stop()

    store = await open_store(url)
    try:
        rows = await store.fetch_all("SELECT COUNT(*) FROM actions WHERE interaction_id = ?", (str(killed),))
        assert rows[0][0] == 1  # stored by the process killed before it answered: kept, and not made again
        for interaction in players.taps:
            rows = await store.fetch_all("SELECT COUNT(*) FROM actions WHERE interaction_id = ?", (str(interaction),))
            assert rows[0][0] <= 1, interaction  # never applied twice
        for interaction in players.acknowledged:
            rows = await store.fetch_all("SELECT COUNT(*) FROM actions WHERE interaction_id = ?", (str(interaction),))
            assert rows[0][0] == 1, interaction  # never lost
        assert len(players.acknowledged) >= 10
        for table_id in [*tables, clocked]:
            record = await store.load_record(await store.load_table(table_id))
            assert replay(record).error is None
        done = await store.fetch_all(
            "SELECT COUNT(*) FROM clock_firings WHERE table_id = ? AND kind = 'deadline' AND done_at IS NOT NULL",
            (clocked,),
        )
        assert done[0][0] >= 1
    finally:
        await store.close()
    # Each time-out was said once (one per player: a player timed out is away, a computer plays for them).
    assert time_outs and len(set(time_outs)) == len(time_outs), time_outs


async def leases_of(url: str) -> list:
    store = await open_store(url)
    try:
        return await leases(store)
    finally:
        await store.close()


async def retry_until_tapped(players: Players, table_id: int) -> None:
    for _ in range(int(TIMEOUT / 0.05)):
        if await players.tap(table_id):
            return
        await asyncio.sleep(0.05)
    raise AssertionError("no tap at the table")


async def timed_out(world, channel, table_id: int, seconds: float = 30.0) -> list[str]:
    """Who ran out of time at the table, one mention per time-out said in the channel (waits for the first)."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while True:
        said = [m.content for m in world.fake.messages(channel) if f"ran out of time at table #{table_id}" in m.content]
        if said or loop.time() > give_up:
            return [re.findall(r"<@\d+>", text)[0] for text in said]
        await asyncio.sleep(0.05)
