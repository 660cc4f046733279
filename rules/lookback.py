"""What a player (and so a spectator) may look back at during a deal, as each game's rule text has it.

Remembering the cards is part of these games, so completed tricks are not on show: each engine declares in
``Match.LOOK_BACK`` how long its last trick stays visible, and in ``Match.face_up_cards`` which cards of a won trick
lie face up (Da Bai Fen's counting cards won by the opponents).  The calls of the auction were said aloud, so they
stay known.  A table whose option opens the review (a learning table, never rated) sees every completed trick and
the running points.  Once the deal is over, all of it may be reviewed.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.review import DealStory, ReviewedTrick

# The last trick lies on the table until its winner leads to the next one; then it is turned face down.
UNTIL_NEXT_LEAD = "until_next_lead"
# The last trick may be viewed until the next trick has been collected (so throughout the next trick).
UNTIL_NEXT_COLLECTED = "until_next_collected"
LOOK_BACKS = (UNTIL_NEXT_LEAD, UNTIL_NEXT_COLLECTED)


def shows_last_trick(look_back: str, trick_in_progress: bool, open_review: bool = False) -> bool:
    """Whether the last completed trick may be seen now (a card of the next trick led or not)."""
    return open_review or look_back == UNTIL_NEXT_COLLECTED or not trick_in_progress


@dataclass(frozen=True)
class LookBackView:
    """What may be looked back at now: the auction's calls, the last trick when the rules leave it in view, and the
    cards lying face up in front of a side; with the review open, or once the deal is over, every trick and its
    points.  (The tricks each side won are in the public view: the piles are on the table.)"""

    calls: tuple[dict, ...]
    last_trick: ReviewedTrick | None
    face_up: tuple[tuple[int, tuple[str, ...]], ...]  # (winning seat, its cards lying face up), per trick
    tricks: tuple[ReviewedTrick, ...]  # every trick: only with the review open or the deal over
    all_open: bool


def look_back(story: DealStory, *, open_review: bool = False) -> LookBackView:
    """What ``story`` lets anyone at the table see now (``story.match`` is the engine at that moment)."""
    match = story.match
    if story.finished or open_review:
        last = story.tricks[-1] if story.tricks else None
        return LookBackView(story.calls, last, (), story.tricks, True)
    in_progress = bool(match.public_view().get("trick"))
    last = story.tricks[-1] if story.tricks and shows_last_trick(match.LOOK_BACK, in_progress) else None
    face_up = []
    for trick in story.tricks:
        cards = tuple(c for _, played in trick.plays for c in played)
        shown = match.face_up_cards(trick.winner, cards)
        if shown:
            face_up.append((trick.winner, tuple(shown)))
    return LookBackView(story.calls, last, tuple(face_up), (), False)
