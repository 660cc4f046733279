"""Computer players.  ``random`` picks uniformly among legal actions (tests and benchmarks rely on it).

``heuristic``, ``expert`` and ``master`` live in ``rules.ai`` and see only their seat's view
(``rules.ai.view.SeatView``); every level offers ``choose(match, rng)`` for the seat to move (pass ``history=``, the
current deal's actions from the record, when you have them), and ``rules.ai.choose_action`` / ``rules.ai.explain``
take any seat.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.actions import Action, DiscardChoice
from rules.game import Match


class RandomPlayer:
    name = "random"

    def choose(self, match: Match, rng: random.Random, history=None) -> Action:
        legal = match.legal_actions()
        if not legal:
            raise RuntimeError(f"no legal action for seat {match.to_move} in phase {match.phase}")
        pick = legal[rng.randrange(len(legal))]
        if isinstance(pick, DiscardChoice):
            return Action(pick.seat, "discard", cards=tuple(rng.sample(pick.from_cards, pick.choose)))
        return pick

    def choose_view(self, view, rng: random.Random) -> Action:
        from rules.ai.heuristic import safe_action

        return safe_action(view, rng)


def _heuristic():
    from rules.ai.heuristic import HeuristicPlayer

    return HeuristicPlayer()


def _expert(budget_s: float | None = None):
    from rules.ai.expert import ExpertPlayer
    from rules.ai.players import DEFAULT_BUDGET_S

    return ExpertPlayer(DEFAULT_BUDGET_S if budget_s is None else budget_s)


def _master(budget_s: float | None = None):
    from rules.ai.master import MasterPlayer
    from rules.ai.players import DEFAULT_BUDGET_S

    return MasterPlayer(DEFAULT_BUDGET_S if budget_s is None else budget_s)


# Each level's factory, weakest first; the searching levels' take an argument (their thinking time).
PLAYERS: dict[str, Callable[..., Any]] = {
    "random": RandomPlayer,
    "heuristic": _heuristic,
    "expert": _expert,
    "master": _master,
}
SEARCHING = frozenset({"expert", "master"})  # levels that think for a while (in a worker thread)
STRONGEST = "master"


def make_player(level: str, budget_s: float | None = None):
    """A player of ``level``; ``budget_s`` is a searching level's thinking time per decision (default 0.5 s)."""
    try:
        factory = PLAYERS[level]
    except KeyError:
        raise ValueError(f"unknown computer player level {level!r}; choose from {', '.join(PLAYERS)}") from None
    return factory(budget_s) if level in SEARCHING else factory()
