"""Who really played each seat: computer stand-ins and substitutes, and what that means for the ratings.

The policy (docs/leaderboards.md):

- A seat's *moves* are its actions in the record, except draws from a stock, which are no choice and
  are made automatically for everyone.
- A move is a *stand-in move* when a computer made it for an away player (bot/clocks/service.py); the action log marks
  it (``actions.standin``, written in the action's own INSERT).
- When a computer stood in for **more than a quarter** of some seat's moves, the game is unrated.
- A **substitute** who took over a seat (``seat_takeovers``) is rated for it, in place of the player who left (the
  seat's player at the end is the one rated), provided they played **at least a quarter** of that seat's moves
  themselves; otherwise the game is unrated.

Everything here is derived from stored data only (the action log, the takeovers and the seats), so recording a
result at the end of a game, at start-up (``reconcile``) or later gives the same answer: ``bot/storage/results.py``
reads them and calls ``tally``; ``bot/storage/clocks.py`` records a takeover.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rules.errors import Words

STANDIN_LIMIT = 0.25  # a computer may stand in for up to this share of a seat's moves in a rated game
SUBSTITUTE_MIN = 0.25  # a substitute must play at least this share of the seat's moves for the game to be rated
UNCOUNTED = ("draw",)  # automatic actions, no choice


@dataclass(frozen=True)
class SeatPlay:
    moves: int = 0  # the seat's moves (draws not counted)
    standin: int = 0  # made by a computer standing in for an away player
    player: int = 0  # made by the seat's player at the end (since they took the seat, for a substitute)
    substituted: bool = False  # a substitute took the seat over and holds it at the end


def tally(
    actions: Iterable[tuple[Mapping, bool]],
    holders: Mapping[int, int | None],
    takeovers: Iterable[tuple[int, int, int]] = (),
) -> dict[int, SeatPlay]:
    """Per seat, from the game's actions in order (``(action, by_standin)``), the seats' users at the end
    (``holders``) and the takeovers ``(seat, user_id, at_action)``.  A takeover counts when its user holds the seat
    at the end (the latest such one); a takeover whose seat change was never saved is ignored."""
    since: dict[int, int] = {}
    for taken_seat, user_id, at in sorted(takeovers, key=lambda t: t[2]):
        if holders.get(taken_seat) is not None and holders.get(taken_seat) == user_id:
            since[taken_seat] = at
    counts: dict[int, list[int]] = {}
    for index, (action, standin) in enumerate(actions):
        seat = action.get("seat")
        if not isinstance(seat, int) or action.get("type") in UNCOUNTED:
            continue
        c = counts.setdefault(seat, [0, 0, 0])
        c[0] += 1
        if standin:
            c[1] += 1
        elif index >= since.get(seat, 0):
            c[2] += 1
    return {
        seat: SeatPlay(moves=c[0], standin=c[1], player=c[2], substituted=seat in since)
        for seat, c in sorted(counts.items())
    }


def standin_reason(play: Mapping[int, SeatPlay]) -> str | None:
    """Why stand-ins or substitutes make a game unrated, or None when they do not."""
    words = standin_words(play)
    return None if words is None else str(words)


def standin_words(play: Mapping[int, SeatPlay]) -> Words | None:
    """``standin_reason`` as a message id with fields, for each language."""
    for seat, p in sorted(play.items()):
        if p.moves and p.standin > STANDIN_LIMIT * p.moves:
            return Words("a computer stood in for more than a quarter of seat {seat}'s moves ({standin} of {moves})",
                         seat=seat + 1, standin=p.standin, moves=p.moves)  # fmt: skip
    for seat, p in sorted(play.items()):
        if p.substituted and p.moves and p.player < SUBSTITUTE_MIN * p.moves:
            return Words("the substitute in seat {seat} played fewer than a quarter of its moves ({played} of {moves})",
                         seat=seat + 1, played=p.player, moves=p.moves)  # fmt: skip
    return None
