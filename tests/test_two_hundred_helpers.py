"""Shared helpers for the Two Hundred tests: fixed deals, acting by JSON, playing a deal out."""

from __future__ import annotations

import random

from rules.actions import Action, DiscardChoice, action_from_json
from rules.cards import parse_card
from rules.dealing import DealCards
from rules.game import BETWEEN_DEALS, GAME_OVER
from rules.two_hundred import TwoHundred

# Every player holds one whole suit (36-card pack): seat 0 spades, 1 hearts, 2 diamonds, 3 clubs.
SUITED = ["AS KS QS JS 10S 9S 8S 7S 5S", "AH KH QH JH 10H 9H 8H 7H 5H", "AD KD QD JD 10D 9D 8D 7D 5D",
          "AC KC QC JC 10C 9C 8C 7C 5C"]  # fmt: skip


def cards(text: str) -> list[int]:
    return [parse_card(c) for c in text.split()]


def new_match(options: dict | None = None, dealer: int = 0, hands: list[str] | None = None, kitty: str = "",
              seed: int = 0) -> TwoHundred:  # fmt: skip
    m = TwoHundred(options, dealer)
    if hands is None:
        m.start_deal(m.random_deal(random.Random(seed)))
    else:
        m.start_deal(DealCards(hands=[cards(h) for h in hands], kitty=cards(kitty)))
    return m


def act(m: TwoHundred, seat: int, kind: str, **keys) -> None:
    m.apply(action_from_json({"seat": seat, "type": kind, **keys}))


def legal(m: TwoHundred) -> list[dict]:
    return m.legal_json()


def play_out(m: TwoHundred, rng: random.Random) -> None:
    """Random legal actions until the deal ends."""
    while m.phase not in (BETWEEN_DEALS, GAME_OVER):
        pick = rng.choice(m.legal_actions())
        if isinstance(pick, DiscardChoice):
            pick = Action(pick.seat, "discard", cards=tuple(rng.sample(pick.from_cards, pick.choose)))
        m.apply(pick)


def lowest_play(m: TwoHundred) -> None:
    """Play the lowest-id legal card for whoever is to play, until the deal ends."""
    while m.phase not in (BETWEEN_DEALS, GAME_OVER):
        plays = [a for a in m.legal_actions() if getattr(a, "type", "") == "play"]
        m.apply(plays[0])
