"""The order and value of the cards, per kind of contract, as bitmask tables.

FFB rules §6: "The order and value of cards vary depending on whether they are trump or not."

    Card   Trump  Non-trump          order, high to low:  trump  J 9 A 10 K Q 8 7
    Ace     11     11                                      plain  A 10 K Q J 9 8 7
    Ten     10     10
    King     4      4
    Queen    3      3
    Jack    20      2
    Nine    14      0
    Eight    0      0
    Seven    0      0

A contract is of one *kind*: a trump suit (0..3, the core's suit indices), or, with the table options, sans atout
(no trump: every suit in the plain order) or tout atout (all trumps: every suit in the trump order).  For those two
the common coinche values are used, so that every deal still holds 152 card points + 10 for the last trick = 162:
sans atout A 19, 10 10, K 4, Q 3, J 2; tout atout J 14, 9 9, A 6, 10 5, K 3, Q 1.

Everything the play needs per kind is precomputed here, indexed by card id, so that the legal-card computation and
the trick winner are a few mask operations:

- ``higher[c]``: the cards of c's suit that rank above c;
- ``beats[c]``: the cards that take a trick whose best card so far is c (higher in c's suit, and every trump when c
  is not a trump);
- ``points[c]``: the card's value;
- ``cut``: the trump cards a player void in the led suit must play (none at sans atout and tout atout: there a card
  of another suit can never win);
- ``trump_lead``: the cards whose lead obliges the others to go higher (the trump suit; every card at tout atout).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import ACE, JACK, KING, NO_TRUMP, QUEEN, R7, R8, R9, R10, SUIT_MASKS, card, make_pack

PACK_RANKS = (R7, R8, R9, R10, JACK, QUEEN, KING, ACE)
PACK: tuple[int, ...] = tuple(make_pack(PACK_RANKS))
PACK_MASK = sum(1 << c for c in PACK)
SUIT_CARDS = tuple(m & PACK_MASK for m in SUIT_MASKS)

TRUMP_ORDER = (R7, R8, QUEEN, KING, R10, ACE, R9, JACK)  # low to high
PLAIN_ORDER = (R7, R8, R9, JACK, QUEEN, KING, R10, ACE)

TRUMP_VALUES = {JACK: 20, R9: 14, ACE: 11, R10: 10, KING: 4, QUEEN: 3}
PLAIN_VALUES = {ACE: 11, R10: 10, KING: 4, QUEEN: 3, JACK: 2}
SANS_ATOUT_VALUES = {ACE: 19, R10: 10, KING: 4, QUEEN: 3, JACK: 2}
TOUT_ATOUT_VALUES = {JACK: 14, R9: 9, ACE: 6, R10: 5, KING: 3, QUEEN: 1}

SANS_ATOUT = NO_TRUMP  # 4, printed "NT"
TOUT_ATOUT = 5  # printed "AT"
KIND_NAMES = ("S", "H", "D", "C", "NT", "AT")
KIND_LONG = ("spades", "hearts", "diamonds", "clubs", "sans atout (no trumps)", "tout atout (all trumps)")
KIND_SYMBOLS = ("♠", "♥", "♦", "♣", " sans atout", " tout atout")

LAST_TRICK_BONUS = 10  # dix de der
CAPOT_LAST_TRICK = 100  # "In the case of a capot ... the Dix de Der is worth 100 points"
BELOTE_BONUS = 20


@dataclass(frozen=True)
class KindTables:
    kind: int
    higher: tuple[int, ...]
    beats: tuple[int, ...]
    points: tuple[int, ...]
    cut: int
    trump_lead: int
    belote_pairs: tuple[int, ...]  # masks K+Q of each suit whose pair is a belote


def _build(kind: int) -> KindTables:
    higher = [0] * 64
    beats = [0] * 64
    points = [0] * 64
    trump_suits = range(4) if kind == TOUT_ATOUT else (() if kind == SANS_ATOUT else (kind,))
    cut = SUIT_CARDS[kind] if kind < 4 else 0
    for suit in range(4):
        is_trump = suit in trump_suits
        order = TRUMP_ORDER if is_trump else PLAIN_ORDER
        if kind == SANS_ATOUT:
            values = SANS_ATOUT_VALUES
        elif kind == TOUT_ATOUT:
            values = TOUT_ATOUT_VALUES
        else:
            values = TRUMP_VALUES if is_trump else PLAIN_VALUES
        for i, rank in enumerate(order):
            c = card(rank, suit)
            higher[c] = sum(1 << card(r, suit) for r in order[i + 1 :])
            beats[c] = higher[c] | (cut if not is_trump else 0)
            points[c] = values.get(rank, 0)
    trump_lead = sum(SUIT_CARDS[s] for s in trump_suits)
    pairs = tuple((1 << card(KING, s)) | (1 << card(QUEEN, s)) for s in trump_suits)
    return KindTables(kind, tuple(higher), tuple(beats), tuple(points), cut, trump_lead, pairs)


TABLES: tuple[KindTables, ...] = tuple(_build(k) for k in range(6))
