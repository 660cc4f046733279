"""Several bot processes sharing the shards and one PostgreSQL database, against one offline Discord: each process
gets its own shards' guilds (Discord's ``(guild_id >> 22) % num_shards``) and shard 0 every DM, and any of them can
answer any interaction because the tables are in the database."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.clocks.clock import FakeClock
from bot.clocks.service import OWNER_FIRST
from bot.clocks.state import clock_of
from bot.process import cli
from bot.process.client import CardTableBot, ShardedCardTableBot, bot_for
from bot.process.settings import Settings, SettingsError
from bot.storage.engines import open_store
from rules.game import GAME_OVER
from tests.botkit import postgres
from tests.botkit.harness import act_through_ui, bot_world, tap_action
from tests.fakediscord.gateway import shard_of

TOKEN = "MjIyMjIyMjIyMjIyMjIyMjIy.ZW52.ZnJvbS1lbnY"


def test_the_shards_a_process_runs():
    plain = Settings(token=TOKEN)
    assert plain.shards() is None and type(bot_for(plain)) is CardTableBot
    one = plain.with_shards(4, "2")
    assert one.shards() == (4, [2])
    assert (bot_for(one).shard_id, bot_for(one).shard_count) == (2, 4)
    several = plain.with_shards(4, "0-1")
    assert several.shards() == (4, [0, 1]) and isinstance(bot_for(several), ShardedCardTableBot)
    assert plain.with_shards(3, None).shards() == (3, [0, 1, 2])
    with pytest.raises(SettingsError, match="not among the bot's 2"):
        plain.with_shards(2, "1-2").shards()
    with pytest.raises(SettingsError, match="a range like 0-3"):
        plain.with_shards(2, "one")


def test_run_refuses_shards_it_cannot_serve(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    none = str(tmp_path / "none")
    assert cli.main(["run", "--env-file", none, "--shards", "2", "--shard-ids", "0-2"]) == 2
    assert "not among the bot's 2" in capsys.readouterr().err
    assert cli.main(["run", "--env-file", none, "--shards", "2", "--shard-ids", "1"]) == 2
    assert capsys.readouterr().err.strip() == (
        "cardtable run: several processes share the shards only with DATABASE_URL (PostgreSQL)"
    )


async def until(condition, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


def on_shard_one(world) -> None:
    """The world's table server on shard 1 of 2 (process B); the players' DMs come to shard 0 (process A)."""
    fake = world.fake
    guild = fake.add_guild("Shard One Club")
    while shard_of(guild.id, 2) != 1:
        guild = fake.add_guild("Shard One Club")
    world.guild, world.channel = guild, fake.add_text_channel(guild, "tables")
    for user in (world.alice, world.bob):
        fake.add_member(guild, user)


async def test_two_processes_on_two_shards_play_one_game_each_action_once(tmp_path, postgres_server):
    url = await postgres.new_schema(postgres_server)
    async with bot_world(tmp_path, database=url) as world:
        fake = world.fake
        on_shard_one(world)
        guild_id = world.guild.id
        a, b = world.bot(1, shard_id=0, shard_count=2), world.bot(2, shard_id=1, shard_count=2)
        async with fake.running(a), fake.running(b):
            lobby = await world.new_table(world.alice, "toy")  # answered by B: the server is on its shard
            await world.click(world.bob, lobby, "join")
            await world.click(world.alice, lobby, "start")
            table_id = max(b.manager.tables)
            await until(lambda: a.manager.tables.get(table_id) is not None)  # A heard of it (or loads it)
            users = {u.id: u for u in (world.alice, world.bob)}
            rng = random.Random(5)
            done: list[dict] = []
            # actions made from the DMs (acknowledged by A, which hands them to B) and from the server's channel (B)
            answered_by = [0, 0]
            for step in range(400):
                for bot in (a, b):
                    await world.settle(bot, rounds=1)
                ta, tb = a.manager.tables.get(table_id), b.manager.tables.get(table_id)
                if ta is None or tb is None or tb.match.phase == GAME_OVER:
                    break
                # A reads B's table when it needs it (here: to plan the taps as the player sees the hand).
                ta = await a.manager.refresh(table_id)
                stored_version = await a.store.record_version(table_id)
                assert ta.version == tb.version == stored_version, (ta.version, tb.version, stored_version)
                seat = tb.match.to_move
                legal = [x for x in tb.match.legal_json() if x.get("seat") == seat]
                if seat is None or not legal:
                    continue
                action = {k: v for k, v in rng.choice(legal).items() if k != "seat"}
                user = users[tb.seats[seat].user_id]
                if step % 2:  # a slash command in the server's channel: shard 1, process B
                    result = await act_through_ui(world, tb, user, action, slash=True)
                else:  # from the live hand in the DMs: shard 0, process A
                    hands = [m for m in world.dms(user) if m.custom_ids() and "**Your hand**" in m.content]
                    result = await tap_action(world, ta, user, hands[-1], action)
                answer = (result.content or "") + (result.message.content if result.message else "")
                if "✅" in answer:
                    done.append(action)
                    answered_by[step % 2] += 1
            else:
                raise AssertionError("the game did not end")
            await world.settle(b)
            # The old table messages pointed at the new ones with the server's link, whichever process wrote them.
            edits = [c.json for c in fake.channel_calls(world.channel) if c.method == "PATCH" and c.json]
            links = [e["content"] for e in edits if "goes on below" in (e.get("content") or "")]
            assert links and all(f"/channels/{guild_id}/" in text for text in links), links

    store = await open_store(url)
    try:
        record = await store.load_record(await store.load_table(table_id))
        stored = [{k: v for k, v in x.items() if k != "seat"} for deal in record.deals for x in deal.actions]
        # Every acknowledged action is in the record, in order, once (the rest were played for a player).
        it = iter(stored)
        assert all(any(x == y for y in it) for x in done), (done, stored)
        assert min(answered_by) >= 2, answered_by
        results = await store.fetch_all("SELECT COUNT(*) FROM game_results WHERE table_id = ?", (table_id,))
        assert results[0][0] == 1
    finally:
        await store.close()


async def test_each_deadline_fires_once_across_processes_and_outlives_the_process_that_armed_it(
    tmp_path, postgres_server
):
    url = await postgres.new_schema(postgres_server)
    clock = FakeClock()
    async with bot_world(tmp_path, database=url) as world:
        on_shard_one(world)
        a = world.bot(1, shard_id=0, shard_count=2, clock=clock)
        b = world.bot(2, shard_id=1, shard_count=2, clock=clock)

        async def advance(seconds: float, *bots) -> None:
            await clock.advance(seconds)
            for bot in bots:
                await world.settle(bot)
                await bot.clocks.settle()

        def timeouts(table_id: int, since: int) -> list[str]:
            return [
                m.content
                for m in world.fake.messages(world.channel)[since:]
                if "ran out of time" in m.content and f"table #{table_id}:" in m.content
            ]

        async def started_by_b() -> tuple:
            """A table B starts (B arms its first deadline); A hears of it and arms the same timers."""
            tb = await world.seated_and_started(b, [world.alice, world.bob], clock="live")
            await b.clocks.settle()
            await until(lambda: a.manager.tables.get(tb.id) is not None)
            ta = a.manager.tables[tb.id]
            await until(lambda: clock_of(ta) is not None and clock_of(ta).deadline == clock_of(tb).deadline)
            return ta, tb

        async with world.fake.running(a):
            async with world.fake.running(b):
                _, first = await started_by_b()
                mark = len(world.fake.messages(world.channel))
                await advance(61, a, b)  # both processes' timers fire: one of them acts
                assert len(timeouts(first.id, mark)) == 1, timeouts(first.id, mark)
                claims = await a.store.fetch_all("SELECT kind FROM clock_firings WHERE table_id = ?", (first.id,))
                assert sorted(r[0] for r in claims) == ["deadline", "remind"]  # one reminder, one time-out
                _, second = await started_by_b()
                mover = clock_of(second).seat
                mark = len(world.fake.messages(world.channel))
            # B, which armed the second table's deadline and owns it, is gone; A's copy of the timer fires, once,
            # after leaving it to the owner for OWNER_FIRST.
            await advance(61, a)
            assert timeouts(second.id, mark) == []
            await advance(OWNER_FIRST + 1, a)
            texts = timeouts(second.id, mark)
            assert len(texts) == 1 and f"<@{second.seats[mover].user_id}>" in texts[0], texts
