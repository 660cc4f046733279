"""The ranking of cards once the trump rank and suit are known, and what can beat a multi-card lead.

"In each hand there are eighteen trumps: the two jokers, all the cards of a particular suit (the trump suit) and all
the cards of a particular rank (the trump rank).  The highest trump is the red Joker, second is the black Joker, and
third is the card which belongs to both the trump suit and the trump rank.  Next come the other three cards of the
trump rank, which are equal in status.  Finally there are the remaining cards of the trump suit ..."

Each card gets an *effective suit* (``TRUMP`` for every trump: "Jokers and cards of the trump rank all count as
belonging to the trump suit") and a *strength* within it; equal strength means equal status (the first played wins).
"""

from __future__ import annotations

from functools import lru_cache

from rules.cards import BJ, KING, NUM_CARD_IDS, R2, R5, R10, RJ, card, rank_of, suit_of
from rules.tricks import mask_points

TRUMP = 4  # the effective suit of every trump
PACK = [card(r, s) for s in range(4) for r in (*range(R2, R10 + 1), 12, 13, 14, 15)] + [BJ, RJ]
PACK_MASK = sum(1 << c for c in PACK)
PACK_SET = frozenset(PACK)

# "Each King: 10 points, Each Ten: 10 points, Each Five: 5 points, Other cards: no value."
POINTS = [0] * NUM_CARD_IDS
for _s in range(4):
    POINTS[card(KING, _s)] = 10
    POINTS[card(R10, _s)] = 10
    POINTS[card(R5, _s)] = 5
COUNTING_MASK = sum(1 << c for c in range(NUM_CARD_IDS) if POINTS[c])

# Strength bands: plain cards keep their rank slot (0..15); trumps sit above every plain card.
_TRUMP_SUIT_BASE = 20  # trump-suit cards: 20 + rank slot
_OTHER_TWOS, _TRUMP_SUIT_TWO = 50, 51  # yuan zhu: twos rank between the trump rank and the ace
_OTHER_TRUMP_RANK, _TRUMP_SUIT_TRUMP_RANK = 60, 61
_BLACK_JOKER, _RED_JOKER = 70, 71


def points_of(mask: int) -> int:
    return mask_points(mask & COUNTING_MASK, POINTS)


class TrumpOrder:
    """Effective suit and strength of every card for one (trump rank, trump suit) pair."""

    __slots__ = ("rank", "suit", "twos_trump", "effective_suit", "strength", "suit_masks", "trump_mask")

    def __init__(self, rank: int, suit: int, twos_trump: bool = False):
        self.rank, self.suit, self.twos_trump = rank, suit, twos_trump
        self.effective_suit = [-1] * NUM_CARD_IDS
        self.strength = [-1] * NUM_CARD_IDS
        for c in PACK:
            self.effective_suit[c], self.strength[c] = self._place(c)
        self.suit_masks = [0] * 5
        for c in PACK:
            self.suit_masks[self.effective_suit[c]] |= 1 << c
        self.trump_mask = self.suit_masks[TRUMP]

    def _place(self, c: int) -> tuple[int, int]:
        if c == RJ:
            return TRUMP, _RED_JOKER
        if c == BJ:
            return TRUMP, _BLACK_JOKER
        r, s = rank_of(c), suit_of(c)
        if r == self.rank:
            return TRUMP, _TRUMP_SUIT_TRUMP_RANK if s == self.suit else _OTHER_TRUMP_RANK
        if self.twos_trump and r == R2:
            return TRUMP, _TRUMP_SUIT_TWO if s == self.suit else _OTHER_TWOS
        if s == self.suit:
            return TRUMP, _TRUMP_SUIT_BASE + r
        return s, r

    def stronger_in_suit(self, c: int) -> int:
        """The mask of cards of ``c``'s effective suit that strictly beat ``c`` ("beats" is strictly higher)."""
        key = self.strength[c]
        strength = self.strength
        out = 0
        mask = self.suit_masks[self.effective_suit[c]]
        while mask:
            low = mask & -mask
            other = low.bit_length() - 1
            if strength[other] > key:
                out |= low
            mask ^= low
        return out

    def lowest(self, cards: tuple[int, ...] | list[int]) -> int:
        """The weakest of ``cards`` (the first given among equals)."""
        best = cards[0]
        for c in cards[1:]:
            if self.strength[c] < self.strength[best]:
                best = c
        return best


@lru_cache(maxsize=128)
def trump_order(rank: int, suit: int, twos_trump: bool = False) -> TrumpOrder:
    return TrumpOrder(rank, suit, twos_trump)


def beating_cards(order: TrumpOrder, lead: tuple[int, ...] | list[int], candidates: int) -> dict[int, int]:
    """For each card of a multi-card lead, the mask of ``candidates`` that strictly beat it (beaten cards only).

    "if more than one card is led at once, all the cards led must be higher than any card of the suit led
    remaining in any player's hand."  Beating the lead's weakest card is what decides; the per-card answer tells a
    player exactly which of their cards are at risk."""
    out = {}
    for c in lead:
        beats = order.stronger_in_suit(c) & candidates
        if beats:
            out[c] = beats
    return out
