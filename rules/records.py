"""Game records (``cardtable-record/1``): the one place that reads, validates, replays and writes them.

A record is the source of truth for a table: the state is always ``replay(record)``.  See
docs/records.md describes the format and the ``cardtable replay`` contract.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rules.actions import Action, action_from_json, check_action_shape
from rules.cards import CARD_NAMES, parse_card
from rules.dealing import DealCards, deal_rng
from rules.errors import IllegalAction, RecordError
from rules.game import PLAY, Match
from rules.registry import match_class

FORMAT = "cardtable-record/1"
# This project's one action beyond the spec's: ``{"seat": s, "type": "undo"}`` takes back seat s's card just
# played (the opponents agreed, at an unrated table).  The card stays in the record, followed by the undo.
UNDO = "undo"
_TOP_KEYS = {"format", "game", "options", "first_dealer", "deals", "seed"}
_DEAL_KEYS = {"hands", "kitty", "stock", "actions"}


@dataclass
class DealRecord:
    cards: DealCards | None  # None when the record's seed supplies them
    actions: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        out: dict[str, Any] = {}
        if self.cards is not None:
            if self.cards.stock is not None:
                out["stock"] = [CARD_NAMES[c] for c in self.cards.stock]
            else:
                out["hands"] = [[CARD_NAMES[c] for c in h] for h in self.cards.hands or []]
                out["kitty"] = [CARD_NAMES[c] for c in self.cards.kitty]
        out["actions"] = self.actions
        return out


@dataclass
class GameRecord:
    game: str
    options: dict[str, Any]
    first_dealer: int
    deals: list[DealRecord] = field(default_factory=list)
    seed: int | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "first_dealer": self.first_dealer,
        }
        if self.seed is not None:
            out["seed"] = self.seed
        out["deals"] = [d.to_json() for d in self.deals]
        return out

    def dumps(self, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent, ensure_ascii=False)

    def add_deal(self, cards: DealCards) -> None:
        self.deals.append(DealRecord(cards))

    def append(self, action: Action) -> None:
        self.deals[-1].actions.append(action.to_json())

    def append_undo(self, seat: int) -> None:
        self.deals[-1].actions.append({"seat": seat, "type": UNDO})


def effective_actions(actions: list[dict]) -> list[dict]:
    """A deal's actions as they stand: each card that was taken back left out, with its undo (the record keeps
    both).  What computer players and histories read."""
    out: list[dict] = []
    for action in actions:
        if action.get("type") == UNDO and out:
            out.pop()
        else:
            out.append(action)
    return out


# --- reading -------------------------------------------------------------------------------------------------


def _cards(value: object, what: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of cards")
    try:
        return [parse_card(c) for c in value]
    except ValueError as e:
        raise RecordError(f"{what}: {e}") from None


def _deal(obj: object, index: int, seeded: bool) -> DealRecord:
    where = f"deal {index}"
    if not isinstance(obj, dict):
        raise RecordError(f"{where} must be a JSON object")
    unknown = set(obj) - _DEAL_KEYS
    if unknown:
        raise RecordError(f"{where} has unknown key(s) {sorted(unknown)}")
    actions = obj.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError(f"{where}: 'actions' must be a list")
    for i, a in enumerate(actions):
        try:
            check_action_shape(a)
        except RecordError as e:
            raise RecordError(f"{where}, action {i}: {e.message}") from None
    if "stock" in obj:
        if "hands" in obj:
            raise RecordError(f"{where} gives both a stock and hands")
        cards = DealCards(stock=_cards(obj["stock"], f"{where} stock"))
    elif "hands" in obj:
        hands = obj["hands"]
        if not isinstance(hands, list):
            raise RecordError(f"{where}: 'hands' must be a list with one list of cards per seat")
        cards = DealCards(
            hands=[_cards(h, f"{where} hand of seat {s}") for s, h in enumerate(hands)],
            kitty=_cards(obj.get("kitty", []), f"{where} kitty"),
        )
    elif seeded:
        cards = None
    else:
        raise RecordError(f"{where} has no cards ('hands' and 'kitty', or 'stock') and the record has no 'seed'")
    return DealRecord(cards, actions)


def parse_record(obj: object) -> GameRecord:
    """Validate the structure of a record (``RecordError`` names the problem); options are checked by the game."""
    if not isinstance(obj, dict):
        raise RecordError("a record must be a JSON object")
    if obj.get("format") != FORMAT:
        raise RecordError(f"unknown record format {obj.get('format')!r}; expected {FORMAT!r}")
    unknown = set(obj) - _TOP_KEYS
    if unknown:
        raise RecordError(f"unknown top-level key(s) {sorted(unknown)}")
    match_class(obj.get("game"))
    seed = obj.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise RecordError(f"'seed' must be an integer, not {seed!r}")
    deals = obj.get("deals")
    if not isinstance(deals, list):
        raise RecordError("'deals' must be a list")
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("'options' must be a JSON object")
    first_dealer = obj.get("first_dealer", 0)
    return GameRecord(
        game=obj["game"],
        options=options,
        first_dealer=first_dealer,
        deals=[_deal(d, i, seed is not None) for i, d in enumerate(deals)],
        seed=seed,
    )


def loads(text: str) -> GameRecord:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"the record is not valid JSON: {e}") from None
    return parse_record(obj)


# --- replaying -----------------------------------------------------------------------------------------------


@dataclass
class Replay:
    match: Match
    error: dict | None = None  # {"deal", "action", "message"} of the first illegal action

    @property
    def exit_code(self) -> int:
        return 1 if self.error else 0

    def output(self) -> dict:
        out = self.match.output()
        out["error"] = self.error
        return out


def deal_cards(record: GameRecord, match: Match, index: int) -> DealCards:
    cards = record.deals[index].cards
    if cards is None:
        cards = match.random_deal(deal_rng(record.seed or 0, index))
    return cards


def new_match_for(record: GameRecord) -> Match:
    return match_class(record.game)(record.options, record.first_dealer)


def match_before_deal(record: GameRecord, deal: int) -> Match:
    """The match as it stood when deal ``deal`` (0-based) of a stored record was dealt: every earlier deal replayed
    as it stands (cards taken back left out).  ``RecordError`` when the record has no such deal."""
    if not 0 <= deal < len(record.deals):
        raise RecordError(f"there is no deal {deal + 1}: the game has {len(record.deals)} so far")
    match = new_match_for(record)
    for index in range(deal):
        match.start_deal(deal_cards(record, match, index))
        for raw in effective_actions(record.deals[index].actions):
            match.apply(action_from_json(raw, shape_checked=True))
    return match


def replay(record: GameRecord) -> Replay:
    """Apply every action of the record.  ``RecordError`` for a malformed record; an illegal action stops the
    replay with the state just before it and the error set."""
    match = new_match_for(record)
    for d, deal in enumerate(record.deals):  # every deal's pack is checked before any play
        if deal.cards is not None:
            try:
                match.check_deal(deal.cards)
            except RecordError as e:
                raise RecordError(f"deal {d}: {e.message}") from None
    for d, deal in enumerate(record.deals):
        match.start_deal(deal_cards(record, match, d))
        for i, raw in enumerate(deal.actions):
            try:
                if raw.get("type") == UNDO:
                    _check_undo(match, deal.actions[:i], raw)
                    match = _replayed_to(record, d, effective_actions(deal.actions[: i + 1]))
                    continue
                match.apply(action_from_json(raw, shape_checked=True))
            except IllegalAction as e:
                return Replay(match, {"deal": d, "action": i, "message": e.message})
    return Replay(match)


def _check_undo(match: Match, before: list[dict], raw: dict) -> None:
    """An undo takes back the card its seat has just played, before anything else happened in the deal."""
    if set(raw) - {"seat", "type"}:
        raise IllegalAction("unexpected key(s) {keys} in an 'undo' action", keys=sorted(set(raw) - {"seat", "type"}))
    if match.phase not in (PLAY,):
        raise IllegalAction("an undo can only take back a card while the cards are played")
    last = before[-1] if before else None
    if last is None or last.get("type") != "play" or last.get("seat") != raw["seat"]:
        raise IllegalAction("an undo can only take back the card its own seat has just played")


def _replayed_to(record: GameRecord, deal_index: int, actions: list[dict]) -> Match:
    """A fresh match with the deals before ``deal_index`` played as they stand and this deal up to ``actions``."""
    match = new_match_for(record)
    for d in range(deal_index + 1):
        match.start_deal(deal_cards(record, match, d))
        for raw in effective_actions(record.deals[d].actions) if d < deal_index else actions:
            match.apply(action_from_json(raw, shape_checked=True))
    return match


def replay_text(text: str) -> tuple[int, dict]:
    """``cardtable replay`` for one record's text: (exit status, output object)."""
    try:
        result = replay(loads(text))
    except RecordError as e:
        return 2, {"error": {"message": e.message}}
    return result.exit_code, result.output()
