"""The table manager and the store, without Discord: lobby rules, serialised actions, records, restarts."""

from __future__ import annotations

import asyncio
import random

import pytest

import tests.botkit.toy  # noqa: F401  (registers the toy game)
from bot.storage.engines import open_store
from bot.storage.store import CANCELLED, FINISHED, LOBBY, PLAYING
from bot.tables.service import Refusal, TableManager
from rules.game import GAME_OVER
from rules.records import replay

HOST, BOB, CAROL = 101, 102, 103


class Recorder:
    """The manager's ``TableEvents``: what it said, in order."""

    def __init__(self):
        self.events = []

    def __call__(self, event, table, *args):
        if event == "table_acted":
            (outcome,) = args
            self.events.append(("acted", table.id, outcome.action.type, outcome.by_computer))
        else:
            self.events.append((event, table.id, table.status))


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


async def make_manager(store, **kw):
    return TableManager(store, Recorder(), ai_delay=0, rng=random.Random(kw.pop("seed", 1)), **kw)


async def new_table(manager, players=2):
    return await manager.create(
        game="toy", options={"players": players}, preset=None, host_id=HOST, host_name="Host", channel_id=5
    )


async def test_migrations_are_applied_once(database):
    path = database
    s = await open_store(path)
    version = await s.schema_version()
    await s.close()
    s = await open_store(path)
    assert await s.schema_version() == version >= 1
    await s.close()


async def test_bad_options_are_refused_with_the_engine_message(store):
    manager = await make_manager(store)
    with pytest.raises(Refusal, match="players"):
        await manager.create(game="toy", options={"players": 9}, preset=None, host_id=1, host_name="h", channel_id=1)
    with pytest.raises(Refusal, match="unknown option"):
        await manager.create(game="toy", options={"nope": 1}, preset=None, host_id=1, host_name="h", channel_id=1)


async def test_lobby_rules(store):
    manager = await make_manager(store)
    table = await new_table(manager, players=3)
    assert table.seat_of(HOST) == 0
    with pytest.raises(Refusal, match="already in seat 1"):
        await manager.join(table.id, HOST, "Host")
    assert await manager.join(table.id, BOB, "Bob") == 1
    with pytest.raises(Refusal, match="Only the host"):
        await manager.start(table.id, BOB)
    with pytest.raises(Refusal, match="1 more player needed"):
        await manager.start(table.id, HOST)
    with pytest.raises(Refusal, match="Only the host"):
        await manager.add_computer(table.id, BOB)
    assert await manager.join(table.id, BOB, "Bob", seat=2) == 2  # moves
    assert await manager.add_computer(table.id, HOST) == 1
    with pytest.raises(Refusal, match="full"):
        await manager.join(table.id, CAROL, "Carol")
    await manager.leave(table.id, BOB)
    assert await manager.join(table.id, CAROL, "Carol") == 2
    row = await store.load_table(table.id)
    assert {s: (r.user_id, r.computer) for s, r in row.seats.items()} == {
        0: (HOST, None),
        1: (None, "random"),
        2: (CAROL, None),
    }


async def test_host_leaving_alone_cancels(store):
    manager = await make_manager(store)
    table = await new_table(manager)
    await manager.leave(table.id, HOST)
    assert (await store.load_table(table.id)).status == CANCELLED


async def play_out(manager, table, users):
    """Humans play random legal actions until the game ends (computer seats act by themselves)."""
    rng = random.Random(3)
    for _ in range(5000):  # forced cards are played by a task: on PostgreSQL each takes a few ms
        await asyncio.sleep(0)
        match = table.match
        if match.phase == GAME_OVER:
            async with table.lock:  # the engine ends the game before the store has it: wait for the write
                return
        seat = match.to_move
        mine = [a for a in match.legal_actions() if a.seat == seat]
        if table.is_computer(seat) or manager.plays_itself(table) or not mine:  # (a forced card is played for them)
            await asyncio.sleep(0.001)
            continue
        action = rng.choice(mine).to_json()
        del action["seat"]
        await manager.act(table.id, users[seat], action, expected_version=table.version)
    raise AssertionError("the game did not end")


async def test_a_whole_game_with_a_computer_is_recorded_and_replays(store):
    manager = await make_manager(store)
    table = await new_table(manager)
    await manager.add_computer(table.id, HOST)
    await manager.start(table.id, HOST)
    await play_out(manager, table, {0: HOST})
    for _ in range(50):
        await asyncio.sleep(0)
    row = await store.load_table(table.id)
    assert row.status == FINISHED
    stored = await store.load_record(row)
    assert stored.to_json() == table.record.to_json()
    assert replay(stored).match.phase == GAME_OVER
    assert ("acted", table.id, "play", True) in manager.events.events


async def test_refusals(store):
    manager = await make_manager(store)
    table = await new_table(manager)
    await manager.join(table.id, BOB, "Bob")
    await manager.start(table.id, HOST)
    users = {0: HOST, 1: BOB}
    mover = users[table.match.to_move]
    other = users[1 - table.match.to_move]
    with pytest.raises(Refusal, match="not seated"):
        await manager.act(table.id, CAROL, {"type": "pass"})
    with pytest.raises(Refusal, match="not your turn"):
        await manager.act(table.id, other, {"type": "pass"})
    with pytest.raises(Refusal, match="not an action"):
        await manager.act(table.id, mover, {"type": "dance"})
    with pytest.raises(Refusal, match="already started"):
        await manager.join(table.id, CAROL, "Carol")
    # Nothing refused reached the record.
    assert table.record.deals[0].actions == []


async def test_a_double_click_is_applied_once(store):
    manager = await make_manager(store)
    table = await new_table(manager)
    await manager.join(table.id, BOB, "Bob")
    await manager.start(table.id, HOST)
    mover = {0: HOST, 1: BOB}[table.match.to_move]
    version = table.version
    results = await asyncio.gather(
        manager.act(table.id, mover, {"type": "bid", "value": 1}, expected_version=version),
        manager.act(table.id, mover, {"type": "bid", "value": 1}, expected_version=version),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Refusal) for r in results) == 1
    refusal = next(r for r in results if isinstance(r, Refusal))
    assert "out of date" in refusal.message
    assert len(table.record.deals[0].actions) == 1


async def test_a_restart_resumes_the_game_from_the_store(database):
    path = database
    store = await open_store(path)
    manager = await make_manager(store)
    table = await new_table(manager)
    await manager.join(table.id, BOB, "Bob")
    lobby = await new_table(manager)
    await manager.start(table.id, HOST)
    mover = {0: HOST, 1: BOB}[table.match.to_move]
    await manager.act(table.id, mover, {"type": "bid", "value": 2})
    before = table.match.output()
    await manager.close()
    await store.close()

    store = await open_store(path)
    manager = await make_manager(store, seed=2)
    resumed = {t.id: t for t in await manager.resume_all()}
    assert resumed[lobby.id].status == LOBBY
    again = resumed[table.id]
    assert again.status == PLAYING
    assert again.match.output() == before
    await play_out(manager, again, {0: HOST, 1: BOB})
    assert (await store.load_table(table.id)).status == FINISHED
    await store.close()


async def test_finished_tables_stay_queryable(store):
    manager = await make_manager(store)
    table = await new_table(manager)
    await manager.add_computer(table.id, HOST)
    await manager.start(table.id, HOST)
    await play_out(manager, table, {0: HOST})
    manager.tables.clear()
    loaded = await manager.get(table.id)
    assert loaded.status == FINISHED
    assert loaded.match.phase == GAME_OVER


async def test_the_lobby_counts_the_missing_players_in_words(store):
    from bot.presentation.messages import lobby_content

    manager = await make_manager(store)
    table = await new_table(manager, players=3)
    assert "Waiting for 2 more players." in lobby_content(table)
    await manager.join(table.id, BOB, "Bob")
    assert "Waiting for 1 more player." in lobby_content(table)
    await manager.join(table.id, CAROL, "Carol")
    assert "All seats are taken: the host can start." in lobby_content(table)
