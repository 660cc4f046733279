"""A database created at the first schema version is upgraded in place at start-up, its data kept and its finished
games given results and ratings."""

from __future__ import annotations

import json
import random
import sqlite3

import bot.storage.results as rs
from bot.ratings import stats
from bot.storage.schema import migrations
from bot.storage.store import Store
from rules.players import make_player
from rules.simulate import recorded_game


def make_version_1(path: str) -> tuple[int, dict]:
    """Migration 1 only, as the first release wrote it, with a finished Belote game and a lobby."""
    first = migrations()[0]
    assert first.number == 1
    record, match = recorded_game("belote", {}, random.Random(11), [make_player("random")] * 4, 2000)
    db = sqlite3.connect(path)
    db.executescript(first.sql)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version VALUES (1)")
    db.execute(
        "INSERT INTO tables (id, guild_id, guild_name, channel_id, game, options, host_id, status, first_dealer)"
        " VALUES (1, 77, 'Club', 5, 'belote', '{}', 11, 'finished', ?)",
        (record.first_dealer,),
    )
    db.execute("INSERT INTO tables (id, guild_id, channel_id, game, host_id) VALUES (2, 77, 5, 'belote', 11)")
    for seat in range(4):
        db.execute(
            "INSERT INTO seats (table_id, seat, user_id, name) VALUES (1, ?, ?, ?)", (seat, 11 + seat, f"p{seat}")
        )
    for i, deal in enumerate(record.to_json()["deals"]):
        actions = deal.pop("actions")
        db.execute("INSERT INTO deals (table_id, deal_index, cards) VALUES (1, ?, ?)", (i, json.dumps(deal)))
        for seq, action in enumerate(actions):
            db.execute(
                "INSERT INTO actions (table_id, deal_index, seq, action) VALUES (1, ?, ?, ?)",
                (i, seq, json.dumps(action)),
            )
    db.commit()
    db.close()
    return len(record.deals), match.output()


async def test_a_version_1_database_is_upgraded_in_place(tmp_path):
    path = str(tmp_path / "old.db")
    deals, output = make_version_1(path)
    store = await Store.open(path)
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
    store = await Store.open(path)  # opening again applies nothing new
    assert await store.schema_version() == migrations()[-1].number
    await store.close()
