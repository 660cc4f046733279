"""The contracts of Five Hundred and their order (the Avondale table).

"announcing either the number of tricks he proposes to win and the intended trump suit, or the value of the
contract in accordance with the contract valuation table" — the text refers to the table without giving it; the
project uses the standard Avondale values (docs/rules/five_hundred.md): 6 tricks ♠40 ♣60 ♦80 ♥100 NT120, +100 for
each further trick; misère 250 (between 8♠ 240 and 8♣ 260); open misère 520 (above 10♥ 500, below 10NT 520).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.cards import CLUBS, DIAMONDS, HEARTS, NO_TRUMP, SPADES, SUIT_SYMBOLS, suit_name
from rules.errors import IllegalAction

MISERE, OPEN_MISERE = "misere", "open_misere"
SUIT_ORDER = (SPADES, CLUBS, DIAMONDS, HEARTS, NO_TRUMP)  # the table's columns, cheapest first
SIX_TRICK_VALUES = {SPADES: 40, CLUBS: 60, DIAMONDS: 80, HEARTS: 100, NO_TRUMP: 120}
MISERE_VALUE, OPEN_MISERE_VALUE = 250, 520
ALL_TRICKS_BONUS = 250  # "if he succeeds in taking all ten in a contract worth less than 250, he scores 250"


@dataclass(frozen=True, slots=True)
class Bid:
    """One entry of the contract table.  ``rank`` is its place in the bidding order (higher bids later)."""

    rank: int
    tricks: int  # tricks to take (0 for the misères: none may be taken)
    trump: int  # suit index, or NO_TRUMP (misères are played at no trumps)
    value: int
    contract: str | None = None  # MISERE / OPEN_MISERE, else None
    misere: bool = field(init=False)
    open: bool = field(init=False)
    name: str = field(init=False)  # "7♠", "10NT", "misère", "open misère"

    def __post_init__(self) -> None:
        set_ = object.__setattr__  # computed once: scoring and messages read them often
        set_(self, "misere", self.contract is not None)
        set_(self, "open", self.contract == OPEN_MISERE)
        if self.contract is None:
            set_(self, "name", f"{self.tricks}{SUIT_SYMBOLS[suit_name(self.trump)]}")
        else:
            set_(self, "name", "misère" if self.contract == MISERE else "open misère")

    def describe(self) -> str:
        return f"{self.name} ({self.value})"

    def to_json(self) -> dict:
        if self.contract is not None:
            return {"contract": self.contract}
        return {"value": self.tricks, "suit": suit_name(self.trump)}


def _table() -> list[Bid]:
    entries: list[tuple[int, int, int, str | None]] = []  # (value, tricks, trump, contract)
    for tricks in range(6, 11):
        for suit in SUIT_ORDER:
            entries.append((SIX_TRICK_VALUES[suit] + 100 * (tricks - 6), tricks, suit, None))
    entries.append((MISERE_VALUE, 0, NO_TRUMP, MISERE))
    entries.append((OPEN_MISERE_VALUE, 0, NO_TRUMP, OPEN_MISERE))
    # Equal values (open misère and 10NT, both 520): open misère ranks below 10NT.
    entries.sort(key=lambda e: (e[0], e[3] is None))
    return [Bid(rank, tricks, trump, value, contract) for rank, (value, tricks, trump, contract) in enumerate(entries)]


BIDS: tuple[Bid, ...] = tuple(_table())
BID_BY_KEY: dict[tuple[object, object, object], Bid] = {  # looked up with any record's (value, suit, contract)
    ((None, None, b.contract) if b.misere else (b.tricks, b.trump, None)): b for b in BIDS
}


def bid_of(value: object, suit: int | None, contract: object) -> Bid:
    """The table entry a bid action names; ``IllegalAction`` in a player's words when it names none."""
    if contract is not None:
        if value is not None or suit is not None:
            raise IllegalAction("a misère bid names no number of tricks and no suit")
        if contract not in (MISERE, OPEN_MISERE):
            raise IllegalAction("'{contract}' is not a contract here: bid a number of tricks and a suit, "
                                "or 'misere' or 'open_misere'", contract=contract)  # fmt: skip
        return BID_BY_KEY[(None, None, contract)]
    if not isinstance(value, int) or not 6 <= value <= 10:
        raise IllegalAction("a bid is for 6 to 10 tricks, not {value}", value=repr(value))
    if suit is None:
        raise IllegalAction("a bid names its trump suit (S, H, D, C) or NT")
    return BID_BY_KEY[(value, suit, None)]
