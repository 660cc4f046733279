"""Which language a player reads: the one they set (/player settings language), else their Discord client's
locale when the bot speaks it, else English.  (A table's public messages use the table's language instead.)"""

from __future__ import annotations

from typing import Any

import discord

from bot.i18n import from_locale, language_or_default


async def language_of(interaction: discord.Interaction[Any]) -> str:
    chosen: str | None = None
    manager = getattr(interaction.client, "manager", None)
    if manager is not None:
        try:
            chosen = (await manager.player_settings(interaction.user.id)).language
        except Exception:  # the store is closing or unreadable: the locale still says enough
            chosen = None
    return language_or_default(chosen, from_locale(interaction.locale))
