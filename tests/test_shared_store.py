"""Two table managers on one database, as two bot processes sharing it: an action is stored at most once at its place
in the record; the process whose copy of the table is stale reloads it and checks the move again."""

from __future__ import annotations

import asyncio
import random

import pytest

import tests.botkit.toy  # noqa: F401  (registers the toy game)
from bot.storage.engines import open_store
from bot.tables.service import Refusal, TableManager
from tests.botkit import postgres

HOST, BOB = 101, 102


def body(action) -> dict:
    move = action.to_json()
    del move["seat"]
    return move


def user_to_move(table) -> int:
    return {0: HOST, 1: BOB}[table.match.to_move]


async def test_a_click_seen_by_two_processes_is_applied_once_and_a_stale_process_catches_up(database):
    store_a, store_b = await open_store(database), await open_store(database)
    try:
        a = TableManager(store_a, None, ai_delay=0, rng=random.Random(1))
        table = await a.create(
            game="toy", options={"players": 2}, preset=None, host_id=HOST, host_name="Host", channel_id=5
        )
        await a.join(table.id, BOB, "Bob")
        await a.start(table.id, HOST)
        b = TableManager(store_b, None, ai_delay=0, rng=random.Random(2))
        (seen_by_b,) = await b.resume_all()

        # A double click: the first copy reaches process A, the second process B, whose table is one move behind.
        mover = user_to_move(table)
        click = body(table.match.legal_actions()[0])
        await a.act(table.id, mover, click)
        with pytest.raises(Refusal):
            await b.act(table.id, mover, click)
        assert seen_by_b.match.output() == table.match.output()  # B reloaded the table from the store

        # The next move reaches B (now current); then one reaches A, whose copy is stale in its turn.
        played = [click]
        for manager, other in ((b, seen_by_b), (a, table)):
            mover = user_to_move(other)
            move = body(other.match.legal_actions()[0])
            await manager.act(table.id, mover, move)
            played.append(move)
        stored = await store_a.load_record(await store_a.load_table(table.id))
        actions = [action for deal in stored.deals for action in deal.actions]
        assert [{k: v for k, v in action.items() if k != "seat"} for action in actions] == played
        # A third process starting now rebuilds the same game from the store.
        (fresh,) = await TableManager(store_b, None, ai_delay=0, rng=random.Random(3)).resume_all()
        assert fresh.match.output() == table.match.output()
    finally:
        await store_a.close()
        await store_b.close()


async def wait_for(condition, seconds=10.0):
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out")


async def test_a_process_hears_of_another_processes_moves_and_reloads_the_table(postgres_server):
    """PostgreSQL's LISTEN/NOTIFY: each change is announced, the other processes reload the table; a lobby too."""
    url = await postgres.new_schema(postgres_server)
    store_a, store_b = await open_store(url), await open_store(url)
    try:
        a = TableManager(store_a, None, ai_delay=0, rng=random.Random(1))
        b = TableManager(store_b, None, ai_delay=0, rng=random.Random(2))
        await a.listen_to_other_processes()
        await b.listen_to_other_processes()
        table = await a.create(
            game="toy", options={"players": 2}, preset=None, host_id=HOST, host_name="Host", channel_id=5
        )
        (seen_by_b,) = await b.resume_all()
        await a.join(table.id, BOB, "Bob")
        await wait_for(lambda: len(seen_by_b.seats) == 2)
        await a.start(table.id, HOST)
        await wait_for(lambda: seen_by_b.match is not None)
        for turn in range(6):  # the processes take turns, each answering with the version its player saw
            manager, mine, theirs = (a, table, seen_by_b) if turn % 2 else (b, seen_by_b, table)
            await wait_for(lambda mine=mine, theirs=theirs: mine.version == theirs.version)
            move = body(mine.match.legal_actions()[0])
            await manager.act(table.id, user_to_move(mine), move, expected_version=mine.version)
        await wait_for(lambda: seen_by_b.version == table.version)
        assert seen_by_b.match.output() == table.match.output()
        await a.close()
        await b.close()
    finally:
        await store_a.close()
        await store_b.close()


def body_of(action: dict) -> dict:
    return {k: v for k, v in action.items() if k != "seat"}


async def test_an_interaction_is_stored_once_even_where_its_move_would_be_legal_again(database):
    """Discord may deliver an interaction twice, and two processes may each get a copy: its id is stored with the
    action it made (unique), so a second copy is refused however the game stands then."""
    store_a, store_b = await open_store(database), await open_store(database)
    try:
        a = TableManager(store_a, None, ai_delay=0, rng=random.Random(1))
        table = await a.create(
            game="toy", options={"players": 2}, preset=None, host_id=HOST, host_name="Host", channel_id=5
        )
        await a.join(table.id, BOB, "Bob")
        await a.start(table.id, HOST)
        b = TableManager(store_b, None, ai_delay=0, rng=random.Random(2))
        (seen_by_b,) = await b.resume_all()
        first = user_to_move(table)
        first_move = body(table.match.legal_actions()[0])
        await a.act(table.id, first, first_move, interaction_id="1001")
        # The copy reaches B, whose table is a move behind: there the move is legal, but the interaction is stored.
        with pytest.raises(Refusal, match="already made"):
            await b.act(table.id, first, body(seen_by_b.match.legal_actions()[0]), interaction_id="1001")
        # And in the same process, a copy carrying a move that is legal now (the next player's) is refused too.
        second = user_to_move(table)
        with pytest.raises(Refusal, match="already made"):
            await a.act(table.id, second, body(table.match.legal_actions()[0]), interaction_id="1001")
        second_move = body(table.match.legal_actions()[0])
        await a.act(table.id, second, second_move, interaction_id="1002")
        stored = await store_a.fetch_all(
            "SELECT interaction_id FROM actions WHERE table_id = ? ORDER BY deal_index, seq", (table.id,)
        )
        assert [r[0] for r in stored] == ["1001", "1002"]
        # What an interaction made is read back, from either process (a tap handled again after its first handler
        # died is answered with it: cogs/acting.py's show_stale_hand).
        for interaction_id, move in (("1001", first_move), ("1002", second_move)):
            made = await b.made_by(interaction_id)
            assert made is not None and body_of(made) == move
        assert await a.made_by("1003") is None
    finally:
        await store_a.close()
        await store_b.close()
