"""Deal results in players' words (issue 15 item 4): no rule-book role ("takers", "defenders", "contractors",
"declarers", "opponents") and no bare "levels 3–2" reaches the players; sides are named by their players, a level
change is said as who goes up from what to what; a failed lead of several cards heads its deal summary."""

from __future__ import annotations

import random
import re

import pytest

from bot.presentation.result_words import deal_explain
from render.sheets import _result_segments
from rules.game import GAME_OVER
from rules.players import make_player
from rules.playing import play_deal
from rules.registry import game_type, match_class

NAMES = ["alice", "bob", "carol", "dan", "erin", "fay"]
ENGINE_WORDS = re.compile(r"\b(takers|defenders|contractors|declarers|opponents)\b|\blevels \w+–\w+")
GAMES = [
    ("two_hundred", {}),
    ("two_hundred", {"players": 3}),
    ("five_hundred", {}),
    ("five_hundred", {"players": 4}),
    ("belote", {}),
    ("da_bai_fen", {}),
]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_every_deal_result_is_in_players_words(game, options):
    rng = random.Random(8)
    match = match_class(game)(options, 0)
    names = NAMES[: match.players]
    levels = game_type(game).scores_are_levels
    for _ in range(8):
        if match.phase == GAME_OVER:
            break
        play_deal(match, [make_player("heuristic")] * match.players, rng)
        state = match.public_view()
        text = deal_explain(state, len(state["deal_results"]) - 1, names, match.seat_teams(), levels)
        assert not ENGINE_WORDS.search(text), text
        assert not re.search(r"\bseats? \d", text), text
        if state["deal_results"][-1].get("contract") or levels:
            assert any(name in text for name in names), text


def test_levels_are_said_as_who_goes_up_from_what_to_what():
    result = {"score_change": [0, 2], "declarers": 0, "explain": "opponents (team 1) took 105 points → opponents "
              "score 2; levels 2–4"}  # fmt: skip
    state = {"deal_results": [result], "scores": [2, 4]}
    text = deal_explain(state, 0, NAMES[:4], [0, 1, 0, 1], True)
    assert text == (
        "bob & dan, playing against alice & carol, took 105 points: bob & dan score 2 levels; bob & dan go up from 2 "
        "to 4"
    )


def test_a_failed_lead_heads_its_deal_summary():
    """Da Bai Fen: "If it turns out that anyone ... holds a card of the suit led which beats any one of the cards of a
    multiple lead then the lead is a revoke": the summary says whose lead of what failed, not the trump and a name."""
    result = {"failed_throw": {"seat": 0, "cards": ["4C", "3C"]}, "trump": "H", "trump_rank": "2", "leader": 0}
    segments = _result_segments(result, {"game": "da_bai_fen"}, NAMES[:4], "en")
    words = "".join(s if isinstance(s, str) else s[1] for s in segments)
    assert words.startswith("alice's lead of 4") and words.endswith("failed")
    assert ("suit", "C") in segments or any(isinstance(s, tuple) and "C" in s for s in segments)
