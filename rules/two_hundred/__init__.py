"""Two Hundred (200), the Acadian point-trick game: see docs/rules/two_hundred.md."""

from rules.two_hundred.game_type import GAME_TYPE

__all__ = ["GAME_TYPE", "TwoHundred"]


def __getattr__(name: str):
    # The engine loads on first use: reading the game's declaration (rules.registry) must not load it.
    if name == "TwoHundred":
        from rules.two_hundred.match import TwoHundred

        return TwoHundred
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
