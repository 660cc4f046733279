"""What one seat may see, and nothing else: the only thing a computer player is given.

``build_view(match, seat, history)`` is the one trusted step that reads the ``Match``: it copies the seat's own hand,
its legal actions, the public actions of the current deal (other seats' discards without their cards) and the public
keys of the replay output (a whitelist per game, deep-copied through JSON), and keeps no reference to the match.
Everything a player computes afterwards (inferences, sampled worlds, searches) starts from this view.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from rules.actions import Action, DiscardChoice, action_from_json
from rules.cards import parse_card
from rules.game import Match

COMMON_KEYS = ("game", "deal", "dealer", "phase", "trump", "contract", "trick", "scores", "deal_results", "winner")
# Public keys of each game's replay output (never hands, widow, kitty contents, discards or the stock).
PUBLIC_KEYS = {
    "five_hundred": (
        "auction", "high_bid", "open_hand", "sitting_out", "tricks_won", "shown_void", "teams", "target",
        "widow_taken",
    ),
    "da_bai_fen": (
        "trump_rank", "mode", "drawn", "exposed", "kitty_turned", "kitty_shown", "points", "tricks_won",
        "last_trick", "failed_throws", "levels",
    ),
    "two_hundred": (
        "auction", "step", "tricks_won", "points_taken", "silent_face_up", "discard_trumps_shown",
        "discard_has_points", "dropped_out",
    ),
    "belote": (
        "auction", "high_bid", "tricks_won", "card_points", "belote", "last_trick", "contract_kind", "held_over",
    ),
}  # fmt: skip


def _frozen_json(obj: Any) -> Any:
    """A deep copy that shares nothing with the engine (JSON round trip)."""
    return json.loads(json.dumps(obj))


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know now.  Cards are card ids; ``history`` is the current deal's public actions."""

    game: str
    options: MappingProxyType
    players: int
    seat: int
    deal_index: int
    dealer: int
    phase: str
    to_move: int | None
    hand: tuple[int, ...]
    legal: tuple
    history: tuple[Action, ...]
    public: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))

    @property
    def hand_mask(self) -> int:
        m = 0
        for c in self.hand:
            m |= 1 << c
        return m

    @property
    def scores(self) -> list[int]:
        return list(self.public.get("scores") or [])

    def get(self, key: str, default: Any = None) -> Any:
        return self.public.get(key, default)


def as_actions(history: Sequence[Action | dict] | None) -> list[Action]:
    if not history:
        return []
    return [a if isinstance(a, Action) else action_from_json(a) for a in history]


def redact(actions: Sequence[Action], seat: int) -> tuple[Action, ...]:
    """Other seats' discards lose their cards (their number stays known by the rules)."""
    out = []
    for a in actions:
        if a.type == "discard" and a.seat != seat:
            out.append(Action(a.seat, "discard"))
        else:
            out.append(a)
    return tuple(out)


def seat_legal(match: Match, seat: int) -> tuple:
    if match.phase in ("between_deals", "game_over"):
        return ()
    return tuple(a for a in match.legal_actions() if a.seat == seat)


def build_view(match: Match, seat: int, history: Sequence[Action | dict] | None = None) -> SeatView:
    """The view of ``seat``.  ``history``: the current deal's actions as in the record (the bot has them); when
    omitted, what the engine keeps is used (see ``rules.ai.history.history_from_match``)."""
    if history is None:
        from rules.ai.history import history_from_match

        actions = history_from_match(match)
    else:
        actions = as_actions(history)
    out = match.output()
    keys = COMMON_KEYS + PUBLIC_KEYS.get(match.game_id, ())
    public = {k: _frozen_json(out[k]) for k in keys if k in out}
    public["scores"] = list(match.scores())
    legal = []
    for a in seat_legal(match, seat):
        if isinstance(a, DiscardChoice):
            legal.append(DiscardChoice(a.seat, a.choose, tuple(a.from_cards)))
        else:
            legal.append(a)  # frozen dataclasses of ints and strings
    # A few public facts the output gives as names: keep them as card ids too.
    return SeatView(
        game=match.game_id,
        options=MappingProxyType(_frozen_json(match.options)),
        players=match.players,
        seat=seat,
        deal_index=max(match.deal_index, 0),
        dealer=match.dealer,
        phase=match.phase,
        to_move=match.to_move,
        hand=tuple(int(c) for c in match.hand(seat)),
        legal=tuple(legal),
        history=redact(actions, seat),
        public=MappingProxyType(public),
    )


def card_ids(names: Sequence[str] | None) -> list[int]:
    return [parse_card(n) for n in names or []]
