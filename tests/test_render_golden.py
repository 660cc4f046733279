"""A few images compared with committed golden copies (mean pixel difference), so that a drawing regression is
noticed.  After an intended change of look, rewrite them and look at them before committing:

    RENDER_GOLDEN_UPDATE=1 .venv/bin/python -m pytest tests/test_render_golden.py
"""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render import render_hand, render_leaderboard, render_standings, render_table
from rules.actions import Action, DiscardChoice
from rules.registry import match_class

GOLDEN = Path(__file__).resolve().parent / "golden"
TOLERANCE = 2.0  # mean absolute difference per channel, 0..255: font hinting or resampling noise stays far below

BELOTE_STATE = {
    "game": "belote", "deal": 3, "dealer": 1, "phase": "play", "trump": "H",
    "contract": {"seat": 2, "team": 0, "value": 110, "suit": "H", "countered": True, "recountered": False,
                 "multiplier": 2},
    "trick": [{"seat": 2, "cards": ["JH"]}, {"seat": 3, "cards": ["7H"]}, {"seat": 0, "cards": ["AS"]}],
    "scores": [414, 356], "deal_results": [], "winner": None, "error": None, "legal": [],
    "options": {"players": 4, "target": 1000}, "tricks_won": [3, 2], "card_points": [61, 30],
    "last_trick": [{"seat": 1, "cards": ["KD"]}, {"seat": 2, "cards": ["AD"], "winner": True},
                   {"seat": 3, "cards": ["8D"]}, {"seat": 0, "cards": ["10D"]}],
    "auction": [{"seat": 2, "type": "bid", "value": 90, "suit": "S"}, {"seat": 3, "type": "pass"},
                {"seat": 0, "type": "bid", "value": 100, "suit": "D"}, {"seat": 1, "type": "pass"},
                {"seat": 2, "type": "bid", "value": 110, "suit": "H"}, {"seat": 3, "type": "counter"}],
}  # fmt: skip

CASES = {
    "hand_five_hundred": lambda: render_hand(
        "five_hundred",
        ["JD", "AH", "7S", "JK", "10H", "KC", "JH", "QD", "9S", "13C"],
        trump="H",
        legal={"JD", "AH", "JK", "10H", "JH"},
        title="Ann",
    ),  # fmt: skip
    "hand_da_bai_fen_four_colour": lambda: render_hand(
        "da_bai_fen",
        ["RJ", "2S", "5H", "AS", "BJ", "KD", "2C", "10C", "3S", "QH", "5D", "9C"],
        trump="S",
        trump_rank="2",
        four_colour=True,
    ),  # fmt: skip
    "table_belote_fr": lambda: render_table(
        BELOTE_STATE, ["Léa", "Hugo", "Camille", "Louis"], to_move=1, show_last_trick=True, clock="0:30", lang="fr"
    ),  # fmt: skip
    "leaderboard_zh": lambda: render_leaderboard(
        [
            {"rank": 1, "name": "王芳", "rating": 1262, "games": 40, "win_rate": 0.62},
            {"rank": 2, "name": "Zoë", "rating": 1164.4, "games": 12, "win_rate": 0.5},
            {"rank": 3, "name": "李伟", "rating": 1097.0, "games": 33, "win_rate": 0.41},
        ],
        title="打百分 排行榜",
        page=1,
        pages=2,
        lang="zh",
    ),  # fmt: skip
    "standings_fr": lambda: render_standings(
        [
            (1, "Léa", 68.75, 8),
            (2, "Hugo", 55.0, 8),
            (2, "Camille", 55.0, 7),
            (4, "王芳", 41.25, 8),
            (5, "Louis-Alexandre de Saint-Exupéry", 30.0, 2),
        ],
        title="Daylong du dimanche",
        columns=["st_percent", "st_boards"],
        subtitle="Da Bai Fen · en cours",
        lang="fr",
        total=9,
    ),  # fmt: skip
    "standings_zh": lambda: render_standings(
        [(1, "王芳", 8, 9.0, 3), (2, "李伟", 6, 11.0, 3), (3, "Zoë", 4, 12.0, 3)],
        title="周四瑞士制",
        columns=["st_match_points", "st_buchholz", "st_played"],
        subtitle="五百分 · 比赛分",
        lang="zh",
    ),  # fmt: skip
}

# One table per game in French and in Chinese (issue 19): a position reached by seeded random legal moves, so that
# every game's own words (contract, trump, levels, announcements) are drawn in each language.
TABLE_NAMES = {"fr": ["Léa", "Hugo", "Camille", "Louis", "Inès", "Théo"],
               "zh": ["王芳", "李伟", "张敏", "刘洋", "陈静", "杨帆"]}  # fmt: skip
TABLE_MOVES = {"belote": 10, "da_bai_fen": 60, "two_hundred": 12, "five_hundred": 12}


def _position(game: str, moves: int):
    match = match_class(game)({})
    rng = random.Random(7)
    match.start_deal(match.random_deal(rng))
    for _ in range(moves):
        action = rng.choice(match.legal_actions())
        if isinstance(action, DiscardChoice):
            action = Action(action.seat, "discard", cards=tuple(rng.sample(list(action.from_cards), action.choose)))
        match.apply(action)
    return match


def _table_in(game: str, lang: str) -> bytes:
    match = _position(game, TABLE_MOVES[game])
    return render_table(match.public_view(), TABLE_NAMES[lang][: match.players], to_move=match.to_move, lang=lang)


for _game in TABLE_MOVES:
    for _lang in ("fr", "zh"):
        CASES[f"table_{_game}_{_lang}_i18n"] = lambda g=_game, lang=_lang: _table_in(g, lang)


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_golden(name):
    img = Image.open(io.BytesIO(CASES[name]())).convert("RGB")
    path = GOLDEN / f"{name}.png"
    if os.environ.get("RENDER_GOLDEN_UPDATE") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        img.save(path)
        if not os.environ.get("RENDER_GOLDEN_UPDATE"):
            pytest.fail(f"golden {path.name} was missing and has been written; check it and commit it")
    golden = Image.open(path).convert("RGB")
    assert img.size == golden.size
    diff = sum(ImageStat.Stat(ImageChops.difference(img, golden)).mean) / 3
    assert diff <= TOLERANCE, f"{name}: mean pixel difference {diff:.2f} > {TOLERANCE}"
