"""``/hint``'s answer in the player's language (issue 19: "a player's private texts ... (hand, choices, refusals,
hints) in their own Discord locale"): the reason is ``Words`` from rules/ai/explain.py, the moves named in it are
labelled as the hand's buttons label them, and nothing English is left in the pseudo-locale."""

from __future__ import annotations

import random

import pytest

from bot.presentation.hint_words import hint_text
from rules.ai import explain
from tests.test_ai import random_states
from tests.test_i18n_pseudo import escaped

GAMES = ["two_hundred", "five_hundred", "belote", "da_bai_fen"]


def _hints(game: str, level: str) -> list:
    """A hint at each phase the heuristic driver reaches in one deal (bidding, exchange, play...)."""
    seen: dict[str, tuple] = {}
    for match, history in random_states(game, 4, deals=1, every=1, driver="heuristic"):
        if match.phase in seen or match.to_move is None or len(match.legal_actions()) < 2:
            continue
        record_history = [a.to_json() for a in history]
        seen[match.phase] = explain(level, match, match.to_move, random.Random(1), budget_s=0.05,
                                    history=record_history)  # fmt: skip
    return list(seen.values())


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["master", "heuristic"])
def test_a_hint_says_nothing_in_english_to_a_player_of_another_language(game, level):
    hints = _hints(game, level)
    assert hints
    texts = [hint_text(7, action, why, "pseudo") for action, why in hints]
    assert escaped(texts) == [], texts
    for action, why in hints:
        french = hint_text(7, action, why, "fr")
        assert french.startswith("💡 Table n°7 : l'expert "), french
        chinese = hint_text(7, action, why, "zh")
        assert chinese.startswith("💡 第 7 桌：专家会"), chinese
        english = hint_text(7, action, why, "en")
        assert english.startswith("💡 Table #7: the expert would ") and " — " in english, english
        assert "Action(" not in english and "Words(" not in english, english  # moves named as the buttons name them
    if level == "master":  # in the play the master says what its deals found
        assert any("deals" in hint_text(7, a, w, "en") for a, w in hints), [hint_text(7, a, w, "en") for a, w in hints]
