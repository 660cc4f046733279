"""The bidding (FFB rules §4.1), one auction per deal.

- "Players take turns starting with the player to the right of the dealer" (seat dealer+1).
- Pass: "A player who passes once may bid later if given the opportunity. If all four players pass without
  bidding, the hand ends with no points scored."
- Bid: "at least 80, a multiple of 10, and greater than the previous bid", with a trump suit; or "at any time" a
  capot: "No bid can exceed the capot; from then on, the opposing team may only pass or counter."
- "the bidding round ends when, after a bid or counter, the next three players pass."
- Counter: an opponent of the highest bidder, in turn; "A counter locks in the contract, preventing further bids."
- Re-counter: "When a team has countered, the opposing team has the option to re-counter ... The bidding round
  ends immediately."
"""

from __future__ import annotations

from rules.actions import Action
from rules.belote.tables import KIND_LONG, KIND_NAMES, KIND_SYMBOLS, SANS_ATOUT, TOUT_ATOUT
from rules.cards import NO_TRUMP
from rules.errors import IllegalAction

POINT_BIDS = (80, 90, 100, 110, 120, 130, 140, 150, 160)
BID_VALUES: tuple[int | str, ...] = (*POINT_BIDS, "capot")
LEVEL_OF_VALUE: dict[object, int] = {value: level for level, value in enumerate(BID_VALUES)}
CAPOT = len(POINT_BIDS)  # the level (index) of the capot bid
CAPOT_VALUE = 250  # rule decisions: "a capot contract ... (contract value 250)"
CONTRACT_VALUES = (*POINT_BIDS, CAPOT_VALUE)  # by level: what the contract is worth
ALL_TRUMPS = "all_trumps"  # the record's `contract` key of a tout atout bid


def bid_action(seat: int, level: int, kind: int) -> Action:
    value = BID_VALUES[level]
    if kind == TOUT_ATOUT:
        return Action(seat, "bid", value, contract=ALL_TRUMPS)
    return Action(seat, "bid", value, kind)


def describe_bid(level: int, kind: int) -> str:
    return f"{BID_VALUES[level]}{KIND_SYMBOLS[kind]}"


_LEGAL_CACHE: dict[tuple, tuple[Action, ...]] = {}


def _legal(seat: int, kinds: tuple[int, ...], lowest: int, counter: bool, recounter: bool) -> tuple[Action, ...]:
    """The legal calls, cached: they depend only on these few facts, and Actions are immutable."""
    key = (seat, kinds, lowest, counter, recounter)
    found = _LEGAL_CACHE.get(key)
    if found is None:
        calls = [Action(seat, "pass")]
        calls += [bid_action(seat, level, kind) for level in range(lowest, len(BID_VALUES)) for kind in kinds]
        if counter:
            calls.append(Action(seat, "counter"))
        if recounter:
            calls.append(Action(seat, "recounter"))
        found = _LEGAL_CACHE[key] = tuple(calls)
    return found


class Auction:
    """The calls of one deal, and what they allow next."""

    __slots__ = ("kinds", "turn", "calls", "high_seat", "high_level", "high_kind", "countered_by", "recountered",
                 "passes", "over")  # fmt: skip

    def __init__(self, first: int, kinds: tuple[int, ...]):
        self.kinds = kinds  # the kinds of contract this table plays (suits, and NT / AT when the options allow)
        self.turn = first
        self.calls: list[Action] = []
        self.high_seat = -1  # nobody has bid yet
        self.high_level = -1
        self.high_kind = -1
        self.countered_by = -1
        self.recountered = False
        self.passes = 0  # consecutive passes since the last bid or counter (or since the start)
        self.over = False

    def copy(self) -> Auction:
        other = Auction.__new__(Auction)
        for name in Auction.__slots__:
            setattr(other, name, getattr(self, name))
        other.calls = list(self.calls)
        return other

    @property
    def thrown_in(self) -> bool:
        return self.over and self.high_seat < 0

    @property
    def multiplier(self) -> int:
        return 4 if self.recountered else 2 if self.countered_by >= 0 else 1

    def _is_opponent_of_bidder(self, seat: int) -> bool:
        return self.high_seat >= 0 and (seat - self.high_seat) % 2 == 1

    def legal(self) -> tuple[Action, ...]:
        seat = self.turn
        opponent = self.high_seat >= 0 and (seat - self.high_seat) & 1 == 1
        if self.countered_by >= 0:
            return _legal(seat, self.kinds, len(BID_VALUES), False, not opponent and not self.recountered)
        return _legal(seat, self.kinds, self.high_level + 1, opponent, False)

    # --- applying a call: check everything first, then change the state -----------------------------------------

    def apply(self, action: Action) -> None:
        kind = action.type
        if kind == "pass":
            self._pass()
        elif kind == "bid":
            level, contract_kind = self.check_bid(action)
            self.high_seat, self.high_level, self.high_kind = action.seat, level, contract_kind
            self.passes = 0
        elif kind == "counter":
            self.check_counter(action.seat)
            self.countered_by = action.seat
            self.passes = 0
        elif kind == "recounter":
            self.check_recounter(action.seat)
            self.recountered = True
            self.over = True  # "The bidding round ends immediately."
        else:
            raise IllegalAction("'{kind}' is not a call in the bidding: pass, bid, counter or recounter", kind=kind)
        self.calls.append(action)
        self.turn = (self.turn + 1) % 4

    def _pass(self) -> None:
        self.passes += 1
        if self.high_seat < 0:
            self.over = self.passes == 4  # four passes: the deal is thrown in
        else:
            self.over = self.passes == 3  # "after a bid or counter, the next three players pass"

    def check_bid(self, action: Action) -> tuple[int, int]:
        if self.countered_by >= 0:
            if self._is_opponent_of_bidder(action.seat):
                raise IllegalAction("the contract has been countered: no more bids (you may pass)")
            raise IllegalAction("the contract has been countered: no more bids (you may pass, or recounter)")
        if self.high_level == CAPOT:
            if self._is_opponent_of_bidder(action.seat):
                raise IllegalAction("no bid can exceed a capot: you may only pass or counter")
            raise IllegalAction("no bid can exceed a capot: you may only pass")
        value = action.value
        level = LEVEL_OF_VALUE.get(value) if not isinstance(value, bool) else None
        if level is None:
            raise IllegalAction("a bid is 80, 90 ... 160 or 'capot', not {value}", value=repr(value))
        contract_kind = self._bid_kind(action)
        if level <= self.high_level:
            high = describe_bid(self.high_level, self.high_kind)
            raise IllegalAction("your bid must be higher than the current bid, {high}", high=high)
        return level, contract_kind

    def _bid_kind(self, action: Action) -> int:
        if action.contract is not None:
            if action.contract != ALL_TRUMPS:
                raise IllegalAction(
                    "'{contract}' is not a Belote contract (the only one is '{only}')",
                    contract=action.contract,
                    only=ALL_TRUMPS,
                )
            if action.suit is not None:
                raise IllegalAction("a tout atout (all trumps) bid names no suit")
            if TOUT_ATOUT not in self.kinds:
                raise IllegalAction("tout atout (all trumps) is not played at this table")
            return TOUT_ATOUT
        if action.suit is None:
            raise IllegalAction("a bid names its trump suit: S, H, D or C")
        if action.suit == NO_TRUMP and SANS_ATOUT not in self.kinds:
            raise IllegalAction("sans atout (no trumps) is not played at this table")
        return action.suit

    def check_counter(self, seat: int) -> None:
        if self.high_seat < 0:
            raise IllegalAction("there is no bid to counter yet")
        if self.countered_by >= 0:
            raise IllegalAction("the contract is already countered")
        if not self._is_opponent_of_bidder(seat):
            raise IllegalAction("you can only counter an opponent's bid, not your own side's")

    def check_recounter(self, seat: int) -> None:
        if self.countered_by < 0:
            raise IllegalAction("there is no counter to recounter")
        if self.recountered:
            raise IllegalAction("the contract is already recountered")
        if self._is_opponent_of_bidder(seat):
            raise IllegalAction("only the side that holds the contract can recounter")

    def high_json(self) -> dict | None:
        if self.high_seat < 0:
            return None
        out = bid_action(self.high_seat, self.high_level, self.high_kind).to_json()
        out.pop("type")
        return out

    def describe_kind(self) -> str:
        return KIND_LONG[self.high_kind]

    def kind_name(self) -> str:
        return KIND_NAMES[self.high_kind]
