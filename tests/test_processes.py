"""Real bot processes (``tests/botkit/shard_process.py``) on two shards of one offline Discord and one PostgreSQL
database; the one serving the table's server is killed with SIGKILL while it answers a move, and a supervisor starts
it again.  Every acknowledged action is in the record once, nothing is applied twice, every clock fires once."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys

from bot.storage.engines import open_store
from bot.tables.service import TableManager
from rules.game import GAME_OVER
from tests.botkit import postgres
from tests.botkit.harness import act_through_ui, bot_world
from tests.test_shards import on_shard_one

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class BotProcess:
    """``guild``: the server its commands are registered in (the world's by default); ``shards``: the bot's count."""

    def __init__(
        self, world, url: str, shard: int, seed: int, *, env: dict[str, str] | None = None, shards: int = 2, guild=None
    ):
        self.env = {**os.environ, **(env or {})}
        self.args = [
            world.fake.api_base,
            world.fake.gateway_url,
            world.fake.token,
            url,
            str(shard),
            str(shards),
            str((guild or world.guild).id),
            str(seed),
        ]
        self.proc: asyncio.subprocess.Process | None = None
        self.said: list[bytes] = []  # lines it printed before READY (a claim made while it resumed its tables)

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.botkit.shard_process",
            *self.args,
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env=self.env,
        )
        assert self.proc.stdout is not None
        while (line := (await asyncio.wait_for(self.proc.stdout.readline(), 60)).strip()) != b"READY":
            assert line, "the bot process ended before it was ready"
            self.said.append(line)

    async def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), 10)
            except TimeoutError:
                await self.kill()


async def the_game(url: str, table_id: int):
    """The table as the database has it now (a fresh manager: what any process would load)."""
    store = await open_store(url)
    try:
        return await TableManager(store, None, ai_delay=0).get(table_id), store
    except BaseException:
        await store.close()
        raise


async def test_a_bot_process_killed_mid_move_loses_no_acknowledged_action_and_applies_none_twice(
    tmp_path, postgres_server
):
    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a, b = BotProcess(world, url, 0, 1), BotProcess(world, url, 1, 2)
        try:
            await a.start()
            await b.start()
            lobby = await world.new_table(world.alice, "toy")  # shard 1: process B
            await world.click(world.bob, lobby, "join")
            await world.click(world.alice, lobby, "start")
            table_id = int(lobby.content.split("table #")[1].split()[0].rstrip(","))
            users = {u.id: u for u in (world.alice, world.bob)}
            rng = random.Random(3)
            acknowledged: list[int] = []  # the interactions whose move the players saw confirmed
            killed_at: int | None = None
            for step in range(200):
                table, store = await the_game(url, table_id)
                await store.close()
                if table.match.phase == GAME_OVER:
                    break
                seat = table.match.to_move
                legal = [x for x in table.match.legal_json() if x.get("seat") == seat]
                if seat is None or not legal:
                    await asyncio.sleep(0.05)
                    continue
                action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
                user = users[table.seats[seat].user_id]
                if step == 6:  # B gets the move and dies with it in hand; a supervisor starts it again
                    sent = asyncio.create_task(act_through_ui(world, table, user, action, slash=True))
                    await asyncio.sleep(0.02)
                    await b.kill()
                    killed_at = step
                    done, _ = await asyncio.wait({sent}, timeout=1)  # answered before it died, or never
                    result = sent.result() if sent in done and sent.exception() is None else None
                    if sent not in done:
                        sent.cancel()
                    await b.start()
                else:
                    result = await act_through_ui(world, table, user, action, slash=True)
                said = (
                    ""
                    if result is None
                    else (result.content or "") + (result.message.content if result.message else "")
                )
                if result is not None and "✅" in said:
                    acknowledged.append(result.id)
            else:
                raise AssertionError("the game did not end")
            assert killed_at is not None
        finally:
            await a.stop()
            await b.stop()
    store = await open_store(url)
    try:
        for interaction in acknowledged:
            rows = await store.fetch_all("SELECT COUNT(*) FROM actions WHERE interaction_id = ?", (str(interaction),))
            assert rows[0][0] == 1, interaction
        results = await store.fetch_all("SELECT COUNT(*) FROM game_results WHERE table_id = ?", (table_id,))
        assert results[0][0] == 1
        assert len(acknowledged) >= 4
    finally:
        await store.close()
