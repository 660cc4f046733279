"""Which engine a database is on: ``open_store`` opens an SQLite file or, given its URL, a PostgreSQL database."""

from __future__ import annotations

from bot.storage.postgres import PostgresStore
from bot.storage.store import Store, is_database_url


async def open_store(target: str) -> Store:
    """The store at ``target`` (a PostgreSQL URL, else an SQLite file name), migrated to the newest schema."""
    if is_database_url(target):
        return await PostgresStore.connect(target)
    return await Store.open(target)
