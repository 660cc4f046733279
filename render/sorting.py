"""Sorting a hand the way players of each game sort it.

Suits alternate colours (black, red, black, red) so that neighbouring suits are easy to tell apart; once trump is
known the trumps come first, holding every card that plays as a trump:

- Two Hundred: A 10 K Q J 9 8 7 6 5 (4 3 2 in the 52-card form) in each suit.
- Belote: trump J 9 A 10 K Q 8 7, plain suits A 10 K Q J 9 8 7.
- Five Hundred: the Joker, the right bower (jack of trumps), the left bower (the other jack of that colour), then
  A K Q 13 12 11 10 9 ... of trumps; the Joker first at no trumps and before trump is known.
- Da Bai Fen: red joker, black joker, the trump-suit card of the trump rank, the other trump-rank cards, then the
  trump suit A..2 without the trump rank; the other suits A..2 without the trump rank.

The card orders are the games' trick-winning orders as the rule texts give them (rule-decisions.md); the engines
are the authority on play, these small tables only decide where a card sits in a picture.
"""

from __future__ import annotations

from render.cards import split_card

NATURAL = ("A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2")
ORDERS = {
    "two_hundred": ("A", "10", "K", "Q", "J", "9", "8", "7", "6", "5", "4", "3", "2"),
    "belote": ("A", "10", "K", "Q", "J", "9", "8", "7"),
    "five_hundred": NATURAL,
    "da_bai_fen": NATURAL,
}
BELOTE_TRUMP = ("J", "9", "A", "10", "K", "Q", "8", "7")
RED = {"H", "D"}
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def suit_order(trump: str | None) -> list[str]:
    """Suits left to right, colours alternating; the trump suit first when there is one."""
    if trump not in ("S", "H", "D", "C"):
        return ["S", "H", "C", "D"]
    others = [s for s in "SHCD" if (s in RED) != (trump in RED)]  # the two suits of the other colour
    return [trump, others[0], SAME_COLOUR[trump], others[1]]


def _rank_pos(order: tuple[str, ...], rank: str) -> int:
    return order.index(rank) if rank in order else len(order) + NATURAL.index(rank)


def sort_key(game: str, trump: str | None = None, trump_rank: str | None = None):
    """A key function for ``sorted``: cards as written in records (``"10H"``, ``"JK"``)."""
    suits = suit_order(trump)
    plain = ORDERS.get(game, NATURAL)
    has_trump = trump in ("S", "H", "D", "C")

    def key(card: str) -> tuple[int, int, int]:
        rank, suit = split_card(card)
        if not suit:  # jokers lead the hand, the bigger first
            return (0, {"RJ": 0, "JK": 0, "BJ": 1}[rank], 0)
        group = 1 + suits.index(suit)
        if game == "belote" and has_trump and suit == trump:
            return (group, _rank_pos(BELOTE_TRUMP, rank), 0)
        if game == "five_hundred" and trump is not None and has_trump and rank == "J":
            if suit == trump:
                return (1, -2, 0)  # right bower
            if suit == SAME_COLOUR[trump]:
                return (1, -1, 0)  # left bower
        if game == "da_bai_fen" and trump_rank is not None and rank == trump_rank:
            # Trump-rank cards sit with the trumps: the trump suit's first, then the others in suit order.
            return (1, -10 + (0 if suit == trump else 1 + suits.index(suit)), 0)
        return (group, _rank_pos(plain, rank), 0)

    return key


def sort_hand(game: str, cards: list[str], trump: str | None = None, trump_rank: str | None = None) -> list[str]:
    """``cards`` in the order a player of ``game`` would hold them (names as given, order changed only)."""
    return sorted(cards, key=sort_key(game, trump, trump_rank))
