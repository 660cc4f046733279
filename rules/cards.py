"""Cards as small integers, hands as bitmasks.

Computer players replay thousands of deals per decision, so a card is an int and a set of cards is an int whose
bit ``card`` is set.  A card id is ``suit * 16 + rank``; the sixteen rank slots hold every rank any of the four
games uses, in natural order (2 .. 10, the 11/12/13 of the six-player Five Hundred pack, J Q K A).  The three
jokers sit after the four suits.  Each game defines its own *strength* order on top of these ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rules.errors import Unparsable

SUITS = "SHDC"
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "NT": "no trumps"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "NT": "NT"}
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
JOKER_SUIT = 4
NO_TRUMP = 4  # a contract's trump index when there is none; never a card's suit

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A")
RANK_INDEX = {name: i for i, name in enumerate(RANKS)}
RANK_INDEX["T"] = RANK_INDEX["10"]
(R2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, JACK, QUEEN, KING, ACE) = range(16)
RANK_NAMES_LONG = {JACK: "jack", QUEEN: "queen", KING: "king", ACE: "ace"}

JK = 64  # Five Hundred's Joker
BJ = 65  # Da Bai Fen's black (small) joker
RJ = 66  # Da Bai Fen's red (big) joker
JOKERS = {"JK": JK, "BJ": BJ, "RJ": RJ}
JOKER_NAMES = {v: k for k, v in JOKERS.items()}
NUM_CARD_IDS = 67


def card(rank: int, suit: int) -> int:
    return suit * 16 + rank


def suit_of(c: int) -> int:
    """The printed suit (jokers: ``JOKER_SUIT``).  Games with bowers or trump ranks have their own 'effective suit'."""
    return c >> 4 if c < 64 else JOKER_SUIT


def rank_of(c: int) -> int:
    return c & 15 if c < 64 else -1


def _name(c: int) -> str:
    if c >= 64:
        return JOKER_NAMES[c]
    return RANKS[c & 15] + SUITS[c >> 4]


CARD_NAMES: tuple[str, ...] = tuple(_name(c) if c < 64 or c in JOKER_NAMES else "?" for c in range(NUM_CARD_IDS))


def card_name(c: int) -> str:
    return CARD_NAMES[c]


def _spellings() -> dict[str, int]:
    """Every accepted spelling of every card (any case, T for 10), so that parsing is one dictionary look-up."""
    table: dict[str, int] = {}
    for c, name in enumerate(CARD_NAMES):
        if name == "?":
            continue
        variants = {name, name.replace("10", "T")} if name.startswith("10") else {name}
        for v in variants:
            for spelled in {v, v.lower(), v[:-1] + v[-1].lower(), v[:-1].lower() + v[-1]}:
                table[spelled] = c
    return table


_SPELLINGS = _spellings()


def parse_card(text: object) -> int:
    """Parse ``"10H"``, ``"th"``, ``"AS"``, ``"JK"``... (case-insensitive).  Raises ``ValueError`` in words."""
    c = _SPELLINGS.get(text) if isinstance(text, str) else None
    if c is not None:
        return c
    if not isinstance(text, str):
        raise Unparsable("a card must be written as text like 'AS' or '10H', not {text}", text=repr(text))
    t = text.strip().upper()
    if t in _SPELLINGS:
        return _SPELLINGS[t]
    raise Unparsable("'{text}' is not a card (write rank then suit, like 'AS', '10H', '7C', or 'JK')", text=text)


def parse_suit(text: object, allow_nt: bool = False) -> int:
    if isinstance(text, str):
        t = text.strip().upper()
        if t in SUITS and len(t) == 1:
            return SUITS.index(t)
        if allow_nt and t == "NT":
            return NO_TRUMP
    if allow_nt:
        raise Unparsable("{text} is not a suit (use S, H, D, C or NT)", text=repr(text))
    raise Unparsable("{text} is not a suit (use S, H, D, C)", text=repr(text))


def suit_name(s: int) -> str:
    return "NT" if s == NO_TRUMP else SUITS[s]


def describe_suit(s: int) -> str:
    return "no trumps" if s == NO_TRUMP else SUIT_NAMES[SUITS[s]]


# --- bitmask helpers -------------------------------------------------------------------------------------------

SUIT_MASKS = tuple(0xFFFF << (16 * s) for s in range(4))


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards in ``mask``, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_cards(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


def nth_card(mask: int, n: int) -> int:
    """The ``n``-th lowest card of ``mask`` (0-based); used to pick a uniformly random card quickly."""
    for _ in range(n):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def make_pack(ranks: Iterable[int], suits: Iterable[int] = range(4), extra: Iterable[int] = ()) -> list[int]:
    """A pack as a list of card ids: every rank in every suit, plus extra cards (jokers, odd ranks)."""
    suits = list(suits)
    return [card(r, s) for s in suits for r in ranks] + list(extra)


def names(cards: Iterable[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]
