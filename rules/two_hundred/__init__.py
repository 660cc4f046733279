"""Two Hundred (200), the Acadian point-trick game: see docs/rules/two_hundred.md."""

from .match import TwoHundred

__all__ = ["TwoHundred"]
