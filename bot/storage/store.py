"""The store: tables, their seats, and each game's record as an append-only log of actions.  SQLite by default (one
file beside the bot); ``bot/storage/postgres.py`` runs the same statements on PostgreSQL (``DATABASE_URL``).

A table's state is never stored, only its record: the deals' cards and every action, one INSERT per action.
``load_record`` rebuilds the ``GameRecord`` that ``rules.records.replay`` turns back into a match.

One connection serves the whole bot; writes go through one lock so that a multi-statement change is never
interleaved with another coroutine's statements.  The connection runs in autocommit mode and multi-statement
changes say BEGIN/COMMIT themselves.

``bot/storage/`` is the only code that writes SQL.  ``Store``'s query helpers (``write_one``, ``write_all``,
``fetch_one``, ``fetch_all``, ``in_transaction``) are for its modules (results, stats, clocks, settings); the rest of
the bot calls their typed functions and never sees the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

import aiosqlite
import asyncpg

from bot.storage.schema import migrations
from rules.records import FORMAT, GameRecord, parse_record

log = logging.getLogger(__name__)

LOBBY, PLAYING, FINISHED, CANCELLED = "lobby", "playing", "finished", "cancelled"
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
# A row read back: sqlite3.Row or asyncpg.Record; both index by position and by column name, and ``dict(row)``.
Row: TypeAlias = Any


def is_conflict(error: BaseException) -> bool:
    """The write lost to another writer's row with the same key (on PostgreSQL, maybe another process's): e.g. an
    action at a place in the record that is already taken.  The writer's view is stale; nothing was written."""
    if isinstance(error, sqlite3.IntegrityError):
        return "UNIQUE constraint failed" in str(error)
    return isinstance(error, asyncpg.UniqueViolationError)


def is_database_url(target: str) -> bool:
    """A PostgreSQL connection URL (``DATABASE_URL``) rather than an SQLite file name."""
    return target.startswith(("postgresql://", "postgres://"))


class Transaction(Protocol):
    """Statements inside ``Store.transaction()``: all of them or none."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        """Run one statement; an INSERT's new row id (the table's numbered ``id``), else None."""
        ...

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


class _SqliteTransaction:
    def __init__(self, db: aiosqlite.Connection):
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        cur = await self._db.execute(sql, params)
        return cur.lastrowid

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._db.execute(sql, params) as cur:
            return list(await cur.fetchall())


@dataclass
class SeatRow:
    seat: int
    name: str
    user_id: int | None = None
    computer: str | None = None  # the computer player's level when no user sits here
    dm_closed: bool = False


@dataclass
class TableRow:
    id: int
    guild_id: int | None
    guild_name: str
    channel_id: int
    channel_name: str
    message_id: int | None
    game: str
    preset: str | None
    options: dict[str, Any]
    host_id: int
    status: str
    first_dealer: int | None
    created_at: str
    updated_at: str
    seats: dict[int, SeatRow] = field(default_factory=dict)
    hints: bool = False  # the host allowed /hint (migration 4); such games are unrated
    open_review: bool = False  # every trick and the running points open during a deal (migration 8); unrated
    spectator_hands: bool = False  # spectators see each deal's hands once it is over (migration 8)
    language: str | None = None  # of the table's public messages (migration 11); None: English


class _TransactionGate:
    """Single statements may be in flight together (aiosqlite runs them in order on its thread, each committing
    by itself); a multi-statement transaction waits for them, then holds every other writer off until it ends, so
    that nobody's statement lands inside somebody else's BEGIN..COMMIT.

    ``async with gate:`` takes it exclusively (transactions); ``async with gate.shared():`` for one statement.
    Serialising every statement behind one lock instead costs a full event-loop round trip per write, which caps
    the whole bot at a few hundred actions per second.
    """

    def __init__(self) -> None:
        self._changed = asyncio.Condition()
        self._in_flight = 0
        self._exclusive = False
        self._waiting = 0

    async def __aenter__(self) -> None:
        async with self._changed:
            self._waiting += 1
            try:
                await self._changed.wait_for(lambda: not self._exclusive and self._in_flight == 0)
            finally:
                self._waiting -= 1
            self._exclusive = True

    async def __aexit__(self, *exc: object) -> None:
        async with self._changed:
            self._exclusive = False
            self._changed.notify_all()

    @contextlib.asynccontextmanager
    async def shared(self):
        async with self._changed:
            await self._changed.wait_for(lambda: not self._exclusive and not self._waiting)
            self._in_flight += 1
        try:
            yield
        finally:
            async with self._changed:
                self._in_flight -= 1
                if not self._in_flight:
                    self._changed.notify_all()


def _run_each(conn, statements: list[tuple[str, tuple]]) -> list:
    """On the database thread: each statement by itself (autocommit), its lastrowid or its error."""
    results: list = []
    for sql, params in statements:
        try:
            results.append(conn.execute(sql, params).lastrowid)
        except Exception as e:
            results.append(e)
    return results


class Store:
    engine = "sqlite"

    def __init__(self, db: aiosqlite.Connection):
        self.db = db
        self._write = _TransactionGate()  # ``async with store._write:`` around a BEGIN..COMMIT
        self._pending: list[tuple[str, tuple, asyncio.Future]] = []  # single statements for the next trip
        self._in_trip = False  # a batch of them is on the database thread

    @classmethod
    async def open(cls, path: str) -> Store:
        """The SQLite file at ``path``, migrated (``bot/storage/engines.py``'s ``open_store`` also opens PostgreSQL)."""
        db = await aiosqlite.connect(path, isolation_level=None)
        db.row_factory = aiosqlite.Row
        # WAL with NORMAL sync: a commit costs no fsync, yet a crash loses nothing already committed to the WAL
        # except on power loss; the right trade for a game bot.
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        store = cls(db)
        await store.migrate()
        return store

    async def close(self) -> None:
        await self.db.close()

    # --- schema ------------------------------------------------------------------------------------------------

    async def schema_version(self) -> int:
        await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        assert row is not None  # an aggregate always returns one row
        return row[0] or 0

    async def migrate(self) -> None:
        """Apply every migration newer than the database, each in its own transaction."""
        async with self._write:
            current = await self.schema_version()
            for migration in migrations():
                if migration.number <= current:
                    continue
                log.info("applying database migration %d: %s", migration.number, migration.title)
                try:
                    await self.db.executescript(
                        f"BEGIN;\n{migration.sql}\n"
                        f"INSERT INTO schema_version (version) VALUES ({migration.number});\nCOMMIT;"
                    )
                except Exception:
                    if self.db.in_transaction:
                        await self.db.execute("ROLLBACK")
                    raise

    # --- the query helpers of bot/storage/ ------------------------------------------------------------------------

    async def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self.db.execute(sql, params) as cur:
            return await cur.fetchone()

    async def fetch_all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self.db.execute(sql, params) as cur:
            return list(await cur.fetchall())

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Transaction]:
        """``async with store.transaction() as tx:`` — ``tx.execute``'s statements commit together at the end, or
        none of them (an exception rolls them back), with no other writer's statement in between."""
        async with self._write:
            await self.db.execute("BEGIN")
            try:
                yield _SqliteTransaction(self.db)
                await self.db.execute("COMMIT")
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise

    async def in_transaction(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(conn, *args)`` inside BEGIN ... COMMIT in the connection's own thread, under the write lock: one
        hop for the whole transaction, so no other statement can interleave and a game's end is quick.  Any
        exception (or a crash) before the COMMIT leaves nothing behind."""

        def transaction(conn: sqlite3.Connection) -> Any:
            conn.execute("BEGIN")
            try:
                out = fn(conn, *args)
                conn.execute("COMMIT")
                return out
            except BaseException:
                conn.execute("ROLLBACK")
                raise

        async with self._write:
            return await self.db._execute(transaction, self.db._conn)

    async def write_all(self, statements: list[tuple[str, tuple]]) -> list[int | None]:
        """Run statements atomically; returns each one's lastrowid."""
        async with self.transaction() as tx:
            return [await tx.execute(sql, params) for sql, params in statements]

    async def write_one(self, sql: str, params: tuple) -> int | None:
        """One statement, committed by itself; returns its lastrowid.

        Statements issued while earlier ones are on the database thread go there together in the next trip (each
        still its own autocommit statement, with its own error): every trip costs two thread switches, which on a
        busy bot (hundreds of actions per second) were a tenth of the event loop's time (bench/bench_bot.py).
        A trip starts here, in the writer's own step, and its answers are handed out by the callback that the
        database thread schedules: a player's move waits for two rounds of a busy event loop, not four (a flusher
        task cost one round to start and one to wake)."""
        async with self._write.shared():
            future = asyncio.get_running_loop().create_future()
            self._pending.append((sql, params, future))
            if not self._in_trip:
                self._trip()
            return await future

    def _trip(self) -> None:
        """Send the queued single statements to the database thread in one call; ``_tripped`` answers them."""
        batch, self._pending = self._pending, []
        db = self.db
        if not db._running or db._connection is None:
            self._tripped(batch, [ValueError("Connection closed")] * len(batch))
            return
        loop = asyncio.get_running_loop()
        statements = [(sql, params) for sql, params, _ in batch]
        conn = db._conn

        def run() -> None:  # on the database thread
            try:
                results: list = _run_each(conn, statements)
            except BaseException as error:  # the connection went away under us
                results = [error] * len(statements)
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
                loop.call_soon_threadsafe(self._tripped, batch, results)

        self._in_trip = True
        db._tx.put_nowait((None, run))

    def _tripped(self, batch: list[tuple[str, tuple, asyncio.Future]], results: list) -> None:
        """A trip's answers, on the event loop; then the statements queued meanwhile go, in the next trip."""
        self._in_trip = False
        for (_, _, future), result in zip(batch, results, strict=True):
            if future.done():  # its writer was cancelled
                continue
            if isinstance(result, BaseException):
                future.set_exception(result)
            else:
                future.set_result(result)
        if self._pending:
            self._trip()

    async def create_table(
        self,
        *,
        guild_id: int | None,
        guild_name: str,
        channel_id: int,
        channel_name: str,
        game: str,
        preset: str | None,
        options: dict[str, Any],
        host_id: int,
        host_name: str,
        hints: bool = False,
        open_review: bool = False,
        spectator_hands: bool = False,
        language: str | None = None,
    ) -> int:
        async with self.transaction() as tx:
            table_id = await tx.execute(
                "INSERT INTO tables (guild_id, guild_name, channel_id, channel_name, game, preset, options,"
                " host_id, hints, open_review, spectator_hands, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, guild_name, channel_id, channel_name, game, preset, json.dumps(options), host_id)
                + (int(hints), int(open_review), int(spectator_hands), language),
            )
            await tx.execute(
                "INSERT INTO seats (table_id, seat, user_id, name) VALUES (?, 0, ?, ?)", (table_id, host_id, host_name)
            )
        assert table_id is not None
        return table_id

    async def set_message(self, table_id: int, message_id: int | None) -> None:
        await self.write_one(
            f"UPDATE tables SET message_id = ?, updated_at = {_NOW} WHERE id = ?", (message_id, table_id)
        )

    async def set_host(self, table_id: int, host_id: int) -> None:
        await self.write_one(f"UPDATE tables SET host_id = ?, updated_at = {_NOW} WHERE id = ?", (host_id, table_id))

    async def set_status(self, table_id: int, status: str) -> None:
        await self.write_one(f"UPDATE tables SET status = ?, updated_at = {_NOW} WHERE id = ?", (status, table_id))

    async def set_seats(self, table_id: int, seats: dict[int, SeatRow]) -> None:
        """Replace the table's seating (lobby changes are rare, so the simplest atomic write is best)."""
        statements: list[tuple[str, tuple]] = [("DELETE FROM seats WHERE table_id = ?", (table_id,))]
        for s in seats.values():
            statements.append(
                (
                    "INSERT INTO seats (table_id, seat, user_id, computer, name, dm_closed) VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, s.seat, s.user_id, s.computer, s.name, int(s.dm_closed)),
                )
            )
        statements.append((f"UPDATE tables SET updated_at = {_NOW} WHERE id = ?", (table_id,)))
        await self.write_all(statements)

    async def set_dm_closed(self, table_id: int, seat: int, closed: bool = True) -> None:
        await self.write_one(
            "UPDATE seats SET dm_closed = ? WHERE table_id = ? AND seat = ?", (int(closed), table_id, seat)
        )

    async def start_game(self, table_id: int, first_dealer: int, cards: dict) -> None:
        """The table leaves its lobby: who deals first and the first deal's cards, in one transaction."""
        await self.write_all(
            [
                (
                    f"UPDATE tables SET status = '{PLAYING}', first_dealer = ?, updated_at = {_NOW} WHERE id = ?",
                    (first_dealer, table_id),
                ),
                ("INSERT INTO deals (table_id, deal_index, cards) VALUES (?, 0, ?)", (table_id, json.dumps(cards))),
            ]
        )

    async def add_deal(self, table_id: int, deal_index: int, cards: dict) -> None:
        await self.write_one(
            "INSERT INTO deals (table_id, deal_index, cards) VALUES (?, ?, ?)",
            (table_id, deal_index, json.dumps(cards)),
        )

    async def hand_messages(self, table_id: int, deal_index: int) -> dict[int, tuple[int, int]]:
        """The deal's live hand messages: seat -> (DM channel id, message id)."""
        rows = await self.fetch_all(
            "SELECT seat, channel_id, message_id FROM hand_messages WHERE table_id = ? AND deal_index = ?",
            (table_id, deal_index),
        )
        return {row[0]: (row[1], row[2]) for row in rows}

    async def set_hand_message(
        self, table_id: int, deal_index: int, seat: int, channel_id: int, message_id: int
    ) -> None:
        """A seat's live hand message for the deal (a substitute's replaces its predecessor's)."""
        await self.write_one(
            "INSERT OR REPLACE INTO hand_messages (table_id, deal_index, seat, channel_id, message_id) "
            "VALUES (?, ?, ?, ?, ?)",
            (table_id, deal_index, seat, channel_id, message_id),
        )

    async def append_action(
        self,
        table_id: int,
        deal_index: int,
        seq: int,
        action: dict,
        *,
        finished: bool = False,
        standin: bool = False,
        interaction_id: str | None = None,
    ) -> None:
        """One action, appended; the primary key refuses a second action at the same place in the record, and the
        unique ``interaction_id`` a second action from the same interaction (``is_conflict`` says which errors).
        ``standin``: a computer made it for an away player (bot/ratings/standins.py counts these)."""
        sql = (
            "INSERT INTO actions (table_id, deal_index, seq, action, standin, interaction_id) VALUES (?, ?, ?, ?, ?, ?)"
        )
        text = json.dumps(action, separators=(",", ":"))
        params = (table_id, deal_index, seq, text, int(standin), interaction_id)
        if not finished:
            await self.write_one(sql, params)
            return
        await self.write_all(
            [(sql, params), (f"UPDATE tables SET status = '{FINISHED}', updated_at = {_NOW} WHERE id = ?", (table_id,))]
        )

    # --- several processes (PostgreSQL only: an SQLite file has one bot process) -------------------------------

    async def interaction_applied(self, interaction_id: str) -> bool:
        """An action made by this interaction is stored (by this process or another)."""
        return await self.fetch_one("SELECT 1 FROM actions WHERE interaction_id = ?", (interaction_id,)) is not None

    async def action_of_interaction(self, interaction_id: str) -> dict[str, Any] | None:
        """The action this interaction made, as stored (by this process or another), or None."""
        row = await self.fetch_one("SELECT action FROM actions WHERE interaction_id = ?", (interaction_id,))
        return None if row is None else json.loads(row[0])

    async def announce_table(self, table_id: int) -> None:
        """Tell the other processes sharing the database that this table changed."""

    async def listen_to_tables(self, changed: Callable[[int], None]) -> None:
        """Have ``changed(table_id)`` called when another process announces a change to a table."""

    async def announce_tap(self, interaction_id: int, table_id: int) -> None:
        """Tell the other processes that a tap for this table waits for its owner (bot/storage/forwarded.py)."""

    async def listen_to_taps(self, forwarded: Callable[[int, int], None]) -> None:
        """Have ``forwarded(interaction_id, table_id)`` called when a tap is forwarded (including by this process)."""

    async def record_version(self, table_id: int) -> int:
        """The table's deals and actions in the store, counted (the manager's ``Table.version`` of that record)."""
        row = await self.fetch_one(
            "SELECT (SELECT COUNT(*) FROM deals WHERE table_id = ?)"
            " + (SELECT COUNT(*) FROM actions WHERE table_id = ?)",
            (table_id, table_id),
        )
        assert row is not None
        return int(row[0])

    async def record_since(
        self, table_id: int, deal_index: int, seq: int
    ) -> tuple[dict[int, dict], list[tuple[int, int, dict]]]:
        """What was appended to the table's record after action ``seq - 1`` of deal ``deal_index``: the deals from
        ``deal_index + 1`` on (index → cards, as ``add_deal`` stored them) and the actions from that place on,
        (deal index, seq, action) in order.  Another process's moves, read without the whole record."""
        deals = {
            row["deal_index"]: json.loads(row["cards"])
            for row in await self.fetch_all(
                "SELECT deal_index, cards FROM deals WHERE table_id = ? AND deal_index > ? ORDER BY deal_index",
                (table_id, deal_index),
            )
        }
        actions = [
            (row["deal_index"], row["seq"], json.loads(row["action"]))
            for row in await self.fetch_all(
                "SELECT deal_index, seq, action FROM actions WHERE table_id = ?"
                " AND (deal_index > ? OR (deal_index = ? AND seq >= ?)) ORDER BY deal_index, seq",
                (table_id, deal_index, deal_index, seq),
            )
        ]
        return deals, actions

    # --- reading -----------------------------------------------------------------------------------------------

    async def load_table(self, table_id: int) -> TableRow | None:
        rows = await self._tables("WHERE id = ?", (table_id,))
        return rows[0] if rows else None

    async def tables_with_status(self, *statuses: str) -> list[TableRow]:
        marks = ", ".join("?" for _ in statuses)
        return await self._tables(f"WHERE status IN ({marks}) ORDER BY id", statuses)

    async def tables_in_channel(self, channel_id: int, limit: int = 25) -> list[TableRow]:
        return await self._tables("WHERE channel_id = ? ORDER BY id DESC LIMIT ?", (channel_id, limit))

    async def open_tables_in(self, channel_id: int) -> int:
        """How many tables of the channel are in their lobby or playing."""
        row = await self.fetch_one(
            "SELECT COUNT(*) FROM tables WHERE channel_id = ? AND status IN (?, ?)", (channel_id, LOBBY, PLAYING)
        )
        assert row is not None
        return int(row[0])

    async def _tables(self, where: str, params: tuple) -> list[TableRow]:
        rows = await self.fetch_all(f"SELECT * FROM tables {where}", params)
        tables = {
            r["id"]: TableRow(
                id=r["id"],
                guild_id=r["guild_id"],
                guild_name=r["guild_name"],
                channel_id=r["channel_id"],
                channel_name=r["channel_name"],
                message_id=r["message_id"],
                game=r["game"],
                preset=r["preset"],
                options=json.loads(r["options"]),
                host_id=r["host_id"],
                status=r["status"],
                first_dealer=r["first_dealer"],
                created_at=r["created_at"],
                updated_at=r["updated_at"],
                hints=bool(r["hints"]),
                open_review=bool(r["open_review"]),
                spectator_hands=bool(r["spectator_hands"]),
                language=r["language"],
            )
            for r in rows
        }
        if tables:
            marks = ", ".join("?" for _ in tables)
            for s in await self.fetch_all(f"SELECT * FROM seats WHERE table_id IN ({marks})", tuple(tables)):
                tables[s["table_id"]].seats[s["seat"]] = SeatRow(
                    seat=s["seat"],
                    name=s["name"],
                    user_id=s["user_id"],
                    computer=s["computer"],
                    dm_closed=bool(s["dm_closed"]),
                )
        return list(tables.values())

    async def load_record(self, table: TableRow) -> GameRecord:
        """The table's game record, rebuilt from its deals and actions (validated as any record is)."""
        deals: list[dict] = []
        for row in await self.fetch_all(
            "SELECT deal_index, cards FROM deals WHERE table_id = ? ORDER BY deal_index", (table.id,)
        ):
            deal = json.loads(row["cards"])
            deal["actions"] = []
            deals.append(deal)
        for row in await self.fetch_all(
            "SELECT deal_index, action FROM actions WHERE table_id = ? ORDER BY deal_index, seq", (table.id,)
        ):
            deals[row["deal_index"]]["actions"].append(json.loads(row["action"]))
        return parse_record(
            {
                "format": FORMAT,
                "game": table.game,
                "options": table.options,
                "first_dealer": table.first_dealer or 0,
                "deals": deals,
            }
        )
