"""Per-server settings and the turn clocks they allow: validated here, stored as JSON in ``guild_settings``.

Clocks: ``live`` (60 s a turn), ``casual`` (10 min), ``async`` (24 h), or a custom duration written ``90s``, ``5m``,
``2h``, ``3d`` (15 seconds to 7 days).  Settings: the server's default clock, per game a default clock and a default
rule preset, which clocks may be chosen, which channels may host tables (none listed = any), the most tables being
played or waiting in one channel, and whether computer players may fill seats.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from typing import Any

from bot.i18n import LANGUAGES, N_, _
from bot.storage.settings import load_guild_settings, save_guild_settings
from bot.storage.store import Store
from bot.tables.presets import OptionsError, game_id, presets_for

CLOCK_PRESETS = {"live": 60, "casual": 600, "async": 86_400}
CLOCK_KINDS = ("live", "casual", "async", "custom")
CUSTOM_MIN, CUSTOM_MAX = 15, 7 * 86_400
# Games whose turn is this long or longer are played asynchronously: reminders and summaries come by DM.
ASYNC_FROM = 3600
_UNITS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hr": 3600, "d": 86_400, "day": 86_400, "days": 86_400}
_DURATION = re.compile(r"^\s*(?:custom[\s:=]*)?(\d+(?:\.\d+)?)\s*([a-z]*)\s*$")


class SettingsRefusal(OptionsError):
    """A setting or clock that cannot be used; the message says why and what is allowed."""


@dataclass(frozen=True)
class ClockChoice:
    kind: str  # live, casual, async or custom
    seconds: int

    @property
    def name(self) -> str:
        return self.kind if self.kind != "custom" else f"custom {duration_text(self.seconds)}"

    @property
    def is_async(self) -> bool:
        return self.seconds >= ASYNC_FROM

    def spec(self) -> str:
        """How it is written in settings: the preset's name, or the custom duration in seconds."""
        return self.kind if self.kind != "custom" else f"{self.seconds}s"


def duration_text(seconds: float) -> str:
    """60 → "1 min", 5400 → "1 h 30 min", 86400 → "24 h", 3 days → "3 days"."""
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return _("{n} s", n=seconds)
    if seconds < 3600:
        m, s = divmod(seconds, 60)
        return _("{n} min", n=m) + (" " + _("{n} s", n=s) if s else "")
    if seconds <= 48 * 3600:
        h, rest = divmod(seconds, 3600)
        return _("{n} h", n=h) + (" " + _("{n} min", n=rest // 60) if rest // 60 else "")
    d, rest = divmod(seconds, 86_400)
    return _("{n} days", n=d) + (" " + _("{n} h", n=rest // 3600) if rest // 3600 else "")


def parse_clock(text: str) -> ClockChoice:
    key = text.strip().lower()
    if key in CLOCK_PRESETS:
        return ClockChoice(key, CLOCK_PRESETS[key])
    match = _DURATION.match(key)
    if not match or match[2] not in ("", *_UNITS):
        raise SettingsRefusal(
            "'{text}' is not a clock: choose live (60 s a turn), casual (10 min), async (24 h), "
            "or a duration such as 90s, 5m, 2h or 3d.",
            text=text,
        )
    seconds = int(float(match[1]) * _UNITS.get(match[2] or "s", 1))
    if not CUSTOM_MIN <= seconds <= CUSTOM_MAX:
        raise SettingsRefusal(
            "A custom clock must be between {least} s and {most} days a turn, not {duration}.",
            least=CUSTOM_MIN,
            most=CUSTOM_MAX // 86_400,
            duration=duration_text(seconds),
        )
    return ClockChoice("custom", seconds)


@dataclass
class GuildSettings:
    default_clock: str = "casual"
    game_clocks: dict[str, str] = field(default_factory=dict)
    game_presets: dict[str, str] = field(default_factory=dict)
    allowed_clocks: list[str] = field(default_factory=lambda: list(CLOCK_KINDS))
    channels: list[int] = field(default_factory=list)  # empty: any channel
    max_tables: int = 5
    computers: bool = True
    language: str | None = None  # new tables' language (bot/i18n); None: the server's preferred locale

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GuildSettings:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    # --- what the settings allow -----------------------------------------------------------------------------

    def clock_for(self, game: str, requested: str | None) -> ClockChoice:
        """The table's clock: the one asked for (if this server allows it), else the game's or server's default."""
        if requested is None or not requested.strip():
            return parse_clock(self.game_clocks.get(game) or self.default_clock)
        choice = parse_clock(requested)
        if choice.kind not in self.allowed_clocks:
            raise SettingsRefusal(
                "This server does not allow {kind} clocks; allowed: {allowed}. (Admins set this with /cardtable "
                "settings.)",
                kind=choice.kind,
                allowed=", ".join(self.allowed_clocks),
            )
        return choice

    def preset_for(self, game: str, requested: str | None) -> str | None:
        return requested if requested else self.game_presets.get(game)

    def check_channel(self, channel_id: int) -> None:
        if self.channels and channel_id not in self.channels:
            where = ", ".join(f"<#{c}>" for c in self.channels)
            raise SettingsRefusal("Tables cannot be opened in this channel on this server; use {where}.", where=where)

    # --- changing them ----------------------------------------------------------------------------------------

    def describe(self) -> str:
        default = parse_clock(self.default_clock)
        lines = [
            _("**Default clock:** {clock} ({duration})", clock=_(default.name), duration=clock_text(default)),
            _("**Allowed clocks:** {clocks}", clocks=", ".join(_(c) for c in self.allowed_clocks)),
            _("**Channels that may host tables:** {channels}",
              channels=", ".join(f"<#{c}>" for c in self.channels) if self.channels else _("any channel")),
            _("**Most tables per channel:** {count}", count=self.max_tables),
            _("**Computer players may fill seats:** {answer}", answer=_("yes") if self.computers else _("no")),
            _("**Tables' language:** {language}",
              language=LANGUAGES.get(self.language, self.language) if self.language
              else _("the server's preferred locale")),
        ]  # fmt: skip
        games = sorted(set(self.game_clocks) | set(self.game_presets))
        for game in games:
            parts = []
            if game in self.game_presets:
                parts.append(_("preset {preset}", preset=self.game_presets[game]))
            if game in self.game_clocks:
                parts.append(_("clock {clock}", clock=_(parse_clock(self.game_clocks[game]).name)))
            lines.append(f"**{game}:** " + ", ".join(parts))
        return "\n".join(lines)


def clock_text(choice: ClockChoice) -> str:
    return _("{duration} a turn", duration=duration_text(choice.seconds))


CLOCK_NAMES = (N_("live"), N_("casual"), N_("async"))  # the clocks' names, for the catalogues


def parse_channels(text: str) -> list[int]:
    """``<#1> <#2>`` or ids; ``all``/``any`` for every channel."""
    if text.strip().lower() in ("all", "any", "none", "*", ""):
        return []
    ids = []
    for word in re.split(r"[\s,]+", text.strip()):
        match = re.fullmatch(r"<#(\d+)>|(\d+)", word)
        if not match:
            raise SettingsRefusal("'{word}' is not a channel: mention channels like #tables, or write all.", word=word)
        ids.append(int(match[1] or match[2]))
    return list(dict.fromkeys(ids))


def parse_allowed(text: str) -> list[str]:
    words = [w for w in re.split(r"[\s,]+", text.strip().lower()) if w]
    if words in (["all"], ["any"]):
        return list(CLOCK_KINDS)
    bad = [w for w in words if w not in CLOCK_KINDS]
    if bad or not words:
        kinds = ", ".join(CLOCK_KINDS)
        if bad:
            raise SettingsRefusal("Allowed clocks are a list of {kinds} (or all); '{word}' is not one.", kinds=kinds,
                                  word=bad[0])  # fmt: skip
        raise SettingsRefusal("Allowed clocks are a list of {kinds} (or all); the list is empty.", kinds=kinds)
    return [k for k in CLOCK_KINDS if k in words]


def apply_changes(settings: GuildSettings, changes: dict[str, Any]) -> GuildSettings:
    """A new settings object with ``changes`` applied and checked as a whole; ``SettingsRefusal`` says what is wrong."""
    new = GuildSettings.from_json(json.loads(json.dumps(settings.to_json())))
    game = changes.get("game")
    if game is not None:
        game = game_id(game)
    if changes.get("allowed_clocks") is not None:
        new.allowed_clocks = parse_allowed(changes["allowed_clocks"])
    if changes.get("clock") is not None:
        choice = parse_clock(changes["clock"])
        if game:
            new.game_clocks[game] = choice.spec()
        else:
            new.default_clock = choice.spec()
    if changes.get("preset") is not None:
        if not game:
            raise SettingsRefusal("Say which game the default preset is for, with the `game` option.")
        preset = changes["preset"].strip().lower()
        if preset in ("", "none"):
            new.game_presets.pop(game, None)
        elif preset not in presets_for(game):
            raise SettingsRefusal(
                "Unknown preset '{preset}' for {game}: choose from {presets}.",
                preset=preset,
                game=game,
                presets=", ".join(presets_for(game)),
            )
        else:
            new.game_presets[game] = preset
    if changes.get("channels") is not None:
        new.channels = parse_channels(changes["channels"])
    if changes.get("max_tables") is not None:
        value = changes["max_tables"]
        if not isinstance(value, int) or not 1 <= value <= 50:
            raise SettingsRefusal("The most tables per channel must be between 1 and 50, not {value}.", value=value)
        new.max_tables = value
    if changes.get("computers") is not None:
        new.computers = bool(changes["computers"])
    if changes.get("language") is not None:
        new.language = None if changes["language"] == "default" else changes["language"]
    # The defaults must stay allowed, or nobody could open a table without naming a clock.
    allowed = ", ".join(new.allowed_clocks)
    if parse_clock(new.default_clock).kind not in new.allowed_clocks:
        raise SettingsRefusal(
            "The default clock is {kind}, which would not be allowed (allowed: {allowed}). Change both together.",
            kind=parse_clock(new.default_clock).kind,
            allowed=allowed,
        )
    for game_, spec in sorted(new.game_clocks.items()):
        kind = parse_clock(spec).kind
        if kind not in new.allowed_clocks:
            raise SettingsRefusal(
                "The default clock of {game} is {kind}, which would not be allowed (allowed: {allowed}). Change both "
                "together.",
                game=game_,
                kind=kind,
                allowed=allowed,
            )
    return new


# --- the store ------------------------------------------------------------------------------------------------


async def load(store: Store, guild_id: int | None) -> GuildSettings:
    saved = await load_guild_settings(store, guild_id) if guild_id is not None else None
    return GuildSettings.from_json(saved) if saved is not None else GuildSettings()


async def save(store: Store, guild_id: int, settings: GuildSettings, user_id: int | None) -> None:
    await save_guild_settings(store, guild_id, settings.to_json(), user_id)


async def check_new_table(store: Store, guild_id: int | None, channel_id: int, game: str, clock: str | None):
    """What ``/table new`` must pass: the channel may host tables and has room, the clock is allowed.
    Returns the server's settings and the table's clock."""
    settings = await load(store, guild_id)
    settings.check_channel(channel_id)
    count = await store.open_tables_in(channel_id)
    if count >= settings.max_tables:
        raise SettingsRefusal(
            "This channel already has {count} open table(s) (the most this server allows is {most}); finish or cancel "
            "one, or play in another channel.",
            count=count,
            most=settings.max_tables,
        )
    return settings, settings.clock_for(game, clock)
