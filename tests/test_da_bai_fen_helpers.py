"""Building Da Bai Fen deals for tests (no tests here): stocks giving chosen seats chosen cards, a fixed layout."""

from __future__ import annotations

import random

from rules.actions import Action
from rules.cards import parse_card
from rules.da_bai_fen import DaBaiFen
from rules.da_bai_fen.order import PACK
from rules.dealing import DealCards


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def stock_for(hands: list[list[int]], kitty: list[int], starter: int) -> list[int]:
    """The stock (top first) that deals ``hands`` when ``starter`` draws first."""
    stock = [0] * 54
    for seat in range(4):
        draw_order = (seat - starter) % 4
        for i, c in enumerate(hands[seat]):
            stock[draw_order + 4 * i] = c
    stock[48:] = kitty
    return stock


def stock_giving(starter: int, wanted: dict[int, list[int]], seed: int = 0, kitty: list[int] = ()) -> list[int]:
    """A random stock in which each seat of ``wanted`` receives those cards (and the kitty holds ``kitty``)."""
    rng = random.Random(seed)
    taken = {c for cs in wanted.values() for c in cs} | set(kitty)
    rest = [c for c in PACK if c not in taken]
    rng.shuffle(rest)
    hands = []
    for seat in range(4):
        mine = list(wanted.get(seat, []))
        while len(mine) < 12:
            mine.append(rest.pop())
        hands.append(mine)
    return stock_for(hands, list(kitty) + rest[: 6 - len(kitty)], starter)


# Trump rank 2 (first deal); seat 0 exposes 2S: spades are trumps.
BASE = [
    "2S RJ AS KS AH KH QH 3H AD KD 3C 4C",
    "BJ QS JS JH 10H 4H QD JD AC KC QC 5C",
    "2H 10S 9S 9H 8H 10D 9D 8D JC 10C 9C 6C",
    "2D 8S 7S 7H 6H 5H 7D 6D 5D 8C 7C 2C",
]
BASE_KITTY = "6S 5S 4S 3S 4D 3D"


def layout(swaps: list[tuple[str, str]] = ()) -> list[list[int]]:
    """The base hands with pairs of cards exchanged between their holders."""
    hands = [cards(h) for h in BASE]
    for a, b in swaps:
        ca, cb = parse_card(a), parse_card(b)
        sa = next(s for s in range(4) if ca in hands[s])
        sb = next(s for s in range(4) if cb in hands[s])
        hands[sa][hands[sa].index(ca)] = cb
        hands[sb][hands[sb].index(cb)] = ca
    return hands


def draw_all(match: DaBaiFen, expose: dict[int, tuple[int, str]] | None = None, until: int = 48) -> None:
    """Everyone draws in turn; ``expose`` maps a number of cards drawn to (seat, card) exposed at that moment."""
    expose = expose or {}
    while match.phase == "deal" and match.drawn < until:
        if match.drawn in expose:
            seat, name = expose.pop(match.drawn)
            match.apply(Action(seat, "expose", card=parse_card(name)))
        match.apply(Action(match.to_move, "draw"))
    for seat, name in expose.values():  # exposures after the last card drawn
        match.apply(Action(seat, "expose", card=parse_card(name)))


def base_match(swaps=(), options=None, discard: str | None = BASE_KITTY) -> DaBaiFen:
    """First deal, starter 0, seat 0 exposes 2S after the draw; discards the kitty back (5S: 5 points)."""
    match = DaBaiFen(options, 0)
    match.start_deal(DealCards(stock=stock_for(layout(swaps), cards(BASE_KITTY), 0)))
    draw_all(match, {47: (0, "2S")})
    if discard is not None:
        match.apply(Action(0, "discard", cards=tuple(cards(discard))))
    return match


def play(match: DaBaiFen, seat: int, text: str) -> None:
    match.apply(Action(seat, "play", cards=tuple(cards(text))))


def finish_with(match: DaBaiFen, opponent_points: int) -> None:
    """Test shortcut: end the deal now as though the opponents had taken ``opponent_points``."""
    opponents = 1 - match.declarers
    match.points = [0, 0]
    match.points[opponents] = opponent_points
    match._score_deal()
