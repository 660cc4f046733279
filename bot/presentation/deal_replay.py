"""A deal of a table's record shown again as its players saw the table: the moments worth a picture, and the
animated GIF of them (Discord animates GIFs).

Everything is worked out from the record alone (``rules.records``), so a finished table's "Replay" and
``cardtable demo`` show a deal the same way.  The pictures are the table images of ``render.table``, the ones the
table message shows, drawn from ``Match.public_view()``: never a hand.  This is CPU work; the bot runs it where it
draws its other images (``bot/presentation/images.py``'s pool).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from bot.i18n import _, speaking
from bot.presentation.choices import past_tense
from rules.actions import action_from_json
from rules.cards import CARD_NAMES
from rules.errors import RecordError
from rules.game import BETWEEN_DEALS, DEAL, GAME_OVER, Match
from rules.records import GameRecord, deal_cards, effective_actions, match_before_deal, new_match_for

# How long each kind of moment stays on screen, in milliseconds: long enough to read a call or see a card land,
# longer for a finished trick (who won it), longest for the deal's end (the scores after it) before the GIF loops.
PAUSE_MS = {"start": 2500, "call": 900, "card": 700, "trick": 1800, "end": 5000}


@dataclass(frozen=True)
class Moment:
    """One picture of the table: the public view, whose turn it is, and the trick just completed (shown on the
    felt, its winner edged in gold) when the view's own trick is empty."""

    kind: str  # a key of PAUSE_MS
    state: dict[str, Any]
    to_move: int | None
    last_trick: list[dict] | None
    trick_number: int  # tricks completed in the deal so far
    action: dict | None = None  # the call or card just made, as in the record


def match_before(record: GameRecord, deal_index: int) -> Match:
    """The match as it stood when deal ``deal_index`` of ``record`` was dealt (every earlier deal replayed)."""
    try:
        return match_before_deal(record, deal_index)
    except RecordError as error:
        raise ValueError(str(error)) from None


def walk_deal(record: GameRecord, deal_index: int) -> Iterator[tuple[Match, dict | None]]:
    """The deal step by step: ``(match, None)`` once the cards are in the players' hands (for a deal drawn from a
    stock, when the draw is over), then ``(match, action)`` after each later action.  The match is live: read it
    before taking the next step."""
    match = match_before(record, deal_index)
    match.start_deal(deal_cards(record, match, deal_index))
    dealt = match.phase != DEAL
    if dealt:
        yield match, None
    for raw in effective_actions(record.deals[deal_index].actions):  # a card taken back is not replayed
        match.apply(action_from_json(raw))
        if not dealt:
            dealt = match.phase != DEAL
            if dealt:
                yield match, None
            continue
        yield match, raw


def _completed_trick(match: Match) -> list[dict]:
    _, plays, _ = match.last_completed_trick()
    return [{"seat": seat, "cards": [CARD_NAMES[c] for c in cards]} for seat, cards in plays]


def deal_moments(record: GameRecord, deal_index: int) -> list[Moment]:
    """The moments of a deal worth a picture: the cards dealt, each call, each card, each finished trick, and the
    deal's end (the last trick and the scores after it)."""
    moments: list[Moment] = []
    tricks = 0
    for match, action in walk_deal(record, deal_index):
        if match.phase in (BETWEEN_DEALS, GAME_OVER):
            end = match.deal_end_view()
            moments.append(Moment("end", end, None, end.get("last_trick"), match.tricks_completed()))
            break
        done = match.tricks_completed()
        if action is None:
            kind = "start"
        elif done > tricks:
            kind = "trick"
        else:
            kind = "card" if action["type"] == "play" else "call"
        last = _completed_trick(match) if kind == "trick" else None
        moments.append(Moment(kind, match.public_view(), match.to_move, last, done, action))
        tricks = done
    return moments


def moment_image(
    moment: Moment, names: Sequence[str], *, title: str = "", lang: str = "en", auction_rows: int = 0
) -> Image.Image:
    """The table picture of ``moment``, as the table message draws it; the title then says who did what (the
    table message's text says it in the channel).  ``auction_rows``: the lines kept for the auction (the most the
    deal needs, so that the table does not jump down as calls are made)."""
    from render.table import build_table

    if moment.action is not None:
        title = f"{title} · {names[moment.action['seat']]} {past_tense(moment.action)}"
    shown = moment.last_trick if not moment.state.get("trick") else None
    return build_table(
        moment.state,
        list(names),
        to_move=moment.to_move,
        title=title,
        show_last_trick=bool(shown),
        last_trick=shown,
        lang=lang,
        auction_rows=auction_rows,
    )


def auction_rows_of(moments: Sequence[Moment], names: Sequence[str], lang: str = "en") -> int:
    """The most lines the deal's auction takes on the table picture."""
    from render.table import auction_rows

    return max((auction_rows(m.state, list(names), lang) for m in moments), default=0)


def deal_gif(
    record: GameRecord,
    deal_index: int,
    names: Sequence[str] | None = None,
    *,
    title: str | None = None,
    lang: str = "en",
) -> bytes:
    """An animated GIF of deal ``deal_index`` (0-based) of ``record``: the table after every call and card, each
    finished trick held a little longer, the deal's end longest.  ``names`` by seat (default "Seat 1", ...)."""
    from render.animation import to_gif

    moments = deal_moments(record, deal_index)
    with speaking(lang):  # drawn in a worker process, which speaks nothing of its own: who did what, in ``lang``
        if names is None:
            names = [_("Seat {n}", n=seat + 1) for seat in range(new_match_for(record).players)]
        title = _("Deal {n}", n=deal_index + 1) if title is None else title
        rows = auction_rows_of(moments, names, lang)
        frames = [moment_image(m, names, title=title, lang=lang, auction_rows=rows) for m in moments]
    return to_gif(frames, [PAUSE_MS[m.kind] for m in moments])
