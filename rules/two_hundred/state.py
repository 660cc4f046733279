"""The state of a Two Hundred game, declared once for ``TwoHundred`` and its mixins (play.py, result.py, view.py).

Declarations only: ``TwoHundred.check_options`` and ``begin_deal`` (match.py) set these attributes; the deal's
attributes (``play``, ``auction``, ``trump``...) exist from the first deal on, which ``hasattr(self, "play")``
tests.  Each mixin subclasses ``DealState`` so that the type checker knows what it may use.
"""

from __future__ import annotations

from abc import abstractmethod

from rules.game import Match
from rules.tricks import TrickPlay

from .bidding import Auction, AuctionRules
from .scoring import ScoringRules
from .table import Table


class DealState(Match):
    # The game: set by check_options.
    table: Table
    auction_rules: AuctionRules
    scoring: ScoringRules
    unit_scores: list[int]
    active: list[bool]  # by position: False once its team dropped out
    dropped: list[int]  # the teams that dropped out, in order
    redeal_same_dealer: bool
    skunk: bool
    compulsory_lead: bool
    _orders: dict[tuple, list]  # play orders and next positions, by active positions (play.py)

    # The deal: set by begin_deal.
    step: str  # steps.py
    play: TrickPlay
    auction: Auction
    stacks: list[list[list[int]]]  # two players: each silent partner's stacks, bottom card first
    turned_pending: list[bool]  # a silent partner's stack whose top card turns up when the trick is complete
    _next_position: list[int]  # by position: the next active one in the order of play
    tricks_left: int
    kitty: int
    dealt: list[int]  # by position: the hand as dealt (for the misdeal rule)
    contractor: int  # -1 until the auction has one
    bid: int
    trump: int | None  # a suit, NO_TRUMP, or None until named (or set by the contractor's first lead)
    discard: int
    partner_card: int | None  # five players: the card called
    partner: int  # five players: its holder, -1 before the call
    hundred_announced: bool
    steps_left: list[str]

    # What one mixin uses of another.
    @abstractmethod
    def visible(self, pos: int) -> int:
        """A silent partner's face-up cards (play.py)."""

    @abstractmethod
    def _score(self) -> None:
        """Score the deal once its last trick is played (result.py)."""

    @abstractmethod
    def contract_json(self) -> dict | None:
        """The contract in the replay output (view.py)."""
