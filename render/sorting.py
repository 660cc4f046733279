"""Sorting a hand the way players of each game sort it.

Suits alternate colours (black, red, black, red) so that neighbouring suits are easy to tell apart; once trump is
known the trumps come first, holding every card that plays as a trump (jokers, bowers, the cards of the trump
rank).  Each game's rank orders are in its registry entry (``HandOrder``): the trick-winning orders as the rule texts
give them.  The engines are the authority on play; these orders only decide where a card sits in a picture.
"""

from __future__ import annotations

from functools import lru_cache

from render.cards import split_card
from rules.game_type import NATURAL_RANKS, HandOrder
from rules.registry import lookup

RED = {"H", "D"}
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def suit_order(trump: str | None) -> list[str]:
    """Suits left to right, colours alternating; the trump suit first when there is one."""
    if trump not in ("S", "H", "D", "C"):
        return ["S", "H", "C", "D"]
    others = [s for s in "SHCD" if (s in RED) != (trump in RED)]  # the two suits of the other colour
    return [trump, others[0], SAME_COLOUR[trump], others[1]]


def _rank_pos(order: tuple[str, ...], rank: str) -> int:
    return order.index(rank) if rank in order else len(order) + NATURAL_RANKS.index(rank)


@lru_cache(maxsize=256)
def sort_key(game: str, trump: str | None = None, trump_rank: str | None = None):
    """A key function for ``sorted``: cards as written in records (``"10H"``, ``"JK"``); kept, as a picture asks
    for one per card it colours."""
    suits = suit_order(trump)
    found = lookup(game)
    order = found.hand_order if found else HandOrder()
    rank_is_trump = found is not None and found.has_trump_rank and trump_rank is not None
    has_trump = trump in ("S", "H", "D", "C")

    def key(card: str) -> tuple[int, int, int]:
        rank, suit = split_card(card)
        if not suit:  # jokers lead the hand, the bigger first
            return (0, {"RJ": 0, "JK": 0, "BJ": 1}[rank], 0)
        group = 1 + suits.index(suit)
        if order.trump is not None and has_trump and suit == trump:
            return (group, _rank_pos(order.trump, rank), 0)
        if order.bowers and trump is not None and has_trump and rank == "J":
            if suit == trump:
                return (1, -2, 0)  # right bower
            if suit == SAME_COLOUR[trump]:
                return (1, -1, 0)  # left bower
        if rank_is_trump and rank == trump_rank:
            # Trump-rank cards sit with the trumps: the trump suit's first, then the others in suit order.
            return (1, -10 + (0 if suit == trump else 1 + suits.index(suit)), 0)
        return (group, _rank_pos(order.plain, rank), 0)

    return key


def sort_hand(game: str, cards: list[str], trump: str | None = None, trump_rank: str | None = None) -> list[str]:
    """``cards`` in the order a player of ``game`` would hold them (names as given, order changed only)."""
    return sorted(cards, key=sort_key(game, trump, trump_rank))
