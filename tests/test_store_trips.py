"""The SQLite store's single statements: those written while a trip is on the database thread go together in the
next trip, each committed by itself with its own answer or error, in the order they were written."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.storage.store import Store


async def test_statements_written_during_a_trip_go_in_the_next_one_each_with_its_own_answer(tmp_path):
    store = await Store.open(str(tmp_path / "trips.db"))
    try:
        await store.write_one("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)", ())
        trips: list[int] = []
        send = store._trip

        def counted() -> None:
            trips.append(len(store._pending))
            send()

        store._trip = counted  # type: ignore[method-assign]
        first = asyncio.ensure_future(store.write_one("INSERT INTO t (id, v) VALUES (?, ?)", (1, "a")))
        await asyncio.sleep(0)  # the first trip leaves; the next four wait for it
        rest = [
            asyncio.ensure_future(store.write_one("INSERT INTO t (id, v) VALUES (?, ?)", (n, str(n))))
            for n in (2, 1, 3, 4)
        ]
        assert await first == 1
        done = await asyncio.gather(*rest, return_exceptions=True)
        assert done[0] == 2 and done[2] == 3 and done[3] == 4
        assert isinstance(done[1], sqlite3.IntegrityError)  # its own error; the others were committed
        assert trips == [1, 4]
        rows = await store.fetch_all("SELECT id, v FROM t ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, "a"), (2, "2"), (3, "3"), (4, "4")]
    finally:
        await store.close()


async def test_a_statement_on_a_closed_store_fails_rather_than_waits(tmp_path):
    store = await Store.open(str(tmp_path / "closed.db"))
    await store.close()
    with pytest.raises(ValueError):
        await asyncio.wait_for(store.write_one("CREATE TABLE t (id INTEGER)", ()), 5)
