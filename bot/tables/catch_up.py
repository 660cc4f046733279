"""Another process's moves, applied to this process's copy of a table without replaying its whole record.

When a process sharing the database announces a change (PostgreSQL's NOTIFY), ``TableManager.refresh`` reads only
what was appended to the record since the copy's last action (``Store.record_since``) and applies it: a replay of
the whole record per move made elsewhere would cost every process as much as the one that made the move, and more
as the game grows.  Anything that does not simply follow on (a gap, a card taken back) is replayed whole instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import Action, action_from_json
from rules.dealing import DealCards
from rules.errors import RecordError
from rules.records import FORMAT, UNDO, GameRecord, parse_record


@dataclass(frozen=True)
class NewDeal:
    cards: DealCards


Step = Action | NewDeal


def steps_after(record: GameRecord, deals: dict[int, dict], actions: list[tuple[int, int, dict]]) -> list[Step] | None:
    """The steps, in order, that carry ``record`` to the store's record, given what the store has after it (new
    deals by index, new actions as (deal index, seq, action)); None when they do not follow on from ``record``."""
    deal, seq = len(record.deals) - 1, len(record.deals[-1].actions) if record.deals else 0
    steps: list[Step] = []
    try:
        for deal_index, at, raw in actions:
            while deal_index > deal:
                deal += 1
                if deal not in deals:
                    return None
                steps.append(_new_deal(record, deals[deal]))
                seq = 0
            if deal_index != deal or at != seq or raw.get("type") == UNDO:
                return None  # (an undo rebuilds the deal: replayed whole)
            steps.append(action_from_json(raw))
            seq += 1
        for index in sorted(deals):
            if index <= deal:
                continue
            if index != deal + 1:
                return None
            steps.append(_new_deal(record, deals[index]))
            deal = index
    except (RecordError, ValueError, KeyError):
        return None
    return steps


def _new_deal(record: GameRecord, cards: dict) -> NewDeal:
    parsed = parse_record({"format": FORMAT, "game": record.game, "options": record.options, "deals": [cards]})
    if parsed.deals[0].cards is None:
        raise RecordError("a stored deal without its cards")
    return NewDeal(parsed.deals[0].cards)
