"""The auction: "each bid representing the number of points the bidder's partnership contracts to take in tricks".

"The player to the left of the dealer speaks first, and the bidding continues clockwise. The minimum bid is 50, all
bids must be multiples of 5, and each bid must be higher than the last. A player who does not wish to bid can pass,
but having passed cannot bid again in that auction."  Keeping, single-round bidding and what happens after three
passes are table options (see ``AuctionRules``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import IllegalAction

HUNDRED_FOR_TWO_HUNDRED = 200


@dataclass(frozen=True)
class AuctionRules:
    values: tuple[int, ...]  # every bid value, lowest first
    dealer_keeps: bool
    anyone_keeps: bool
    single_round: bool
    after_three_passes: str

    @property
    def lowest(self) -> int:
        return self.values[0]

    @property
    def top(self) -> int:
        return self.values[-1]


def auction_rules(options: dict) -> AuctionRules:
    lowest = max(options["min_bid"], 5)  # "no minimum bid": a bid is still a number of points
    values = tuple(range(lowest, 101, 5))
    if options["hundred_for_two_hundred"]:
        values += (HUNDRED_FOR_TWO_HUNDRED,)
    return AuctionRules(
        values, options["dealer_keeps"], options["anyone_keeps"], options["single_round"],
        options["after_three_passes"],
    )  # fmt: skip


class Auction:
    """One deal's auction among the bidding positions ``order`` (left of the dealer first, the dealer last)."""

    __slots__ = ("rules", "order", "dealer", "high", "high_pos", "passed", "spoken", "kept", "best_bid", "turn",
                 "done", "contractor", "no_bid", "history")  # fmt: skip

    def __init__(self, rules: AuctionRules, order: list[int], positions: int):
        self.rules = rules
        self.order = order
        self.dealer = order[-1]
        self.high: int | None = None
        self.high_pos = -1
        self.passed = [False] * len(order)
        self.spoken = 0  # single round: how many have spoken
        self.kept: set[int] = set()  # values already kept ("you cannot keep a bid that has already been kept")
        self.best_bid = [0] * positions  # each position's highest bid or keep, for the must-bid rule
        self.turn = 0  # index into order
        self.done = False
        self.contractor = -1  # -1 when all passed
        self.no_bid = False  # the dealer became contractor without a bid
        self.history: list[tuple[int, str, int | None]] = []

    def copy(self) -> Auction:
        other = Auction.__new__(Auction)
        for name in Auction.__slots__:
            setattr(other, name, getattr(self, name))
        other.passed = list(self.passed)
        other.kept = set(self.kept)
        other.best_bid = list(self.best_bid)
        other.history = list(self.history)
        return other

    @property
    def to_speak(self) -> int:
        return self.order[self.turn]

    def others_all_passed_without_bid(self) -> bool:
        """ "If the first three players pass": everyone but the dealer has passed and nobody has bid."""
        return self.high is None and all(self.passed[:-1])

    def forced(self) -> str | None:
        """The dealer's obligation after three passes, if any."""
        if self.to_speak == self.dealer and self.others_all_passed_without_bid():
            rule = self.rules.after_three_passes
            return rule if rule in ("dealer_must_bid", "dealer_must_pass") else None
        return None

    def may_keep(self, pos: int) -> bool:
        if self.high is None or self.high_pos == pos:
            return False
        if self.rules.anyone_keeps:
            return self.high not in self.kept
        return self.rules.dealer_keeps and pos == self.dealer

    def legal(self) -> list[tuple[str, int | None]]:
        """(type, value) pairs for the position to speak."""
        forced = self.forced()
        if forced == "dealer_must_bid":
            return [("bid", self.rules.lowest)]
        if forced == "dealer_must_pass":
            return [("pass", None)]
        out: list[tuple[str, int | None]] = [("pass", None)]
        if self.may_keep(self.to_speak):
            out.append(("keep", None))
        out.extend(("bid", v) for v in self.rules.values if self.high is None or v > self.high)
        return out

    def check(self, kind: str, value: object) -> int | None:
        """Raise ``IllegalAction`` in the bidder's words unless (kind, value) is legal now; the bid's value (None
        for a pass or a keep)."""
        forced = self.forced() if self.high is None else None
        if forced == "dealer_must_bid" and not (kind == "bid" and value == self.rules.lowest):
            raise IllegalAction("everyone else passed: as dealer you must bid {bid}", bid=self.rules.lowest)
        if forced == "dealer_must_pass" and kind != "pass":
            raise IllegalAction("everyone else passed: as dealer you must pass too")
        if kind == "keep" and not self.may_keep(self.to_speak):
            raise self._why_no_keep()
        if kind == "bid":
            return self._check_bid(value)
        return None

    def _why_no_keep(self) -> IllegalAction:
        if self.high is None:
            return IllegalAction("there is no bid to keep yet")
        if self.high_pos == self.to_speak:
            return IllegalAction("the highest bid is already yours")
        if self.rules.anyone_keeps:
            return IllegalAction("{bid} has already been kept; bid higher or pass", bid=self.high)
        if self.rules.dealer_keeps:
            return IllegalAction("only the dealer may keep the bid")
        return IllegalAction("keeping the bid is not allowed at this table")

    def _check_bid(self, value: object) -> int:
        rules = self.rules
        if not isinstance(value, int):
            raise IllegalAction("a bid needs a number of points")
        if value not in rules.values:
            # "The minimum bid is 50, all bids must be multiples of 5"; 100 is "the highest possible bid"
            if rules.top > 100:
                raise IllegalAction(
                    "a bid must be at least {lowest} and a multiple of 5 (at most 100, or {top} for '100 for 200'); "
                    "not {value}", lowest=rules.lowest, top=rules.top, value=value,
                )  # fmt: skip
            raise IllegalAction(
                "a bid must be at least {lowest} and a multiple of 5 (at most 100); not {value}",
                lowest=rules.lowest, value=value,
            )  # fmt: skip
        if self.high is not None and value <= self.high:
            raise IllegalAction("a bid must be higher than the last bid ({bid})", bid=self.high)
        return value

    def apply(self, kind: str, value: int | None) -> None:
        """Record a checked call and move the turn on (or end the auction)."""
        pos = self.to_speak
        self.history.append((pos, kind, value))
        if kind == "pass":
            self.passed[self.turn] = True
        else:
            if kind == "keep":
                value = self.high
            assert value is not None, "a bid carries its value; a keep takes the high bid (legal only over one)"
            if kind == "keep":
                self.kept.add(value)
            self.high, self.high_pos = value, pos
            self.best_bid[pos] = max(self.best_bid[pos], value)
        self.spoken += 1
        self._advance()

    def _finish(self, contractor: int, no_bid: bool = False) -> None:
        self.done, self.contractor, self.no_bid = True, contractor, no_bid

    def _advance(self) -> None:
        rules = self.rules
        passed = self.passed
        high = self.high
        n = len(passed)
        if high is None:
            if rules.after_three_passes == "dealer_contracts" and all(passed[:-1]):
                # "the declarer simply becomes the contractor ... without bidding"
                return self._finish(self.dealer, no_bid=True)
            if all(passed):
                return self._finish(-1)  # "If all four players pass, the hands are thrown in"
        else:
            if rules.single_round:
                # "each player only gets one chance to bid, the dealer last"
                waiting: Sequence[int] = range(self.spoken, n)
                others = len(waiting)
            else:
                # Everyone still in but the high bidder (who never speaks, so never passes, while highest).
                others = passed.count(False) - 1
            if not others:
                return self._finish(self.high_pos)  # "until three players have passed"
            if high == rules.top:
                if not rules.single_round:
                    order, high_pos = self.order, self.high_pos
                    waiting = [i for i in range(n) if not passed[i] and order[i] != high_pos]
                if not any(self.may_keep(self.order[i]) for i in waiting):
                    return self._finish(self.high_pos)  # "or until someone bids 100, the highest possible bid"
        if rules.single_round:
            self.turn = self.spoken
            return None
        i = self.turn + 1
        if i == n:
            i = 0
        while passed[i]:
            i = i + 1 if i + 1 < n else 0
        self.turn = i
        return None
