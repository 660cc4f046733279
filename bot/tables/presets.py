"""Named rule sets for ``/table new``, and the ``options`` text (``kitty=true target=300``) players type.

Presets are conveniences only: every option of an engine is reachable through the options text, which the engine
validates (its messages name the option and the allowed values).
"""

from __future__ import annotations

import json
import math
import shlex
from typing import Any

from rules import registry


class OptionsError(ValueError):
    """Options or settings that cannot be used.  As with ``Refusal``, the message is a message id (English) with
    ``fields``, translated for the player who asked (bot/presentation/errors.py); ``str()`` is the English text."""

    def __init__(self, message: str, **fields: Any):
        self.msgid = message
        self.fields = fields
        super().__init__(message.format(**fields) if fields else message)


def game_id(choice: str) -> str:
    """The record id of the game a player typed: a game's short form (``200``), another alias, or its id."""
    found = registry.find(choice)
    if found is None:
        raise OptionsError("Unknown game '{game}': choose {games}.", game=choice, games=registry.choices_text())
    return found.id


def presets_for(game: str) -> dict[str, dict[str, Any]]:
    found = registry.lookup(game)
    return {name: dict(options) for name, options in found.presets.items()} if found else {"standard": {}}


def parse_options_text(text: str | None) -> dict[str, Any]:
    """``kitty=true target=300 target=A`` → ``{"kitty": True, "target": 300}``; values are JSON when they parse
    (numbers, true/false), text otherwise."""
    options: dict[str, Any] = {}
    if not text or not text.strip():
        return options
    try:
        words = shlex.split(text.replace(",", " "))
    except ValueError as e:
        raise OptionsError("Could not read the options: {error}.", error=str(e)) from None
    for word in words:
        key, sep, raw = word.partition("=")
        if not sep or not key:
            raise OptionsError(
                "Options are written key=value (like kitty=true target=300); '{word}' is not.", word=word
            )
        options[key.strip().lower()] = _option_value(key, raw)
    return options


NUMBER_DIGITS = 9  # no option of any game needs a longer number


def _option_value(key: str, raw: str) -> Any:
    """A number (of at most ``NUMBER_DIGITS`` digits), true/false, or the text itself."""
    digits = raw.lstrip("+-").split(".")[0].split("e")[0].split("E")[0]
    if digits.isdigit() and len(digits) > NUMBER_DIGITS:
        raise OptionsError("The value of {key} is far too large a number.", key=key)
    try:
        value = json.loads(raw.lower() if raw.lower() in ("true", "false") else raw)
    except ValueError:
        return raw
    if isinstance(value, bool | int) or (isinstance(value, float) and math.isfinite(value)):
        return value
    return raw  # text, or JSON that is no single value (a list, say): the engine refuses what it does not know


def resolve(game: str, preset: str | None, text: str | None) -> tuple[str | None, dict[str, Any]]:
    """The preset's options overlaid by what the player typed (the engine validates the result)."""
    presets = presets_for(game)
    options: dict[str, Any] = {}
    if preset:
        key = preset.strip().lower()
        if key not in presets:
            raise OptionsError(
                "Unknown preset '{preset}' for this game: choose from {presets}.",
                preset=preset,
                presets=", ".join(presets),
            )
        options.update(presets[key])
        preset = key
    options.update(_as_declared(game, parse_options_text(text)))
    return preset, options


def _as_declared(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Text-valued options (a level such as target=7) stay text even when they look like numbers."""
    try:
        declared = {o.name: o for o in registry.match_class(game).OPTIONS}
    except Exception:
        return options
    return {
        k: str(v) if k in declared and isinstance(declared[k].default, str) and not isinstance(v, bool) else v
        for k, v in options.items()
    }
