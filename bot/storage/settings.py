"""Per server settings in the SQLite store, as JSON (``bot/tables/guild_settings.py`` validates them)."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.store import Store


async def load_guild_settings(store: Store, guild_id: int) -> dict[str, Any] | None:
    """The server's saved settings, or None when it never changed any."""
    row = await store.fetch_one("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return json.loads(row[0]) if row else None


async def save_guild_settings(store: Store, guild_id: int, settings: dict[str, Any], updated_by: int | None) -> None:
    await store.write_one(
        "INSERT INTO guild_settings (guild_id, settings, updated_by) VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE"
        " SET settings = excluded.settings, updated_by = excluded.updated_by,"
        " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        (guild_id, json.dumps(settings), updated_by),
    )
