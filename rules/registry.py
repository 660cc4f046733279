"""The games by record id.  Imported lazily so that using one game does not load the others."""

from __future__ import annotations

import importlib

from rules.errors import RecordError
from rules.game import Match

GAMES = {
    "two_hundred": ("rules.two_hundred", "TwoHundred"),
    "five_hundred": ("rules.five_hundred", "FiveHundred"),
    "belote": ("rules.belote", "Belote"),
    "da_bai_fen": ("rules.da_bai_fen", "DaBaiFen"),
}


def match_class(game_id: object) -> type[Match]:
    if not isinstance(game_id, str) or game_id not in GAMES:
        raise RecordError(f"unknown game {game_id!r}; the games are {', '.join(GAMES)}")
    module, name = GAMES[game_id]
    try:
        return getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        raise RecordError(f"the game {game_id!r} is not available in this build") from None


def new_match(game_id: str, options: dict | None = None, first_dealer: int = 0) -> Match:
    return match_class(game_id)(options, first_dealer)
