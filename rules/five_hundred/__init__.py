"""Five Hundred (game id ``five_hundred``): see docs/rules/five_hundred.md."""

from rules.five_hundred.match import FiveHundred

__all__ = ["FiveHundred"]
