"""Computer players.  ``random`` picks uniformly among legal actions (tests and benchmarks rely on it)."""

from __future__ import annotations

import random

from rules.actions import Action, DiscardChoice
from rules.game import Match


class RandomPlayer:
    name = "random"

    def choose(self, match: Match, rng: random.Random) -> Action:
        legal = match.legal_actions()
        if not legal:
            raise RuntimeError(f"no legal action for seat {match.to_move} in phase {match.phase}")
        pick = legal[rng.randrange(len(legal))]
        if isinstance(pick, DiscardChoice):
            return Action(pick.seat, "discard", cards=tuple(rng.sample(pick.from_cards, pick.choose)))
        return pick


PLAYERS = {"random": RandomPlayer}


def make_player(level: str):
    try:
        return PLAYERS[level]()
    except KeyError:
        raise ValueError(f"unknown computer player level {level!r}; choose from {', '.join(PLAYERS)}") from None
