"""What one seat may see, and nothing else: the only thing a computer player is given.

``build_view(match, seat, history)`` is the one trusted step that reads the ``Match``: it copies the seat's own hand,
its legal actions, the public actions of the current deal (other seats' discards without their cards) and the public
keys of the engine's state (a whitelist per game, deep-copied into new JSON-shaped lists and dicts), and keeps no
reference to the match.  Everything a player computes afterwards (inferences, sampled worlds, searches) starts from
this view.

It is built at every computer move, so it is cheap: only the whitelisted keys are copied (``state_json`` and the
common keys, not the whole ``Match.output()`` with every legal action written out), by a copy that walks plain JSON
data instead of a JSON text round trip, and the record's action dicts of the current deal are parsed once, not at
every move (``_parse_history``).
"""

from __future__ import annotations

import json
from collections import OrderedDict
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


_ATOMS = frozenset((str, int, float, bool, type(None)))


def _json_copy(obj: Any) -> Any:
    """What ``_frozen_json(obj)`` returns, without the text: new lists (for lists and tuples) and dicts all the way
    down, the atoms (immutable) themselves.  Anything else (a subclass, a non-string key) goes through JSON."""
    t = type(obj)
    if t is list or t is tuple:
        if _ATOMS.issuperset(map(type, obj)):  # a list of card names, scores...: one C-level pass
            return list(obj)
        return [x if type(x) in _ATOMS else _json_copy(x) for x in obj]
    if t is dict:
        out = {}
        for k, v in obj.items():
            if type(k) is not str:
                return _frozen_json(obj)
            out[k] = v if type(v) in _ATOMS else _json_copy(v)
        return out
    if t in _ATOMS:
        return obj
    return _frozen_json(obj)


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


# The current deal's actions as the bot passes them (the record's dicts, one more at each move), parsed: per deal,
# keyed by the identity of its first action dict (held here, so the id is not reused while the entry lives).
_PARSED: OrderedDict[int, tuple[dict, list[Action]]] = OrderedDict()
_PARSED_DEALS = 2048  # about one entry per running table


def _parse_history(history: Sequence[Action | dict]) -> list[Action]:
    """``as_actions(history)``, reusing the actions parsed for an earlier move of the same deal: an action parsed
    before is taken again only when its dict still equals what that action writes (``Action.to_json``), so a
    changed or different dict is parsed afresh; it is a fraction of the cost of parsing it."""
    if not history:
        return []
    first = history[0]
    if type(first) is not dict:
        return as_actions(history)
    entry = _PARSED.get(id(first))
    cached: list[Action] = entry[1] if entry is not None and entry[0] is first else []
    out: list[Action] = []
    for i, a in enumerate(history):
        if type(a) is not dict:
            out.append(a if isinstance(a, Action) else action_from_json(a))
            continue
        if i < len(cached):
            known = cached[i]
            if known.to_json() == a:
                out.append(known)
                continue
        out.append(action_from_json(a))
    if entry is not None and entry[0] is first:
        _PARSED.move_to_end(id(first))
    _PARSED[id(first)] = (first, out)
    while len(_PARSED) > _PARSED_DEALS:
        _PARSED.popitem(last=False)
    return out


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


def public_state(match: Match) -> dict:
    """Copies of the whitelisted keys of ``match.output()``: the common keys as ``output()`` gives them (the trick
    emptied between deals), the game's own from ``state_json()``, and the scores."""
    state = match.state_json()
    common = {
        "game": match.game_id,
        "deal": max(match.deal_index, 0),
        "dealer": match.dealer,
        "phase": match.phase,
        "trump": None,
        "contract": None,
        "trick": [],
        "scores": None,
        "deal_results": match.deal_results,
        "winner": match.winner,
    }
    for k in COMMON_KEYS:  # output() lays the game's state over the common keys
        if k in state:
            common[k] = state[k]
    if match.phase in ("between_deals", "game_over"):
        common["trick"] = []
    common["scores"] = match.scores()  # the view's scores are always the match's
    public = {k: _json_copy(common[k]) for k in COMMON_KEYS if k in common}
    for k in PUBLIC_KEYS.get(match.game_id, ()):
        if k in state:
            public[k] = _json_copy(state[k])
    return public


def build_view(match: Match, seat: int, history: Sequence[Action | dict] | None = None) -> SeatView:
    """The view of ``seat``.  ``history``: the current deal's actions as in the record (the bot has them); when
    omitted, what the engine keeps is used (see ``rules.ai.history.history_from_match``)."""
    if history is None:
        from rules.ai.history import history_from_match

        actions = history_from_match(match)
    else:
        actions = _parse_history(history)
    public = public_state(match)
    legal = []
    for a in seat_legal(match, seat):
        if isinstance(a, DiscardChoice):
            legal.append(DiscardChoice(a.seat, a.choose, tuple(a.from_cards)))
        else:
            legal.append(a)  # frozen dataclasses of ints and strings
    # A few public facts the output gives as names: keep them as card ids too.
    return SeatView(
        game=match.game_id,
        options=MappingProxyType(_json_copy(match.options)),
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
