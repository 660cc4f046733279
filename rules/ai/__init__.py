"""Computer players: information hiding by a seat's view, a sampler of hidden hands, and three levels.

Levels: ``random``, ``heuristic`` (per-game rules of thumb) and ``expert`` (determinized search over sampled worlds).
For the bot::

    from rules.ai import choose_action, explain
    action = choose_action("expert", match, seat, rng, budget_s=0.5, history=record.deals[-1].actions)
    action, line = explain("expert", match, seat, history=...)   # /hint: ("♥A", "♥A: 78% of samples win the trick")

``history`` is the current deal's actions as in the record (dicts or ``Action``); without it the players use what
the engine keeps (exact for Five Hundred, Belote and Two Hundred; Da Bai Fen loses the tricks already played).
See docs/ai.md.
"""

from __future__ import annotations

# First of all: a compiled module older than its .py is set aside for the .py (rules/ai/compiled.py, setup.py).
import rules.ai.compiled  # noqa: F401  isort: skip
import random

from rules.actions import Action
from rules.ai.view import SeatView, build_view
from rules.errors import Words
from rules.game import Match

# The submodule ``rules.ai.explain`` is loaded here, before the function of the same name is defined below: loaded
# later (on the first call), Python would bind the module over the function and the next ``from rules.ai import
# explain`` would get the module.
import rules.ai.explain  # noqa: E402, F401  isort: skip

__all__ = ["SeatView", "build_view", "choose_action", "explain", "make_ai_player"]


def make_ai_player(level: str, budget_s: float | None = None, worlds: int | None = None):
    from rules.ai.players import make_ai_player as make

    return make(level, budget_s, worlds)


def choose_action(
    level: str,
    match: Match,
    seat: int | None = None,
    rng: random.Random | None = None,
    budget_s: float | None = None,
    history=None,
) -> Action:
    """The action of ``level`` for ``seat`` (default: the seat to move), which must have a legal action now.

    The player is given only ``build_view(match, seat, history)``; ``budget_s`` bounds the expert's thinking time."""
    seat = match.to_move if seat is None else seat
    assert seat is not None, "no seat is to move"
    view = build_view(match, seat, history)
    rng = rng if rng is not None else random.Random(f"{match.deal_index}:{len(view.history)}:{seat}")
    return make_ai_player(level, budget_s).choose_view(view, rng)


def explain(
    level: str,
    match: Match,
    seat: int | None = None,
    rng: random.Random | None = None,
    budget_s: float | None = None,
    history=None,
) -> tuple[Action, Words]:
    """What ``level`` (normally ``expert``) would do for ``seat``, and why, in one line for a learner (/hint)."""
    from rules.ai.explain import explain_view

    seat = match.to_move if seat is None else seat
    assert seat is not None, "no seat is to move"
    view = build_view(match, seat, history)
    rng = rng if rng is not None else random.Random(f"hint:{match.deal_index}:{len(view.history)}:{seat}")
    return explain_view(level, view, rng, budget_s)
