"""``cardtable migrate-db``: a bot's SQLite database moved to PostgreSQL, every row the same, the games going on."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import bot.storage.results as rs
from bot.storage.clocks import create_clock
from bot.storage.engines import open_store
from bot.storage.store import Store
from tests.botkit import postgres
from tests.test_ratings_store import manager_for, play, seated

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def migrate_db(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot.process.cli", "migrate-db", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )


async def every_row(store: Store, tables: list[str]) -> dict[str, list[tuple]]:
    return {name: sorted(tuple(r) for r in await store.fetch_all(f"SELECT * FROM {name}")) for name in tables}


async def test_an_sqlite_database_is_copied_row_for_row_and_play_goes_on(tmp_path, postgres_server):
    path = str(tmp_path / "old.db")
    old = await open_store(path)
    manager = manager_for(old)
    finished = [await seated(manager, users) for users in ([1, 2], [2, 3, 4])]
    for i, table in enumerate(finished):
        await play(manager, table, random.Random(i))
    running = await seated(manager, [5, 6])
    await create_clock(old, running.id, "live", 60, 12.5)
    await rs.start_season(old, 7, by=1)
    names = [r[0] for r in await old.fetch_all("SELECT name FROM sqlite_master WHERE type = 'table'")]
    before = await every_row(old, [n for n in names if n != "schema_version" and not n.startswith("sqlite_")])
    record = await old.load_record(await old.load_table(running.id))
    await manager.close()
    await old.close()
    assert before["ratings"] and before["game_results"] and before["actions"]

    url = await postgres.new_schema(postgres_server)
    done = migrate_db("--from", path, "--to", url)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"copied {sum(map(len, before.values()))} rows from {path} to PostgreSQL")

    new = await open_store(url)
    try:
        assert await every_row(new, list(before)) == before
        assert (await new.load_record(await new.load_table(running.id))).to_json() == record.to_json()
        # The game goes on there, and a new table is numbered after the copied ones.
        manager = manager_for(new, seed=5)
        (resumed,) = await manager.resume_all()
        await play(manager, resumed, random.Random(9))
        assert len(await new.fetch_all("SELECT * FROM game_results")) == 3
        table = await seated(manager, [1, 2])
        assert table.id == running.id + 1
        await manager.close()
    finally:
        await new.close()

    again = migrate_db("--from", path, "--to", url)
    assert again.returncode == 1 and "not empty" in again.stderr and again.stdout == ""


def test_migrate_db_refuses_what_it_cannot_use(tmp_path):
    no_url = migrate_db("--from", str(tmp_path / "x.db"), "--to", "cardtable.db")
    assert no_url.returncode == 2 and "--to postgresql://" in no_url.stderr
    missing = migrate_db("--from", str(tmp_path / "x.db"), "--to", "postgresql://nobody@127.0.0.1:1/none")
    assert missing.returncode == 2 and "no SQLite database at" in missing.stderr
