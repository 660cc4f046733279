"""Several tables' record versions in one query: what the owner of tables checks its copies against (its sweep,
bot/tables/placement.py), in case it did not hear of another process's move."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.store import Store


async def record_versions(store: Store, table_ids: Sequence[int]) -> dict[int, int]:
    """Each table's deals and actions in the store, counted (``Store.record_version`` for many tables at once)."""
    if not table_ids:
        return {}
    marks = ", ".join("?" for _ in table_ids)
    rows = await store.fetch_all(
        "SELECT t.id, (SELECT COUNT(*) FROM deals d WHERE d.table_id = t.id)"
        " + (SELECT COUNT(*) FROM actions a WHERE a.table_id = t.id)"
        f" FROM tables t WHERE t.id IN ({marks})",
        tuple(table_ids),
    )
    return {int(row[0]): int(row[1]) for row in rows}
