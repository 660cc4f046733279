"""A database created at the first schema version is upgraded in place at start-up, its data kept and its finished
games given results and ratings."""

from __future__ import annotations

import json
import random
import sqlite3

import asyncpg

import bot.storage.results as rs
from bot.ratings import stats
from bot.storage import dialect
from bot.storage.engines import open_store
from bot.storage.schema import migrations
from bot.storage.store import is_database_url
from rules.players import make_player
from rules.simulate import recorded_game


def version_1_rows() -> tuple[list[tuple[str, tuple]], int, dict]:
    """The rows of a database at migration 1, as the first release wrote them: a finished Belote game and a lobby."""
    record, match = recorded_game("belote", {}, random.Random(11), [make_player("random")] * 4, 2000)
    rows: list[tuple[str, tuple]] = [("INSERT INTO schema_version VALUES (1)", ())]
    rows.append(
        (
            "INSERT INTO tables (id, guild_id, guild_name, channel_id, game, options, host_id, status, first_dealer)"
            " VALUES (1, 77, 'Club', 5, 'belote', '{}', 11, 'finished', ?)",
            (record.first_dealer,),
        )
    )
    rows.append(("INSERT INTO tables (id, guild_id, channel_id, game, host_id) VALUES (2, 77, 5, 'belote', 11)", ()))
    for seat in range(4):
        rows.append(
            ("INSERT INTO seats (table_id, seat, user_id, name) VALUES (1, ?, ?, ?)", (seat, 11 + seat, f"p{seat}"))
        )
    for i, deal in enumerate(record.to_json()["deals"]):
        actions = deal.pop("actions")
        rows.append(("INSERT INTO deals (table_id, deal_index, cards) VALUES (1, ?, ?)", (i, json.dumps(deal))))
        for seq, action in enumerate(actions):
            rows.append(
                (
                    "INSERT INTO actions (table_id, deal_index, seq, action) VALUES (1, ?, ?, ?)",
                    (i, seq, json.dumps(action)),
                )
            )
    return rows, len(record.deals), match.output()


async def make_version_1(database: str) -> tuple[int, dict]:
    """Migration 1 only, with version_1_rows(), in an SQLite file or a PostgreSQL schema."""
    first = migrations()[0]
    assert first.number == 1
    rows, deals, output = version_1_rows()
    if is_database_url(database):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute(dialect.migration(first.sql))
            await conn.execute("CREATE TABLE schema_version (version BIGINT NOT NULL)")
            for sql, params in rows:
                await conn.execute(dialect.placeholders(sql), *params)
        finally:
            await conn.close()
        return deals, output
    db = sqlite3.connect(database)
    db.executescript(first.sql)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    for sql, params in rows:
        db.execute(sql, params)
    db.commit()
    db.close()
    return deals, output


async def test_a_version_1_database_is_upgraded_in_place(database):
    path = database
    deals, output = await make_version_1(path)
    store = await open_store(path)
    try:
        assert await store.schema_version() == migrations()[-1].number >= 2
        row = await store.load_table(1)
        assert row.status == "finished" and len(row.seats) == 4
        record = await store.load_record(row)
        assert len(record.deals) == deals
        assert (await store.load_table(2)).status == "lobby"
        # the finished game gets its result and ratings once, at start-up
        assert await rs.reconcile(store) == [1]
        assert await rs.reconcile(store) == []
        result = await rs.result_for_table(store, 1)
        assert (result["rated"], result["winner"], result["deals"], result["scores"]) == (
            1,
            output["winner"],
            deals,
            json.dumps(output["scores"]),
        )
        assert (await stats.leaderboard(store, await stats.board_key(store, 77, "belote", "all"))).total == 4
    finally:
        await store.close()
    store = await open_store(path)  # opening again applies nothing new
    assert await store.schema_version() == migrations()[-1].number
    await store.close()
