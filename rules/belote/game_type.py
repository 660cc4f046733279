"""Belote Contrée as the rest of the program sees it (see ``rules.game_type``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.belote.summary import PAGES
from rules.game_type import GameType, HandOrder, Teams


def capot(deal_result: Mapping[str, Any], teams: Teams) -> tuple[int, ...]:
    """A team took all eight tricks."""
    for team, tricks in enumerate(deal_result.get("tricks") or []):
        if tricks == 8 and team < len(teams):
            return tuple(teams[team])
    return ()


GAME_TYPE = GameType(
    id="belote",
    names={"en": "Belote Contrée", "fr": "Belote Contrée", "zh": "贝洛特"},
    aliases=("belote", "coinche", "contrée", "contree", "belote contrée"),
    engine="rules.belote.match:Belote",
    seat_counts=(4,),
    teams=lambda players, options: ((0, 2), (1, 3)),
    presets={
        "standard": {},
        "short-500": {"target": 500},
        "announced-scoring": {"scoring": "announced"},
        "with-no-trump-and-all-trumps": {"sans_atout": True, "tout_atout": True},
    },
    clockwise=False,
    hand_order=HandOrder(
        plain=("A", "10", "K", "Q", "J", "9", "8", "7"),
        trump=("J", "9", "A", "10", "K", "Q", "8", "7"),
    ),
    has_counter=True,  # §4: "counter" doubles the contract, "recounter" doubles it again
    bid_names_trump=True,
    auction_on_table=True,
    announcements={"belote": "20 points"},  # "If either term is omitted, Belote is not counted"
    sweep_word="capot",
    sweepers=capot,
    computer_strategy=True,
    rules_summary=PAGES,
)
