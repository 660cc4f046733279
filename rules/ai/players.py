"""The levels as player objects that are given a ``SeatView`` only (``choose_view``)."""

from __future__ import annotations

import random

from rules.actions import Action
from rules.ai.heuristic import HeuristicPlayer, safe_action
from rules.ai.view import SeatView, build_view

LEVELS = ("random", "heuristic", "expert", "master")
DEFAULT_BUDGET_S = 0.5


class RandomViewPlayer:
    name = "random"

    def choose(self, match, rng: random.Random, history=None) -> Action:
        return self.choose_view(build_view(match, match.to_move, history), rng)

    def choose_view(self, view: SeatView, rng: random.Random) -> Action:
        return safe_action(view, rng)


def make_ai_player(level: str, budget_s: float | None = None, worlds: int | None = None):
    """``worlds``: the expert (or master) searches exactly this many sampled worlds (deterministic with a seed)
    instead of searching until ``budget_s`` runs out."""
    if level == "random":
        return RandomViewPlayer()
    if level == "heuristic":
        return HeuristicPlayer()
    if level == "expert":
        from rules.ai.expert import ExpertPlayer

        if worlds is not None:
            return ExpertPlayer(None, max_worlds=worlds)
        return ExpertPlayer(DEFAULT_BUDGET_S if budget_s is None else budget_s)
    if level == "master":
        from rules.ai.master import MasterPlayer

        if worlds is not None:
            return MasterPlayer(None, max_worlds=worlds)
        return MasterPlayer(DEFAULT_BUDGET_S if budget_s is None else budget_s)
    raise ValueError(f"unknown computer player level {level!r}; choose from {', '.join(LEVELS)}")
