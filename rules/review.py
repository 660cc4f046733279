"""A deal's story from the table's record: the calls, each trick (who led, each card, who won, the points) and the
result, told by replaying the record with the engine's own events (``rules/events.py``), never worked out again.

What of it a player or a spectator may see, and when, is ``rules/lookback.py``'s business: this module tells all.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import action_from_json
from rules.cards import CARD_NAMES
from rules.events import FailedLead, TrickWon
from rules.game import PLAY, Match
from rules.records import GameRecord, deal_cards, effective_actions, match_before_deal

# Actions that are not said aloud at the table: a discard is face down, a draw takes an unseen card, a play is a
# trick's (and shown there).  Every other action (a bid, a pass, a counter, naming trump, calling a card, exposing a
# card) is announced to everyone.
SILENT_TYPES = frozenset({"play", "discard", "draw", "claim_draw"})


@dataclass(frozen=True)
class ReviewedTrick:
    number: int  # 1 for the deal's first trick
    plays: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, cards) in the order played; the first is the leader's
    winner: int
    points: int | None  # what it added to the winner's side (None where tricks, not points, are counted)

    @property
    def leader(self) -> int:
        return self.plays[0][0]


@dataclass(frozen=True)
class DealStory:
    deal: int  # the deal's index in the record
    dealer: int
    calls: tuple[dict, ...]  # the announced actions in order, as the record writes them
    tricks: tuple[ReviewedTrick, ...]
    failed_lead: FailedLead | None  # Da Bai Fen: a lead another hand could beat (the deal is scored on it)
    hands_at_play: tuple[tuple[str, ...], ...] | None  # each seat's hand as the play began (None: no play yet)
    result: dict | None  # the record output's ``deal_results`` entry once the deal is over
    match: Match  # the engine as the story ends (the current state for a deal still being played)

    @property
    def finished(self) -> bool:
        return self.result is not None


def deal_story(record: GameRecord, deal: int) -> DealStory:
    """Replay ``record`` up to the end of deal ``deal`` (or as far as it goes) and tell that deal.  ``RecordError``
    when there is no such deal."""
    match = match_before_deal(record, deal)
    match.start_deal(deal_cards(record, match, deal))
    calls: list[dict] = []
    tricks: list[ReviewedTrick] = []
    failed: FailedLead | None = None
    hands: tuple[tuple[str, ...], ...] | None = None
    results_before = len(match.deal_results)
    for raw in effective_actions(record.deals[deal].actions):  # a card taken back is not in the story
        if hands is None and match.phase == PLAY:
            hands = _hands(match)
        if raw.get("type") not in SILENT_TYPES:
            calls.append(dict(raw))
        for event in match.apply_observed(action_from_json(raw, shape_checked=True)):
            if isinstance(event, TrickWon):
                tricks.append(ReviewedTrick(len(tricks) + 1, event.plays, event.seat, event.points))
            elif isinstance(event, FailedLead):
                failed = event
    if hands is None and match.phase == PLAY:
        hands = _hands(match)
    result = match.deal_results[results_before] if len(match.deal_results) > results_before else None
    return DealStory(deal, match.dealer, tuple(calls), tuple(tricks), failed, hands, result, match)


def _hands(match: Match) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(CARD_NAMES[c] for c in match.hand(seat)) for seat in range(match.players))
