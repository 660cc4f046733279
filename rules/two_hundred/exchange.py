"""The kitty: "the high bidder takes the four kitty cards without showing them and discards four cards face down in
exchange before naming trumps ... any points in the discarded cards count for the contractor's opponents".

The text lists eight ways of restricting and counting the discard; ``kitty_discard`` picks one (see options.py).
"""

from __future__ import annotations

from rules.cards import NO_TRUMP, SUIT_MASKS
from rules.errors import IllegalAction

from .table import DEAL_KITTY, POINT_CARDS

# Where the discard's points go, by rule: the contractor's opponents, the winner of the last or first trick, or the
# contractor's own side.
DISCARD_OWNER = {
    "defenders": "opponents",
    "show_trumps": "opponents",
    "no_points": "opponents",
    "no_trumps_or_points": "opponents",
    "announce_points": "opponents",
    "last_trick": "last_trick",
    "first_trick": "first_trick",
    "contractor": "contractor",
}


def trump_before_discard(rule: str) -> bool:
    """Rule 6 forbids discarding trumps, so the contractor must name trump before discarding."""
    return rule == "no_trumps_or_points"


def discardable(hand: int, rule: str, trump: int | None) -> int:
    """The cards the contractor may discard.

    "This could rarely lead to an impossible situation": when fewer than four cards are allowed, the rule is relaxed
    step by step - first trumps that are not point cards become discardable, then every card.
    """
    trumps = SUIT_MASKS[trump] if trump is not None and trump != NO_TRUMP else 0
    if rule == "no_trumps_or_points":
        allowed = hand & ~POINT_CARDS & ~trumps
        if allowed.bit_count() >= DEAL_KITTY:
            return allowed
        rule = "no_points"
    if rule == "no_points":
        allowed = hand & ~POINT_CARDS
        if allowed.bit_count() >= DEAL_KITTY:
            return allowed
    return hand


def why_not_discardable(card_mask: int, rule: str, trump: int | None) -> IllegalAction:
    if card_mask & POINT_CARDS:
        return IllegalAction("at this table you may not discard aces, tens or fives")
    return IllegalAction("at this table you may not discard trumps")
