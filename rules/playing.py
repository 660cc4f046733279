"""Deals and whole games played out by computer players: the one loop behind ``cardtable simulate``, the benchmarks
and the property tests.

A player is anything with ``choose(match, rng, history)`` (``rules.players.RandomPlayer``, the levels of
``rules.ai``); a caller that checks or notes every position wraps its player in one that does so before it chooses.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from rules.actions import Action
from rules.dealing import DealCards
from rules.game import BETWEEN_DEALS, GAME_OVER, Match
from rules.records import GameRecord


class Player(Protocol):
    def choose(self, match: Match, rng: random.Random, history: list[Action]) -> Action:
        """The action for the seat to move; ``history`` is the deal's actions so far."""
        ...


def play_deal(
    match: Match,
    players: Sequence[Player],
    rng: random.Random,
    record: GameRecord | None = None,
    cards: DealCards | None = None,
) -> list[Action]:
    """Deal ``cards`` (by default a random deal drawn from ``rng``) and play the deal to its end, each seat's action
    chosen by ``players[seat]``; the cards and actions are added to ``record`` when one is given.  Returns the deal's
    actions."""
    if cards is None:
        cards = match.random_deal(rng)
    match.start_deal(cards)
    if record is not None:
        record.add_deal(cards)
    history: list[Action] = []
    while match.phase not in (BETWEEN_DEALS, GAME_OVER):
        seat = match.to_move
        assert seat is not None  # a deal in progress always has a seat to move
        action = players[seat].choose(match, rng, history)
        match.apply(action)
        history.append(action)
        if record is not None:
            record.append(action)
    return history


def play_game(
    match: Match,
    players: Sequence[Player],
    rng: random.Random,
    record: GameRecord | None = None,
    max_deals: int | None = None,
) -> Match:
    """Play random deals until the game is over, or until ``max_deals`` deals have been played; returns ``match``."""
    deals = 0
    while match.phase != GAME_OVER and (max_deals is None or deals < max_deals):
        play_deal(match, players, rng, record)
        deals += 1
    return match
