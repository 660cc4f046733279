"""The store on PostgreSQL (asyncpg): chosen by ``DATABASE_URL``, for several bot processes sharing one database.

Every statement of ``bot/storage/`` is written once, in the SQLite dialect, and said for PostgreSQL by
``bot/storage/dialect.py`` (translated once per distinct statement, then cached).  The migrations are the same
numbered files.  What differs from the SQLite store:

- a pool of connections instead of one: single statements run side by side, each committed by itself, and
  ``transaction()`` holds one connection for its statements;
- ``in_transaction(fn)`` keeps ``bot/storage/results.py``'s synchronous game-end code unchanged: ``fn`` runs in a
  worker thread on a blocking view of the transaction's connection, each statement handed back to the event loop.
  Those transactions (a game's end, a season, a recomputation) read ratings and write them back, so they take one
  transaction-level advisory lock and run one at a time across every process, as they do on SQLite's one writer;
- aggregates PostgreSQL returns as ``numeric`` (SUM, AVG) come back as int or float, as SQLite gives them.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

import asyncpg

from bot.storage import dialect
from bot.storage.schema import migrations
from bot.storage.store import Row, Store, Transaction, log

# pg_advisory_xact_lock's key for the transactions that read and write ratings (any number; ours alone).
_RATINGS_LOCK = 0x0CA2D7AB


def _number(value: Any) -> Any:
    if isinstance(value, Decimal):
        return float(value) if value.as_tuple().exponent != 0 else int(value)
    return value


class _Row(tuple):
    """A row with its numeric aggregates made plain numbers; by position or by name, and ``dict(row)``."""

    _names: tuple[str, ...]

    def __new__(cls, record: asyncpg.Record) -> _Row:
        row = super().__new__(cls, (_number(v) for v in record.values()))
        row._names = tuple(record.keys())
        return row

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return super().__getitem__(self._names.index(key))
        return super().__getitem__(key)

    def keys(self) -> tuple[str, ...]:
        return self._names


def _plain(records: Iterable[asyncpg.Record]) -> list[Row]:
    return [_Row(r) if any(isinstance(v, Decimal) for v in r.values()) else r for r in records]


class PostgresStore(Store):
    engine = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str):  # no SQLite connection: Store.__init__ is not for us
        self.pool = pool
        self.url = url
        self._table_info: dict[str, dialect.TableInfo] = {}
        self._said: dict[str, str] = {}
        # NOTIFY channels are per database; tables are per schema: the channel names the schema.
        self._channel = "cardtable"
        self._me = uuid.uuid4().hex  # our own announcements come back to us too: skip them
        self._listener: asyncpg.Connection | None = None

    @classmethod
    async def connect(cls, url: str) -> PostgresStore:
        pool = await asyncpg.create_pool(url, min_size=1, max_size=10)
        store = cls(pool, url)
        try:
            await store.migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
        await self.pool.close()

    async def announce_table(self, table_id: int) -> None:
        await self.pool.execute("SELECT pg_notify($1, $2)", self._channel, f"{table_id} {self._me}")

    async def listen_to_tables(self, changed: Callable[[int], None]) -> None:
        def heard(conn: object, pid: int, channel: str, payload: str) -> None:
            table_id, sender = payload.split(" ", 1)
            if sender != self._me:
                changed(int(table_id))

        await (await self._listening()).add_listener(self._channel, heard)

    async def announce_tap(self, interaction_id: int, table_id: int) -> None:
        await self.pool.execute("SELECT pg_notify($1, $2)", self._taps_channel(), f"{interaction_id} {table_id}")

    async def listen_to_taps(self, forwarded: Callable[[int, int], None]) -> None:
        def heard(conn: object, pid: int, channel: str, payload: str) -> None:
            interaction_id, table_id = payload.split(" ", 1)
            forwarded(int(interaction_id), int(table_id))

        await (await self._listening()).add_listener(self._taps_channel(), heard)

    def _taps_channel(self) -> str:
        return ("taps_" + self._channel)[:63]

    async def _listening(self) -> asyncpg.Connection:
        """The connection that LISTENs (one for every channel: a pooled one would be handed to other queries)."""
        if self._listener is None:
            self._listener = await asyncpg.connect(self.url)
        return self._listener

    def said(self, sql: str) -> str:
        """``sql`` for PostgreSQL (translated once)."""
        found = self._said.get(sql)
        if found is None:
            found = self._said[sql] = dialect.statement(sql, self._table_info)
        return found

    # --- schema ------------------------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        async with self.pool.acquire() as conn:
            return await _version(conn)

    async def migrate(self) -> None:
        """As on SQLite, each migration in its own transaction; several processes starting at once wait for the
        first one's migrations (a session advisory lock per schema) instead of applying them twice."""
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock(hashtext(current_schema()))")
            try:
                current = await _version(conn)
                for migration in migrations():
                    if migration.number <= current:
                        continue
                    log.info("applying database migration %d: %s", migration.number, migration.title)
                    async with conn.transaction():
                        await conn.execute(dialect.migration(migration.sql))
                        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", migration.number)
            finally:
                await conn.execute("SELECT pg_advisory_unlock(hashtext(current_schema()))")
            self._table_info = await _table_info(conn)
            self._channel = f"cardtable_{await conn.fetchval('SELECT current_schema()')}"[:63]
        self._said.clear()

    # --- the query helpers of bot/storage/ ------------------------------------------------------------------------

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = _plain([r] if (r := await self.pool.fetchrow(self.said(sql), *params)) is not None else [])
        return rows[0] if rows else None

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return _plain(await self.pool.fetch(self.said(sql), *params))

    async def write_one(self, sql: str, params: tuple) -> int | None:
        said = self.said(sql)
        if said.endswith(" RETURNING id"):
            return await self.pool.fetchval(said, *params)
        await self.pool.execute(said, *params)
        return None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield _PgTransaction(self, conn)

    async def in_transaction(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _RATINGS_LOCK)
            return await asyncio.to_thread(fn, _BlockingConnection(self, conn, loop), *args)

    async def copy_tables(self, plan: list[tuple[str, list[str], list[tuple]]]) -> None:
        """(table, columns, rows) in order, all in one transaction (``bot/storage/transfer.py``): each value made
        the column's type (SQLite keeps what it is given: an integer in a REAL column, say), then the numbered ids'
        sequences moved past the highest id copied."""
        async with self.pool.acquire() as conn, conn.transaction():
            types = {
                (r["table_name"], r["column_name"]): r["data_type"]
                for r in await conn.fetch(
                    "SELECT table_name, column_name, data_type FROM information_schema.columns"
                    " WHERE table_schema = current_schema()"
                )
            }
            for table, columns, rows in plan:
                if not rows:
                    continue
                casts = [_CASTS.get(types.get((table, c), ""), _same) for c in columns]
                records = [
                    tuple(None if v is None else cast(v) for cast, v in zip(casts, row, strict=True)) for row in rows
                ]
                await conn.copy_records_to_table(table, records=records, columns=columns)
            for table, info in self._table_info.items():
                if info.numbered_id:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false)"
                        f" FROM {table}"
                    )


def _same(value: Any) -> Any:
    return value


_CASTS: dict[str, Callable[[Any], Any]] = {"bigint": int, "double precision": float, "text": str}


async def _version(conn: asyncpg.Connection) -> int:
    await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
    return await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")


async def _table_info(conn: asyncpg.Connection) -> dict[str, dialect.TableInfo]:
    columns: dict[str, list[str]] = {}
    numbered: set[str] = set()
    for r in await conn.fetch(
        "SELECT table_name, column_name, is_identity FROM information_schema.columns"
        " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
    ):
        columns.setdefault(r["table_name"], []).append(r["column_name"])
        if r["column_name"] == "id" and r["is_identity"] == "YES":
            numbered.add(r["table_name"])
    keys: dict[str, list[str]] = {}
    for r in await conn.fetch(
        "SELECT tc.table_name, k.column_name FROM information_schema.table_constraints tc"
        " JOIN information_schema.key_column_usage k ON k.constraint_name = tc.constraint_name"
        " AND k.table_schema = tc.table_schema"
        " WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = current_schema()"
        " ORDER BY tc.table_name, k.ordinal_position"
    ):
        keys.setdefault(r["table_name"], []).append(r["column_name"])
    return {
        name: dialect.TableInfo(tuple(cols), tuple(keys.get(name, ())), name in numbered)
        for name, cols in columns.items()
    }


class _PgTransaction:
    def __init__(self, store: PostgresStore, conn: asyncpg.Connection):
        self._store = store
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        said = self._store.said(sql)
        if said.endswith(" RETURNING id"):
            return await self._conn.fetchval(said, *params)
        await self._conn.execute(said, *params)
        return None

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return _plain(await self._conn.fetch(self._store.said(sql), *params))


class _Cursor:
    """What results.py reads of an sqlite3 cursor: the rows (iterated or fetched), ``lastrowid``, ``description``."""

    def __init__(self, rows: list[Row], said: str):
        self._rows = rows
        self._next = 0
        returning = said.endswith(" RETURNING id")
        self.lastrowid: int | None = rows[0][0] if returning and rows else None
        names: Iterable[str] = rows[0].keys() if rows else ()  # a row iterates over its values, not its names
        self.description = [(name, None, None, None, None, None, None) for name in names]

    def fetchone(self) -> Row | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[Row]:
        rest, self._next = self._rows[self._next :], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[Row]:
        while (row := self.fetchone()) is not None:
            yield row


class _BlockingConnection:
    """The transaction's connection as ``in_transaction``'s function sees it, from its worker thread: each statement
    runs on the event loop and the thread waits for it."""

    def __init__(self, store: PostgresStore, conn: asyncpg.Connection, loop: asyncio.AbstractEventLoop):
        self._store = store
        self._conn = conn
        self._loop = loop

    def _wait(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Cursor:
        said = self._store.said(sql)
        return _Cursor(_plain(self._wait(self._conn.fetch(said, *params))), said)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        rows = list(rows)
        if rows:
            self._wait(self._conn.executemany(self._store.said(sql), rows))
