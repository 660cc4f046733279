"""Five Hundred (game id ``five_hundred``): see docs/rules/five_hundred.md."""

from rules.five_hundred.game_type import GAME_TYPE

__all__ = ["GAME_TYPE", "FiveHundred"]


def __getattr__(name: str):
    # The engine loads on first use: reading the game's declaration (rules.registry) must not load it.
    if name == "FiveHundred":
        from rules.five_hundred.match import FiveHundred

        return FiveHundred
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
