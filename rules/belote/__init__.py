"""Belote Contrée (coinche), FFB rules: see docs/rules/belote.md."""

from rules.belote.game_type import GAME_TYPE

__all__ = ["GAME_TYPE", "Belote"]


def __getattr__(name: str):
    # The engine loads on first use: reading the game's declaration (rules.registry) must not load it.
    if name == "Belote":
        from rules.belote.match import Belote

        return Belote
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
