"""Moving a bot's SQLite database to PostgreSQL (``cardtable migrate-db``): every row of every table, in one
transaction, into an empty PostgreSQL database at the same schema version.

Both stores are migrated to the newest schema first (opening a store does that), so the tables and columns are the
same on both sides; the rows are copied in an order where a row's referenced rows come first (the foreign keys read
from SQLite), with PostgreSQL's COPY.  The numbered ids are kept, and each identity column's sequence then continues
after the highest id copied.  Refused, with nothing written, when the target already has tables or results.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.postgres import PostgresStore
from bot.storage.store import Store


class TransferRefused(Exception):
    """The copy cannot be made (the message says why); nothing was written."""


@dataclass(frozen=True)
class Copied:
    table: str
    rows: int


async def _tables_in_order(source: Store) -> list[str]:
    """The source's tables, each after the tables it references (schema_version excluded: the target has its own)."""
    names = [
        r[0]
        for r in await source.fetch_all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        if r[0] != "schema_version"
    ]
    needs = {
        name: {r["table"] for r in await source.fetch_all(f"PRAGMA foreign_key_list({name})")} - {name}
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and needs[n] <= set(ordered)]
        if not ready:
            raise TransferRefused(f"the tables' foreign keys form a cycle: {sorted(set(names) - set(ordered))}")
        ordered.extend(ready)
    return ordered


async def copy_database(source: Store, target: PostgresStore) -> list[Copied]:
    """Copy every row of ``source`` (SQLite) into ``target`` (an empty PostgreSQL database); returns the counts."""
    if source.engine != "sqlite":
        raise TransferRefused("the source must be an SQLite database file")
    if await source.schema_version() != await target.schema_version():
        raise TransferRefused("the two databases are at different schema versions; run the newest cardtable")
    tables = await _tables_in_order(source)
    for name in ("tables", "game_results", "ratings"):
        row = await target.fetch_one(f"SELECT COUNT(*) FROM {name}")
        if row is not None and row[0]:
            raise TransferRefused(f"the PostgreSQL database is not empty ({name} has {row[0]} rows); nothing copied")
    plan = []
    for name in tables:
        rows = await source.fetch_all(f"SELECT * FROM {name}")
        columns = list(rows[0].keys()) if rows else []
        plan.append((name, columns, [tuple(r) for r in rows]))
    await target.copy_tables(plan)
    return [Copied(name, len(rows)) for name, _, rows in plan]
