"""What happened, as the engine saw it: typed events that ``Match.apply_observed`` reports after an action.

The bot tells players about a trick, a deal's result or a failed lead from these, instead of working the rules out
again from the state.  Cards are named as in the record spec ("10H", "BJ"); seats and teams are indexes.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TrickWon:
    """A trick completed.  ``points`` is what winning it added to the winner's side's count in this deal (the last
    trick's bonus or the kitty included); None in games where tricks, not card points, are counted."""

    seat: int
    plays: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, cards) in the order they were played
    points: int | None


@dataclass(frozen=True, slots=True)
class DealScored:
    """A deal ended: the score change (per player or team, as ``scores``), the totals after it, and the engine's
    explanation of the arithmetic ("team 0 bid 80 and took 95 …"), None when the deal was thrown in.  ``table`` is
    the public view as the deal ended (``Match.deal_end_view``): the table shows it once the next deal has begun."""

    deal: int
    score_change: tuple
    scores: tuple
    explain: str | None
    thrown_in: bool
    table: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class FailedLead:
    """Da Bai Fen: a lead of several cards that another hand could beat.  ``card`` (held by ``beaten_by_seat``)
    beats ``beaten_card`` of the lead; with ``lowest_card_only`` only the lead's lowest card is played, otherwise the
    deal is scored as though the leader's side lost every trick."""

    seat: int
    cards: tuple[str, ...]
    beaten_by_seat: int
    card: str
    beaten_card: str
    lowest_card_only: bool


@dataclass(frozen=True, slots=True)
class ExposureOffered:
    """Da Bai Fen: a draw gave ``seat`` a card it may expose to choose trumps (``card``) while nothing is exposed,
    so its hand should offer the exposure now (``Match.seat_prompts`` words it)."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class LevelsChanged:
    """Da Bai Fen: the teams' levels (rank names, "2" … "A") before and after a deal."""

    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class DroppedOut:
    """Two Hundred: a team fell to the drop-out score and leaves the game; play goes on without it."""

    team: int


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended; ``winner`` as in the record output (a seat, or a team in partnership games; None: nobody)."""

    winner: int | None


Event = TrickWon | DealScored | FailedLead | ExposureOffered | LevelsChanged | DroppedOut | GameOver
