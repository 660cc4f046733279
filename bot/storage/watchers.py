"""A table's spectators (``/table watch``, the Watch button): who hears of each finished deal by DM.

A spectator is anyone who asked to watch and is not seated; what they are shown is the public view and the history
the game's rules allow (rules/lookback.py), never a hand.
"""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage.store import Store


async def add_watcher(store: Store, table_id: int, user_id: int) -> bool:
    """Note ``user_id`` as a spectator of the table; False when they already were."""
    found = await store.fetch_one(
        "SELECT 1 FROM table_watchers WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    )
    if found is not None:
        return False
    since = datetime.now(UTC).isoformat(timespec="seconds")
    await store.write_one(
        "INSERT INTO table_watchers (table_id, user_id, since) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        (table_id, user_id, since),
    )
    return True


async def remove_watcher(store: Store, table_id: int, user_id: int) -> bool:
    """Stop ``user_id`` watching the table; False when they were not watching it."""
    found = await store.fetch_one(
        "SELECT 1 FROM table_watchers WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    )
    if found is None:
        return False
    await store.write_one("DELETE FROM table_watchers WHERE table_id = ? AND user_id = ?", (table_id, user_id))
    return True


async def watchers_of(store: Store, table_id: int) -> list[int]:
    """The table's spectators, in the order they started watching."""
    rows = await store.fetch_all(
        "SELECT user_id FROM table_watchers WHERE table_id = ? ORDER BY since, user_id", (table_id,)
    )
    return [int(row[0]) for row in rows]
