"""Per-player settings in the SQLite store: how a player's turn pings reach them, auto-play of a forced card, the
four-colour pack in their own pictures, their language; and the language their Discord client was last heard in.

A player who never changed a setting has no row; ``PlayerSettings()`` is then what applies (the defaults are
documented in docs/player-guide.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.store import Store

TURN_PINGS = ("channel", "dm", "off")  # and None: the default of the table's clock


@dataclass(frozen=True)
class PlayerSettings:
    turn_ping: str | None = None  # one of TURN_PINGS, or None for the clock's default
    auto_play: bool = True  # play my only legal card for me
    four_colour: bool = False  # diamonds blue and clubs green in my hand's picture (migration 7)
    language: str | None = None  # a language code of bot/i18n (en, fr, zh); None: the Discord client's locale
    # Not a choice: the language of their Discord client at their last interaction (migration 12), what they read
    # when no interaction of theirs says it (their hand after a restart).
    heard_language: str | None = None


async def load_player_settings(store: Store, user_ids: list[int]) -> dict[int, PlayerSettings]:
    """The saved settings of these users (those who never changed one are absent)."""
    if not user_ids:
        return {}
    marks = ", ".join("?" * len(user_ids))
    rows = await store.fetch_all(
        "SELECT user_id, turn_ping, auto_play, four_colour, language, heard_language FROM player_settings"
        f" WHERE user_id IN ({marks})",
        tuple(user_ids),
    )
    return {
        row[0]: PlayerSettings(
            turn_ping=row[1],
            auto_play=True if row[2] is None else bool(row[2]),
            four_colour=bool(row[3]),
            language=row[4],
            heard_language=row[5],
        )
        for row in rows
    }


async def save_player_settings(store: Store, user_id: int, settings: PlayerSettings) -> None:
    if settings.turn_ping is not None and settings.turn_ping not in TURN_PINGS:
        raise ValueError(f"turn_ping must be one of {TURN_PINGS} or None, not {settings.turn_ping!r}")
    await store.write_one(
        "INSERT INTO player_settings (user_id, turn_ping, auto_play, four_colour, language, heard_language)"
        " VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (user_id) DO UPDATE SET turn_ping = excluded.turn_ping, auto_play = excluded.auto_play,"
        " four_colour = excluded.four_colour, language = excluded.language, heard_language = excluded.heard_language,"
        " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        (
            user_id,
            settings.turn_ping,
            int(settings.auto_play),
            int(settings.four_colour),
            settings.language,
            settings.heard_language,
        ),
    )
