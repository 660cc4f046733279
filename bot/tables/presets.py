"""Named rule sets for ``/table new``, and the ``options`` text (``kitty=true target=300``) players type.

Presets are conveniences only: every option of an engine is reachable through the options text, which the engine
validates (its messages name the option and the allowed values).
"""

from __future__ import annotations

import json
import shlex
from typing import Any

# What players type for `game:`, and the record's game ids (accepted too).
GAME_CHOICES = {"200": "two_hundred", "500": "five_hundred", "belote": "belote", "dabaifen": "da_bai_fen"}

PRESETS: dict[str, dict[str, dict[str, Any]]] = {
    "two_hundred": {
        "standard": {},
        "kitty": {"kitty": True},
        "dealer-keeps": {"dealer_keeps": True},
        "hundred-for-two-hundred": {"hundred_for_two_hundred": True},
        "no-trump": {"no_trump": True},
        "le-rough": {"le_rough": True},
    },
    "five_hundred": {
        "standard": {},
        "two-players": {"players": 2},
        "four-players": {"players": 4},
        "five-players": {"players": 5},
        "six-players-pairs": {"players": 6, "six_player_method": 1},
        "six-players-two-teams": {"players": 6, "six_player_method": 2},
    },
    "belote": {
        "standard": {},
        "short-500": {"target": 500},
        "announced-scoring": {"scoring": "announced"},
        "with-no-trump-and-all-trumps": {"sans_atout": True, "tout_atout": True},
    },
    "da_bai_fen": {
        "standard": {},
        "short-to-7": {"target": "7"},
        "start-at-7": {"start_level": "7"},
        "steps-of-20": {"level_step": 20},
    },
}


class OptionsError(ValueError):
    pass


def game_id(choice: str) -> str:
    key = choice.strip().lower()
    if key in GAME_CHOICES:
        return GAME_CHOICES[key]
    if key in GAME_CHOICES.values() or key == "toy":  # the record's ids; "toy" exists only in tests
        return key
    raise OptionsError(f"Unknown game '{choice}': choose 200, 500, belote or dabaifen.")


def presets_for(game: str) -> dict[str, dict[str, Any]]:
    return PRESETS.get(game, {"standard": {}})


def parse_options_text(text: str | None) -> dict[str, Any]:
    """``kitty=true target=300 target=A`` → ``{"kitty": True, "target": 300}``; values are JSON when they parse
    (numbers, true/false), text otherwise."""
    options: dict[str, Any] = {}
    if not text or not text.strip():
        return options
    try:
        words = shlex.split(text.replace(",", " "))
    except ValueError as e:
        raise OptionsError(f"Could not read the options: {e}.") from None
    for word in words:
        key, sep, raw = word.partition("=")
        if not sep or not key:
            raise OptionsError(f"Options are written key=value (like kitty=true target=300); '{word}' is not.")
        try:
            value = json.loads(raw.lower() if raw.lower() in ("true", "false") else raw)
        except json.JSONDecodeError:
            value = raw
        options[key.strip().lower()] = value
    return options


def resolve(game: str, preset: str | None, text: str | None) -> tuple[str | None, dict[str, Any]]:
    """The preset's options overlaid by what the player typed (the engine validates the result)."""
    presets = presets_for(game)
    options: dict[str, Any] = {}
    if preset:
        key = preset.strip().lower()
        if key not in presets:
            raise OptionsError(f"Unknown preset '{preset}' for this game: choose from {', '.join(presets)}.")
        options.update(presets[key])
        preset = key
    options.update(_as_declared(game, parse_options_text(text)))
    return preset, options


def _as_declared(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Text-valued options (Da Bai Fen's levels: target=7) stay text even when they look like numbers."""
    from rules.registry import match_class

    try:
        declared = {o.name: o for o in match_class(game).OPTIONS}
    except Exception:
        return options
    return {
        k: str(v) if k in declared and isinstance(declared[k].default, str) and not isinstance(v, bool) else v
        for k, v in options.items()
    }
