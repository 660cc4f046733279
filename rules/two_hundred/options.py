"""Two Hundred's table options: the record spec's fixed names, then every variant of the texts.

Each option's ``doc`` is what docs/rules/two_hundred.md explains at length.  ``le_rough`` is a preset: it changes the
defaults of the options it implies, and any option given explicitly still wins.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.options import Option

LAYOUTS = ("pairs", "threes", "cutthroat", "called_partner", "silent_partners")
DEFAULT_LAYOUT = {2: "silent_partners", 3: "cutthroat", 4: "pairs", 5: "called_partner", 6: "threes"}
LAYOUT_PLAYERS = {
    "pairs": (4, 6),
    "threes": (6,),
    "cutthroat": (3, 4, 5, 6),
    "called_partner": (5,),
    "silent_partners": (2,),
}

KITTY_DISCARD_RULES = (
    "defenders",  # 1. any cards; nobody looks; the points count for the contractor's opponents
    "show_trumps",  # 2. as 1, but discarded trumps are shown once trump is announced
    "last_trick",  # 3. the discard's points count for the side that wins the last trick
    "first_trick",  # 4. ... for the side that wins the first trick
    "no_points",  # 5. no aces, tens or fives may be discarded
    "no_trumps_or_points",  # 6. neither trumps nor point cards may be discarded
    "announce_points",  # 7. as 1, but the contractor says whether the discard holds points
    "contractor",  # 8. the discard's points count for the contractor
)

AFTER_THREE_PASSES = ("dealer_chooses", "dealer_must_bid", "dealer_must_pass", "dealer_contracts")

# Le Rough (Quebec): "played with a kitty but using only 36 cards: each player is dealt eight cards ... The minimum
# bid is 70 and the dealer is allowed to keep ... discard any four cards, which count for the bidder's team. The
# bidder's first lead determines the trump suit unless the bidder announces 'sans atout' ... The target score is 350".
LE_ROUGH = {
    "players": 4,
    "kitty": True,
    "hand_size": 8,
    "min_bid": 70,
    "dealer_keeps": True,
    "kitty_discard": "contractor",
    "compulsory_trump_lead": True,
    "no_trump": True,
    "target": 350,
    "hundred_announcement": True,
}


def _optional_int(lo: int, hi: int, step: int = 1) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            return f"must be a whole number or null, not {value!r}"
        if not lo <= value <= hi or value % step:
            return f"must be from {lo} to {hi}" + (f" in steps of {step}" if step > 1 else "") + f", not {value}"
        return None

    return check


def _int_range(lo: int, hi: int, step: int = 1) -> Callable[[Any], str | None]:
    inner = _optional_int(lo, hi, step)
    return lambda v: "must not be null" if v is None else inner(v)


OPTIONS = (
    Option("players", 4, "2 (silent partners), 3, 4, 5 (called partner) or 6 players", choices=(2, 3, 4, 5, 6)),
    Option("target", 200, "the score that wins the game (200; 300, 350, 500...)", check=_int_range(50, 10000, 5)),
    Option("kitty", False, "40 cards and a 4-card kitty the contractor exchanges with"),
    Option("dealer_keeps", False, "the dealer may 'keep' (equal) the highest bid"),
    Option("hundred_for_two_hundred", False, "a bid of 200 commits to all 100 points: +200 made, -100 failed"),
    Option("no_trump", False, "the contractor may name no trumps (NT): the deal's scores are doubled"),
    Option(
        "teams",
        None,
        "seating: " + ", ".join(LAYOUTS) + " (null: the usual one for the player count)",
        choices=(None, *LAYOUTS),
    ),  # fmt: skip
    Option(
        "hand_size",
        None,
        "cards per hand (null: 9 for 2 and 4 players, 12 for 3, 8 for 5, 6 for 6)",
        check=_optional_int(6, 13),
    ),  # fmt: skip
    Option(
        "kitty_discard",
        "defenders",
        "how the contractor's 4-card discard is restricted and counted",
        choices=KITTY_DISCARD_RULES,
    ),  # fmt: skip
    Option("min_bid", 50, "the lowest bid (0: no minimum, a bid is then at least 5)", check=_int_range(0, 100, 5)),
    Option("anyone_keeps", False, "any player may keep the highest bid, but no bid may be kept twice"),
    Option(
        "after_three_passes",
        "dealer_chooses",
        "what the dealer may do when everyone else passed without a bid",
        choices=AFTER_THREE_PASSES,
    ),  # fmt: skip
    Option("single_round", False, "each player speaks once, the dealer last"),
    Option(
        "must_bid_threshold",
        None,
        "score from which defenders score only if they bid (null: target - 100)",
        check=_optional_int(-10000, 10000, 5),
    ),  # fmt: skip
    Option(
        "qualifying_bid",
        None,
        "the lowest bid that qualifies defenders over the threshold (null: any bid)",
        check=_optional_int(0, 200, 5),
    ),  # fmt: skip
    Option(
        "lose_at",
        None,
        "a side at minus this or worse loses, if another is at 0 or more (null: the target)",
        check=_optional_int(5, 10000, 5),
    ),  # fmt: skip
    Option(
        "both_reach_target",
        "contractor",
        "who wins when several sides reach the target in one deal",
        choices=("contractor", "higher_score"),
    ),  # fmt: skip
    Option("win_only_by_contract", False, "the game is won only by a successful contract reaching the target"),
    Option(
        "within_margin",
        None,
        "instead of the must-bid rule: a side this close to the target scores as "
        "defenders only by defeating the contract (e.g. 50)",
        check=_optional_int(5, 10000, 5),
    ),  # fmt: skip
    Option(
        "skunk",
        "none",
        "a win that counts double: none, in_the_hole (loser below zero) or shutout (loser never scored)",
        choices=("none", "in_the_hole", "shutout"),
    ),  # fmt: skip
    Option("bloutte", False, "a contracting side that takes all 100 card points wins the game"),
    Option("compulsory_trump_lead", False, "the contractor's first lead sets trump (only NT may be named)"),
    Option("misdeal", False, "a player dealt no card above a 10 may call a misdeal (action claim_draw)"),
    Option(
        "hundred_announcement",
        False,
        "Le Rough: a contractor not in the hole may announce all 100 points "
        "(action call, contract 'hundred'): made wins the game, failed loses it",
    ),  # fmt: skip
    Option("le_rough", False, "preset for Le Rough: " + ", ".join(f"{k}={v}" for k, v in LE_ROUGH.items())),
)


def expand_presets(given: dict | None) -> dict | None:
    """Le Rough's implied options, overridden by whatever the record gives explicitly."""
    if isinstance(given, dict) and given.get("le_rough") is True:
        return {**LE_ROUGH, **given}
    return given
