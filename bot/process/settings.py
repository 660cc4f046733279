"""The bot's settings, read once at start-up from the environment, with a ``.env`` file as a fallback.

Only ``DISCORD_TOKEN`` is required.  The environment wins over ``.env`` so that a deployment can override a
developer's file without editing it.  pydantic-settings reads both; the validators below keep the messages one
line each, naming the variable, because they are all whoever starts the bot sees.
"""

from __future__ import annotations

import base64
import binascii
import io
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from dotenv import dotenv_values
from dotenv.parser import parse_stream
from pydantic import Field, ValidationError, ValidationInfo, field_validator
from pydantic_core import PydanticUseDefault
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from bot.presentation.render_pool import MODES, Mode, default_mode
from bot.storage.store import is_database_url

DEFAULT_DB_PATH = "cardtable.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
RENDER_MODES = ("auto", *MODES)
MISSING_TOKEN = "DISCORD_TOKEN is not set: put it in the environment or in a .env file (see docs/running.md)"
# A bot token is three base64url parts joined by dots: the bot's user id, a timestamp and an HMAC (discord.py's
# docs/token.rst); the first decodes to the id's digits.  Checking that shape refuses a pasted client secret, a
# "Bot " prefix or a truncated copy before anything is sent to Discord.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
BAD_TOKEN = (
    "DISCORD_TOKEN is not a bot token: it should be three parts joined by dots, like MTk4NjIy….GrAbCd….xyz "
    '(copy it from the Developer Portal\'s Bot page; not the client secret, without "Bot " or quotes)'
)


class SettingsError(Exception):
    """A setting is missing or malformed; the message is shown to whoever starts the bot, as one line."""


def read_env_file(path: str | os.PathLike[str]) -> dict[str, str]:
    """``KEY=value`` lines as python-dotenv reads them, {} for a missing file; a line it cannot read is refused
    (python-dotenv would only log a warning and skip it, so a misspelt token line would read as "not set")."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    for binding in parse_stream(io.StringIO(text)):
        if binding.error or (binding.key is not None and binding.value is None):
            line = binding.original.string.strip()
            raise SettingsError(f"{path}, line {binding.original.line}: expected KEY=value, got {line!r}")
    return {key: value for key, value in dotenv_values(path, encoding="utf-8").items() if value is not None}


def _env_name(info: ValidationInfo) -> str:
    assert info.field_name is not None
    alias = Settings.model_fields[info.field_name].alias
    return alias or info.field_name


class Settings(BaseSettings):
    model_config = SettingsConfigDict(case_sensitive=True, frozen=True, extra="forbid", validate_by_name=True)

    token: str = Field(alias="DISCORD_TOKEN", repr=False)
    db_path: str = Field(DEFAULT_DB_PATH, alias="CARDTABLE_DB")
    # PostgreSQL instead of the SQLite file (several bot processes share it): postgresql://user:password@host/db.
    database_url: str | None = Field(None, alias="DATABASE_URL", repr=False)
    # Discord shards: how many the bot has in all, and which of them this process runs ("a-b", or "a"); unset,
    # one process runs the bot's one shard.  Several processes need DATABASE_URL (docs/running.md).
    shard_count: int | None = Field(None, alias="CARDTABLE_SHARDS", ge=1)
    shard_ids: str | None = Field(None, alias="CARDTABLE_SHARD_IDS")
    # With several processes: a process whose shards' lease is not renewed for this many seconds is taken for dead,
    # and another one does its tables' work until it is back (bot/tables/leases.py).
    lease_seconds: float = Field(30.0, alias="CARDTABLE_LEASE_SECONDS")
    # Commands register in this guild only (instantly, for development) when set; globally otherwise.
    dev_guild_id: int | None = Field(None, alias="CARDTABLE_DEV_GUILD")
    log_level: str = Field("INFO", alias="CARDTABLE_LOG_LEVEL")
    # Seconds a computer player "thinks" before acting, so humans can follow the game; 0 in tests.
    ai_delay: float = Field(1.0, alias="CARDTABLE_AI_DELAY")
    # Seconds between two edits of one table's message (moves in between are shown together); 0 in tests.
    edit_interval: float = Field(1.0, alias="CARDTABLE_EDIT_INTERVAL")
    # Cards that computer players (or the bot for a player) add to a trick in a row are shown by one edit of the
    # table message, at most this many seconds after the last edit: each human sees the trick in their own hand at
    # their turn, and every picture costs CPU (docs/running.md).  0: every move its own edit.
    hold_limit: float = Field(4.0, alias="CARDTABLE_HOLD_LIMIT")
    # A draw from a stock at a table with humans (docs/rules/ says which games): seconds per card.  1.25 s makes the
    # 48 cards a one-minute draw, brings each player a card every 5 s (time to see it and tap Expose), and keeps the
    # table message's edits at 4 in any 5 s, under Discord's 5 per channel.  Tapping Draw on one's turn is at once.
    draw_interval: float = Field(1.25, alias="CARDTABLE_DRAW_INTERVAL")
    # Seconds before the draw that closes the players' choices (the kitty turned: no exposure after it), for whoever
    # just drew a trump-rank card; always taken at a table with humans, so it reveals nothing about anyone's hand.
    kitty_pause: float = Field(6.0, alias="CARDTABLE_KITTY_PAUSE")
    # Where images are drawn: "processes" (one worker per core), "threads" (in the bot's process) or "off" (text
    # only); unset, processes when the bot may use more than one core, else threads.
    render: str = Field("auto", alias="CARDTABLE_RENDER")
    # At most this many requests to one channel (messages sent, edited, deleted) in any window of this many seconds,
    # shared by the tables in it: Discord lets a channel take about 5 new messages per 5 s.  A window of 0: no budget.
    channel_requests: int = Field(5, alias="CARDTABLE_CHANNEL_REQUESTS", ge=1)
    channel_window: float = Field(5.0, alias="CARDTABLE_CHANNEL_WINDOW")
    # At most this many requests in all (interaction answers aside) in any window of this many seconds: Discord's
    # global limit is 50 a second per bot; the margin covers requests the bot cannot pace (discord.py's own retries
    # and start-up).  A window of 0: no global budget.
    global_requests: int = Field(45, alias="CARDTABLE_GLOBAL_REQUESTS", ge=1)
    global_window: float = Field(1.0, alias="CARDTABLE_GLOBAL_WINDOW")

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # Settings(...) built in code (tests, benchmarks) is exactly what it is given; load() reads the outside.
        return (init_settings,)

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, env_file: str | None = ".env") -> Settings:
        """From ``environ`` (the process environment by default) over ``env_file``; SettingsError if one is bad."""
        outside: dict[str, Any] = {}
        if env_file:
            read_env_file(env_file)  # refuses a malformed line before pydantic-settings would skip it
            outside.update(DotEnvSettingsSource(cls, env_file=env_file)())
        outside.update(EnvSettingsSource(cls)() if environ is None else environ)
        # Other variables in the environment or the file are not ours; a misspelt keyword in code is refused.
        names = {field.alias for field in cls.model_fields.values()}
        values = {key: value for key, value in outside.items() if key in names}
        try:
            return cls(**values)
        except ValidationError as e:
            raise SettingsError(_first_message(e)) from None

    @field_validator("token", mode="before")
    @classmethod
    def _token_is_set(cls, raw: Any) -> Any:
        if _blank(raw):
            raise ValueError(MISSING_TOKEN)
        if isinstance(raw, str) and not is_token_shaped(raw.strip()):
            raise ValueError(BAD_TOKEN)
        return raw.strip() if isinstance(raw, str) else raw

    @field_validator("db_path", mode="before")
    @classmethod
    def _path(cls, raw: Any) -> Any:
        if _blank(raw):
            raise PydanticUseDefault()
        return raw.strip() if isinstance(raw, str) else raw

    @field_validator("database_url", mode="before")
    @classmethod
    def _postgres_url(cls, raw: Any) -> Any:
        if raw is None or _blank(raw):
            return None
        url = str(raw).strip()
        if not is_database_url(url):
            raise ValueError(
                "DATABASE_URL must be a PostgreSQL URL like postgresql://user:password@host:5432/cardtable "
                "(leave it unset to keep the SQLite file CARDTABLE_DB)"
            )
        return url

    @field_validator("shard_count", mode="before")
    @classmethod
    def _shard_count(cls, raw: Any) -> Any:
        if raw is None or _blank(raw):
            return None
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise ValueError(f"CARDTABLE_SHARDS must be a whole number of shards, not {raw!r}") from None
        if value < 1:
            raise ValueError("CARDTABLE_SHARDS must be at least 1")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _shard_range(cls, raw: Any) -> Any:
        if raw is None or _blank(raw):
            return None
        text = str(raw).strip()
        if not re.fullmatch(r"\d+(-\d+)?", text):
            raise ValueError(f"CARDTABLE_SHARD_IDS must be a shard number or a range like 0-3, not {raw!r}")
        return text

    def with_shards(self, count: int | None, ids: str | None) -> Settings:
        """These settings with the command line's shards (``--shards``, ``--shard-ids``) over the environment's."""
        values = self.model_dump()
        values.update({k: v for k, v in (("shard_count", count), ("shard_ids", ids)) if v is not None})
        try:
            return type(self)(**values)
        except ValidationError as e:
            raise SettingsError(_first_message(e)) from None

    def shards(self) -> tuple[int, list[int]] | None:
        """(shards in all, the ones this process runs), or None for one process with the bot's only shard."""
        if self.shard_count is None and self.shard_ids is None:
            return None
        count = self.shard_count or 1
        first, _, last = (self.shard_ids or f"0-{count - 1}").partition("-")
        ids = list(range(int(first), int(last or first) + 1))
        if not ids or ids[-1] >= count:
            raise SettingsError(f"shards {self.shard_ids} are not among the bot's {count} (numbered 0 to {count - 1})")
        return count, ids

    def database(self) -> str:
        """What ``Store.open`` opens: the PostgreSQL URL when one is set, else the SQLite file."""
        return self.database_url or self.db_path

    def database_name(self) -> str:
        """The database for the log: the URL without its password."""
        if self.database_url is None:
            return self.db_path
        return re.sub(r"(//[^:/@]*):[^@]*@", r"\1:***@", self.database_url)

    @field_validator("dev_guild_id", mode="before")
    @classmethod
    def _discord_id(cls, raw: Any, info: ValidationInfo) -> Any:
        if _blank(raw):
            raise PydanticUseDefault()
        if isinstance(raw, str):
            try:
                return int(raw)
            except ValueError:
                raise ValueError(f"{_env_name(info)} must be a number (a Discord id), not {raw!r}") from None
        return raw

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, raw: Any) -> Any:
        if _blank(raw):
            raise PydanticUseDefault()
        level = str(raw).strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"CARDTABLE_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        return level

    @field_validator("render", mode="before")
    @classmethod
    def _render_mode(cls, raw: Any) -> Any:
        if _blank(raw):
            raise PydanticUseDefault()
        mode = str(raw).strip().lower()
        if mode not in RENDER_MODES:
            raise ValueError(f"CARDTABLE_RENDER must be processes, threads or off, not {raw!r}")
        return mode

    def render_mode(self) -> Mode:
        """The render setting with "auto" settled for this machine."""
        return default_mode() if self.render == "auto" else cast(Mode, self.render)

    @field_validator("channel_requests", "global_requests", mode="before")
    @classmethod
    def _count(cls, raw: Any, info: ValidationInfo) -> Any:
        if _blank(raw):
            raise PydanticUseDefault()
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise ValueError(f"{_env_name(info)} must be a whole number of requests, not {raw!r}") from None
        if value < 1:
            raise ValueError(f"{_env_name(info)} must be at least 1")
        return value

    @field_validator(
        "ai_delay",
        "lease_seconds",
        "edit_interval",
        "hold_limit",
        "draw_interval",
        "kitty_pause",
        "channel_window",
        "global_window",
        mode="before",
    )
    @classmethod
    def _seconds(cls, raw: Any, info: ValidationInfo) -> Any:
        if _blank(raw):
            raise PydanticUseDefault()
        value = raw
        if isinstance(raw, str):
            try:
                value = float(raw)
            except ValueError:
                raise ValueError(f"{_env_name(info)} must be a number of seconds, not {raw!r}") from None
        if isinstance(value, int | float) and value < 0:
            raise ValueError(f"{_env_name(info)} cannot be negative")
        return value


def is_token_shaped(token: str) -> bool:
    if not TOKEN_SHAPE.fullmatch(token):
        return False
    user_id = token.split(".", 1)[0]
    try:
        decoded = base64.urlsafe_b64decode(user_id + "=" * (-len(user_id) % 4))
    except (binascii.Error, ValueError):
        return False
    return decoded.isdigit()


def _blank(raw: Any) -> bool:
    return isinstance(raw, str) and not raw.strip()


def _first_message(error: ValidationError) -> str:
    """Our validators' own sentence (pydantic prefixes "Value error, "); the token's when it is missing."""
    first = error.errors()[0]
    if first["type"] == "missing" and first["loc"] == ("DISCORD_TOKEN",):
        return MISSING_TOKEN
    if "error" in first.get("ctx", {}):
        return str(first["ctx"]["error"])
    return f"{'.'.join(map(str, first['loc']))}: {first['msg']}"
