"""Every game, by record id: its ``GameType`` (declared in the game's package) and, on first use, its engine.

Only the declarations are read when this module loads; an engine is imported when a match of that game is made,
so using one game does not load the others.
"""

from __future__ import annotations

import importlib

from rules.errors import RecordError
from rules.game import Match
from rules.game_type import GameType

# The packages that declare a ``GAME_TYPE``, in the order games are listed to players.
BUILT_IN = ("rules.two_hundred", "rules.five_hundred", "rules.belote", "rules.da_bai_fen")

_GAMES: dict[str, GameType] = {}


def register(game_type: GameType) -> GameType:
    """Add a game (the built-in ones are added on import); registering the same declaration again is harmless."""
    known = _GAMES.get(game_type.id)
    if known is not None and known != game_type:
        raise ValueError(f"another game is already registered as {game_type.id!r}")
    taken = {alias: other.id for other in _GAMES.values() if other.id != game_type.id for alias in other.aliases}
    clash = [a for a in (game_type.id, *game_type.aliases) if a in taken or (a in _GAMES and a != game_type.id)]
    if clash:
        raise ValueError(f"game {game_type.id!r}: {clash[0]!r} already names another game")
    _GAMES[game_type.id] = game_type
    return game_type


def _register_built_in() -> None:
    for package in BUILT_IN:
        try:
            module = importlib.import_module(package)
        except ModuleNotFoundError as e:  # a build without this game
            if e.name != package:
                raise
            continue
        register(module.GAME_TYPE)


_register_built_in()


def games() -> list[GameType]:
    return list(_GAMES.values())


def lookup(game_id: object) -> GameType | None:
    """The game with this record id, or None."""
    return _GAMES.get(game_id) if isinstance(game_id, str) else None


def game_type(game_id: object) -> GameType:
    found = lookup(game_id)
    if found is None:
        raise RecordError(f"unknown game {game_id!r}; the games are {', '.join(_GAMES)}")
    return found


def find(typed: str) -> GameType | None:
    """The game a player means by ``typed``: one of its aliases or its record id, in any case."""
    key = typed.strip().lower()
    for game in _GAMES.values():
        if key == game.id or key in game.aliases:
            return game
    return None


def choices_text() -> str:
    """What players may type for a game, as a sentence's end: ``200, 500, belote or dabaifen``."""
    short = [g.short_name for g in _GAMES.values()]
    return short[0] if len(short) == 1 else f"{', '.join(short[:-1])} or {short[-1]}"


def match_class(game_id: object) -> type[Match]:
    found = game_type(game_id)
    try:
        return found.match_class()
    except ModuleNotFoundError as e:
        if e.name != found.engine.partition(":")[0]:
            raise
        raise RecordError(f"the game {found.id!r} is not available in this build") from None


def new_match(game_id: str, options: dict | None = None, first_dealer: int = 0) -> Match:
    return match_class(game_id)(options, first_dealer)
