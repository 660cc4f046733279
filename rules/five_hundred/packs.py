"""The packs for each number of players, and the order of the cards with the Joker and the bowers."""

from __future__ import annotations

from functools import cache

from rules.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    JK,
    KING,
    NO_TRUMP,
    NUM_CARD_IDS,
    QUEEN,
    R2,
    R4,
    R5,
    R7,
    R9,
    R10,
    R11,
    R12,
    R13,
    SPADES,
    card,
    make_pack,
)

STANDARD_RANKS = (*range(R2, R10 + 1), JACK, QUEEN, KING, ACE)
RED, BLACK = (HEARTS, DIAMONDS), (SPADES, CLUBS)
SAME_COLOUR = {SPADES: CLUBS, CLUBS: SPADES, HEARTS: DIAMONDS, DIAMONDS: HEARTS}


def _ranks_from(low: int) -> list[int]:
    return [r for r in STANDARD_RANKS if r >= low]


def three_hand_pack() -> list[int]:
    """ "52 plus Joker" reduced for three: A K Q J 10 9 8 7 in each suit and the Joker — 33 cards."""
    return make_pack(_ranks_from(R7), extra=[JK])


def two_hand_short_pack() -> list[int]:
    """Two players, method 2: "use 24 cards (nothing lower than Nine) and no Joker"."""
    return make_pack(_ranks_from(R9))


def four_hand_pack() -> list[int]:
    """ "42 cards plus Joker, rejecting from a full pack all Twos, Threes and black Fours"."""
    return make_pack(_ranks_from(R4), RED) + make_pack(_ranks_from(R5), BLACK) + [JK]


def five_hand_pack() -> list[int]:
    """ "a full pack of 52 cards plus Joker"."""
    return make_pack(STANDARD_RANKS, extra=[JK])


def six_hand_pack() -> list[int]:
    """ "the special 62-card pack with Elevens, Twelves and red Thirteens, plus Joker"."""
    return make_pack(STANDARD_RANKS) + make_pack((R11, R12)) + make_pack((R13,), RED) + [JK]


@cache
def pack_for(players: int, two_player_method: int) -> tuple[int, ...]:
    if players == 2:
        return tuple(three_hand_pack() if two_player_method == 1 else two_hand_short_pack())
    return tuple({3: three_hand_pack, 4: four_hand_pack, 5: five_hand_pack, 6: six_hand_pack}[players]())


@cache
def pack_mask(players: int, two_player_method: int) -> int:
    return sum(1 << c for c in pack_for(players, two_player_method))


def right_bower(trump: int) -> int:
    return card(JACK, trump)


def left_bower(trump: int) -> int:
    """ "other Jack of the same colour as trumps" — it belongs to the trump suit, not the suit on its face."""
    return card(JACK, SAME_COLOUR[trump])


BEST_BOWER_STRENGTH, RIGHT_BOWER_STRENGTH, LEFT_BOWER_STRENGTH = 18, 17, 16  # above every rank slot (0..15)


@cache
def card_order(trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(effective suit, strength) of every card id when ``trump`` (a suit or NO_TRUMP) is the contract's trump.

    In a suit: Joker (best bower), right bower, left bower, then A K Q (13 12 11) 10 9 ... of trumps.  At no trumps
    "all the Jacks rank in their normal position between Queen and Ten" and the Joker "is the only trump": its
    effective suit is then NO_TRUMP, which the trick bookkeeping treats as the trump suit.  Natural order
    elsewhere (the rank slots already run 2 .. 10, 11, 12, 13, J, Q, K, A).
    """
    suit = [c >> 4 if c < 64 else -1 for c in range(NUM_CARD_IDS)]
    strength = [c & 15 if c < 64 else 0 for c in range(NUM_CARD_IDS)]
    suit[JK], strength[JK] = trump, BEST_BOWER_STRENGTH
    if trump != NO_TRUMP:
        strength[right_bower(trump)] = RIGHT_BOWER_STRENGTH
        suit[left_bower(trump)], strength[left_bower(trump)] = trump, LEFT_BOWER_STRENGTH
    return tuple(suit), tuple(strength)


@cache
def suit_cards(trump: int) -> tuple[int, ...]:
    """Bitmask of the cards of each effective suit (index 0..3, and 4 = the Joker alone at no trumps)."""
    suit, _ = card_order(trump)
    masks = [0] * 5
    for c, s in enumerate(suit):
        if s >= 0:
            masks[s] |= 1 << c
    return tuple(masks)
