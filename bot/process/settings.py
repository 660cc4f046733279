"""The bot's settings, read once at start-up from the environment, with a ``.env`` file as a fallback.

Only ``DISCORD_TOKEN`` is required.  The environment wins over ``.env`` so that a deployment can override a
developer's file without editing it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB_PATH = "cardtable.db"


class SettingsError(Exception):
    """A setting is missing or malformed; the message is shown to whoever starts the bot, as one line."""


def read_env_file(path: str | os.PathLike[str]) -> dict[str, str]:
    """``KEY=value`` lines; blank lines and ``#`` comments skipped; optional quotes around the value removed."""
    values: dict[str, str] = {}
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return values
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        if not sep or not key.strip():
            raise SettingsError(f"{path}, line {number}: expected KEY=value, got {line!r}")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def _int_or_none(name: str, raw: str | None) -> int | None:
    if raw is None or raw.strip() == "":
        return None
    try:
        return int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number (a Discord id), not {raw!r}") from None


def _float(name: str, raw: str | None, default: float) -> float:
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number of seconds, not {raw!r}") from None
    if value < 0:
        raise SettingsError(f"{name} cannot be negative")
    return value


@dataclass(frozen=True)
class Settings:
    token: str
    db_path: str = DEFAULT_DB_PATH
    # Commands register in this guild only (instantly, for development) when set; globally otherwise.
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    # Seconds a computer player "thinks" before acting, so humans can follow the game; 0 in tests.
    ai_delay: float = 1.0
    # Seconds between two edits of one table's message (moves in between are shown together); 0 in tests.
    edit_interval: float = 1.0

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, env_file: str | None = ".env") -> Settings:
        values = read_env_file(env_file) if env_file else {}
        values.update(os.environ if environ is None else environ)
        token = values.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise SettingsError(
                "DISCORD_TOKEN is not set: put it in the environment or in a .env file (see docs/running.md)"
            )
        level = values.get("CARDTABLE_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(f"CARDTABLE_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        return cls(
            token=token,
            db_path=values.get("CARDTABLE_DB", "").strip() or DEFAULT_DB_PATH,
            dev_guild_id=_int_or_none("CARDTABLE_DEV_GUILD", values.get("CARDTABLE_DEV_GUILD")),
            log_level=level,
            ai_delay=_float("CARDTABLE_AI_DELAY", values.get("CARDTABLE_AI_DELAY"), 1.0),
            edit_interval=_float("CARDTABLE_EDIT_INTERVAL", values.get("CARDTABLE_EDIT_INTERVAL"), 1.0),
        )
