"""Two Hundred as the rest of the program sees it (see ``rules.game_type``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.game_type import GameType, HandOrder, Teams
from rules.seats import partnership_teams, solo_teams
from rules.two_hundred.summary import PAGES


def bloute(deal_result: Mapping[str, Any], teams: Teams) -> tuple[int, ...]:
    """The contracting side took all 100 card points ("points" lists the contracting side first, "sides" its
    teams)."""
    points, sides = deal_result.get("points") or [], deal_result.get("sides") or []
    if points and sides and points[0] == 100:
        return tuple(sorted(s for team in sides[0] for s in teams[team]))
    return ()


def teams(players: int, options: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    """Pairs at four, pairs or (usually) two threes at six; otherwise each plays alone (cut-throat, called partner,
    two players with silent partners)."""
    layout = options.get("teams") or {4: "pairs", 6: "threes"}.get(players)
    if layout == "pairs" and players in (4, 6):
        return tuple(partnership_teams(players, players // 2))
    if layout == "threes" and players == 6:
        return tuple(partnership_teams(6, 2))
    return tuple(solo_teams(players))


GAME_TYPE = GameType(
    id="two_hundred",
    names={"en": "Two Hundred", "fr": "Deux Cents", "zh": "二百分"},
    aliases=("200", "two hundred", "deux cents"),
    engine="rules.two_hundred.match:TwoHundred",
    seat_counts=(2, 3, 4, 5, 6),
    teams=teams,
    presets={
        "standard": {},
        "kitty": {"kitty": True},
        "dealer-keeps": {"dealer_keeps": True},
        "hundred-for-two-hundred": {"hundred_for_two_hundred": True},
        "no-trump": {"no_trump": True},
        "le-rough": {"le_rough": True},
    },
    clockwise=True,
    hand_order=HandOrder(plain=("A", "10", "K", "Q", "J", "9", "8", "7", "6", "5", "4", "3", "2")),
    phase_words={"exchange": "to take the kitty and discard"},
    auction_on_table=True,
    sweep_word="bloute",
    sweepers=bloute,
    computer_strategy=True,
    rules_summary=PAGES,
)
