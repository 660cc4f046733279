"""Five Hundred as the rest of the program sees it (see ``rules.game_type``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.five_hundred.summary import PAGES
from rules.game_type import GameType, HandOrder, Teams
from rules.seats import partnership_teams, solo_teams


def slam(deal_result: Mapping[str, Any], teams: Teams) -> tuple[int, ...]:
    """The declarers (with a called partner, if any) took every trick."""
    contract = deal_result.get("contract") or {}
    declarers = set(contract.get("side") or ())
    if contract.get("partner") is not None:
        declarers.add(contract["partner"])
    tricks = deal_result.get("tricks_won") or []
    if declarers and tricks and sum(tricks[s] for s in declarers) == sum(tricks) > 0:
        return tuple(sorted(declarers))
    return ()


def teams(players: int, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    """Pairs at four; three pairs or two threes at six; otherwise each plays alone (five: a called partner)."""
    if players == 4:
        return tuple(partnership_teams(4, 2))
    if players == 6:
        return tuple(partnership_teams(6, 3 if options.get("six_player_method", 1) == 1 else 2))
    return tuple(solo_teams(players))


GAME_TYPE = GameType(
    id="five_hundred",
    names={"en": "Five Hundred", "fr": "Cinq Cents", "zh": "五百分"},
    aliases=("500", "five hundred", "cinq cents"),
    engine="rules.five_hundred.match:FiveHundred",
    seat_counts=(2, 3, 4, 5, 6),
    teams=teams,
    presets={
        "standard": {},
        "two-players": {"players": 2},
        "four-players": {"players": 4},
        "five-players": {"players": 5},
        "six-players-pairs": {"players": 6, "six_player_method": 1},
        "six-players-two-teams": {"players": 6, "six_player_method": 2},
    },
    clockwise=True,
    hand_order=HandOrder(bowers=True),
    sweep_word="slam",
    auction_on_table=True,
    sweepers=slam,
    computer_strategy=True,
    rules_summary=PAGES,
)
