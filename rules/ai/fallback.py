"""When a computer player cannot decide: it still acts, and the failure is counted and logged, never hidden.

A computer seat must always move, so a level that raises or finds no sampled world gives way to a simpler one (the
expert to the heuristic, the heuristic to a random legal move).  Each such fallback is counted in ``counts`` (by
level and reason) and logged as a warning with the error.  Tests run the players under ``strict()``, where a fallback
raises ``FallbackError`` instead, so that no variant's failure goes unnoticed.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from rules.ai.view import SeatView

log = logging.getLogger("rules.ai")

counts: Counter[tuple[str, str]] = Counter()  # (level, reason) -> fallbacks since the process started
_strict = False


class FallbackError(RuntimeError):
    """A computer player fell back while ``strict()`` was on."""


def fell_back(level: str, reason: str, view: SeatView, error: BaseException | None = None) -> None:
    """Record that ``level`` could not decide for ``view`` and is about to act by a simpler rule."""
    where = f"{view.game} {dict(view.options)} seat {view.seat} in phase {view.phase}"
    if _strict:
        raise FallbackError(f"the {level} player fell back ({reason}) at {where}") from error
    counts[(level, reason)] += 1
    log.warning("the %s player fell back (%s) at %s", level, reason, where, exc_info=error)


@contextmanager
def strict() -> Iterator[None]:
    """Within this block a fallback raises ``FallbackError`` (tests: every variant must be played for real)."""
    global _strict
    before, _strict = _strict, True
    try:
        yield
    finally:
        _strict = before
