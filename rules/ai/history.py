"""The current deal's actions rebuilt from what an engine keeps, for callers that do not pass the record's actions.

The record's own actions (``record.deals[-1].actions``) are always better: pass them to ``build_view``.  This
fallback is exact for Five Hundred and Belote; for Da Bai Fen the engine does not keep the tricks already played, so
only the draw, the exposure, the discard and the trick in progress come back (the players then play from their hand
and the public trick, and the search falls back to the heuristic when the history does not add up).
"""

from __future__ import annotations

from rules.actions import Action
from rules.cards import KING, QUEEN, card
from rules.game import Match


def history_from_match(match: Match) -> list[Action]:
    fn = _BUILDERS.get(match.game_id)
    if fn is None:
        existing = getattr(match, "history", None) or getattr(match, "actions", None)
        return list(existing) if isinstance(existing, list) else []
    try:
        return fn(match)
    except (AttributeError, TypeError, IndexError):
        return []


def _five_hundred(m) -> list[Action]:
    from rules.five_hundred.bids import bid_of  # noqa: F401  (the engine's auction entries are Bid objects)

    out: list[Action] = []
    for seat, bid in m.auction:
        if bid is None:
            out.append(Action(seat, "pass"))
        elif bid.misere:
            out.append(Action(seat, "bid", contract=bid.contract))
        else:
            out.append(Action(seat, "bid", value=bid.tricks, suit=bid.trump))
    if m.discards:
        out.append(Action(m.soloist, "discard", cards=tuple(m.discards)))
    if m.players == 5 and m.contract is not None and not m.contract.misere and not m.awaiting_call and m.discards:
        out.append(Action(m.soloist, "call", card=m.called_card))
    tp = m.tp
    if tp is None:
        return out
    tricks = [plays for _, plays, _ in tp.completed] + ([tp.trick] if tp.trick else [])
    for i, plays in enumerate(tricks):
        for j, (seat, c) in enumerate(plays):
            suit = None
            if j == 0 and c == 64 and m.trump == 4:
                if i == len(tricks) - 1 and plays is tp.trick:
                    suit = tp.led_suit
                else:
                    es = tp.effective_suit
                    follow = [es[x] for _, x in plays[1:] if es[x] < 4]
                    suit = max(set(follow), key=follow.count) if follow else 0
            out.append(Action(seat, "play", cards=(c,), suit=suit))
    return out


def _belote(m) -> list[Action]:
    out: list[Action] = list(m.auction.calls) if m.auction is not None else []
    announced = set(m._belote_seats)
    pair_seen: set[int] = set()
    tricks = [(lead, cards) for lead, cards, _ in m._completed]
    if m.phase == "play" and m._trick:
        tricks.append((m._leader, tuple(m._trick)))
    trump = m.kind if 0 <= m.kind < 4 else -1
    pair = {card(KING, trump), card(QUEEN, trump)} if trump >= 0 else set()
    for lead, cards in tricks:
        for i, c in enumerate(cards):
            seat = (lead + i) & 3
            announce = None
            if c in pair and seat in announced and seat not in pair_seen:
                announce = "belote"
            if c in pair:
                pair_seen.add(seat)
            out.append(Action(seat, "play", cards=(c,), announce=announce))
    return out


def _da_bai_fen(m) -> list[Action]:
    out: list[Action] = []
    starter = m.dealer
    exposed = m.exposed
    for i in range(m.drawn):
        seat = (starter + i) % 4
        out.append(Action(seat, "draw"))
        if exposed is not None and seat == exposed[0] and i < 4:
            out.append(Action(seat, "expose", card=exposed[1]))
    if m.kitty_turned:
        out.append(Action(starter, "draw"))
    if m.phase == "play" or m.discarded:
        out.append(Action(m.leader, "discard", cards=tuple(_cards(m.discarded))))
    for seat, cards in m.trick:
        out.append(Action(seat, "play", cards=tuple(cards)))
    return out


def _cards(mask: int) -> list[int]:
    from rules.cards import cards_of

    return cards_of(mask)


def _two_hundred(m) -> list[Action]:
    """The auction, the hundred announcement, the discard and call, the trump (named, which replays the same as a
    trump set by the first lead), then the tricks; positions are mapped to the seats that control them."""
    from rules.cards import cards_of

    ctrl = m.table.controller
    out: list[Action] = []
    for pos, kind, value in m.auction.history:
        out.append(Action(ctrl[pos], kind, value=value))
    if m.contractor < 0:
        return out
    seat = ctrl[m.contractor]
    if m.hundred_announced:
        out.append(Action(seat, "call", contract="hundred"))
    if m.discard:
        out.append(Action(seat, "discard", cards=tuple(cards_of(m.discard))))
    if m.partner_card is not None:
        out.append(Action(seat, "call", card=m.partner_card))
    play = m.play
    if m.trump is not None and (play.completed or play.trick):
        first_leader = play.completed[0][0] if play.completed else play.trick[0][0]
        out.append(Action(ctrl[first_leader], "trump", suit=m.trump))
    elif m.trump is not None:
        out.append(Action(seat, "trump", suit=m.trump))
    tricks = [plays for _, plays, _ in play.completed] + ([play.trick] if play.trick else [])
    for plays in tricks:
        for pos, c in plays:
            out.append(Action(ctrl[pos], "play", cards=(c,)))
    return out


_BUILDERS = {
    "five_hundred": _five_hundred,
    "belote": _belote,
    "da_bai_fen": _da_bai_fen,
    "two_hundred": _two_hundred,
}
