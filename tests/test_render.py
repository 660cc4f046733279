"""Every image builds for every game and player count from real game states (random legal play), has the expected
size, stays under the PNG size budget; the hand is sorted as players sort it; Chinese text has real glyphs."""

from __future__ import annotations

import io
import random
from functools import cache

import pytest
from PIL import Image

from render import render_deal_summary, render_hand, render_leaderboard, render_score_sheet, render_table, sort_hand
from render.cards import face
from render.fonts import has_glyphs
from render.i18n import LABELS
from render.table import W

PNG_BUDGET = 150_000
NAMES = ["Alice", "Bruno", "Chloé", "王芳", "Émile", "Zoë"]

# (game, options): every player count each engine offers.
FORMS = [
    ("two_hundred", {}),
    ("two_hundred", {"players": 2}),
    ("two_hundred", {"players": 3}),
    ("two_hundred", {"players": 5}),
    ("two_hundred", {"players": 6}),
    ("five_hundred", {}),
    ("five_hundred", {"players": 2}),
    ("five_hundred", {"players": 4}),
    ("five_hundred", {"players": 5}),
    ("five_hundred", {"players": 6}),
    ("belote", {}),
    ("da_bai_fen", {}),
]
FORM_IDS = [f"{g}-{o.get('players', 'default')}" for g, o in FORMS]


def new_match(game: str, options: dict):
    from rules.errors import RecordError
    from rules.registry import new_match as make

    try:
        return make(game, options)
    except RecordError as e:  # an engine (or one of its forms) not in this build yet
        pytest.skip(f"{game} {options}: {e}")


@cache
def snapshots(game: str, options_items: tuple) -> list[tuple[dict, list[list[str]], int | None]]:
    """(output, hands, to_move) at several points of one random game: each phase met, and the end."""
    from rules.players import RandomPlayer

    m = new_match(game, dict(options_items))
    rng, player = random.Random(7), RandomPlayer()
    m.start_deal(m.random_deal(rng))
    out, seen, steps = [], set(), 0
    while steps < 3000:
        if m.phase == "game_over":
            break
        if m.phase == "between_deals":
            out.append((m.output(), [], None))
            m.start_deal(m.random_deal(rng))
            continue
        key = (m.phase, m.deal_index > 0, len(m.output()["trick"]) if m.phase == "play" else 0)
        if key not in seen or steps % 97 == 0:
            seen.add(key)
            out.append((m.output(), [m.hand_mask_names(s) for s in range(m.players)], m.to_move))
        m.apply(player.choose(m, rng))
        steps += 1
    out.append((m.output(), [], None))
    return out


def png_image(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= PNG_BUDGET, f"{len(data)} bytes"
    return Image.open(io.BytesIO(data))


@pytest.mark.parametrize(("game", "options"), FORMS, ids=FORM_IDS)
def test_table_and_hand_build_for_every_state(game, options):
    snaps = snapshots(game, tuple(sorted(options.items())))
    for i, (state, hands, to_move) in enumerate(snaps):
        n = state["options"]["players"]
        names = NAMES[:n]
        lang = ("en", "fr", "zh")[i % 3]
        img = png_image(render_table(state, names, to_move=to_move, show_last_trick=i % 2 == 0, clock="0:42",
                                     four_colour=i % 2 == 1, lang=lang))  # fmt: skip
        assert img.width == W and 600 < img.height < 1300  # its height follows the table size
        legal = {c for a in state["legal"] if a["type"] == "play" for c in a.get("cards", [])}
        from render.state import trump_rank

        for seat, cards in enumerate(hands[:2]):
            hand = png_image(render_hand(game, cards, trump=state["trump"], trump_rank=trump_rank(state),
                                         legal=legal if seat == to_move else None, title=names[seat]))  # fmt: skip
            assert hand.width >= 420 and 150 < hand.height < 700


@pytest.mark.parametrize(("game", "options"), FORMS, ids=FORM_IDS)
def test_deal_summaries_and_score_sheet(game, options):
    snaps = snapshots(game, tuple(sorted(options.items())))
    final = snaps[-1][0]
    n = final["options"]["players"]
    names = NAMES[:n]
    assert final["deal_results"], "the random game finished at least one deal"
    for lang in ("en", "fr", "zh"):
        for index in (0, -1):
            img = png_image(render_deal_summary(final, names, index, lang=lang))
            assert img.width == 1000 and 200 < img.height < 900
        sheet = png_image(render_score_sheet(final, names, lang=lang))
        assert sheet.width == 1000 and 500 < sheet.height < 1400
    mid = next(s for s, _, _ in snaps if s["deal_results"])  # a sheet in the middle of the game
    png_image(render_score_sheet(mid, names))


def test_leaderboard_pages_and_empty():
    rows = [{"rank": i + 1, "name": name, "rating": 1500 - 20.5 * i, "games": 30 - i, "win_rate": 0.6 - i / 20}
            for i, name in enumerate(NAMES * 2)]  # fmt: skip
    for lang in ("en", "fr", "zh"):
        img = png_image(render_leaderboard(rows, title="Belote", page=2, pages=5, lang=lang))
        assert img.width == 900
    empty = png_image(render_leaderboard([], title="Da Bai Fen"))
    assert empty.width == 900


# --- card faces and sorting ------------------------------------------------------------------------------------

ALL_CARDS = [r + s for s in "SHDC" for r in ("A", "K", "Q", "J", "13", "12", "11", "10", "9", "8", "7", "6", "5",
                                               "4", "3", "2")] + ["JK", "BJ", "RJ"]  # fmt: skip


def test_every_card_has_a_face_in_both_colour_schemes():
    for card in ALL_CARDS:
        for four in (False, True):
            img = face(card, 60, four)
            assert img.size == (60, 84)
            assert img.getchannel("A").getextrema() == (0, 255)  # rounded corners, opaque body
    assert face("QD", 60, True).tobytes() != face("QD", 60, False).tobytes()  # four colours: diamonds blue
    assert face("QS", 60, True).tobytes() == face("QS", 60, False).tobytes()


@pytest.mark.parametrize(
    ("game", "cards", "trump", "rank", "expected"),
    [
        (
            "belote",
            ["7H", "JH", "AH", "9H", "10H", "AS", "JS", "KC"],
            "H",
            None,
            ["JH", "9H", "AH", "10H", "7H", "AS", "JS", "KC"],
        ),
        ("belote", ["KS", "10S", "AS", "JS", "9S"], None, None, ["AS", "10S", "KS", "JS", "9S"]),
        ("two_hundred", ["KD", "10D", "AD", "5D", "QS", "10S"], None, None, ["10S", "QS", "AD", "10D", "KD", "5D"]),
        ("five_hundred", ["AH", "JD", "JK", "JH", "KD", "7S"], "H", None, ["JK", "JH", "JD", "AH", "7S", "KD"]),
        ("five_hundred", ["AH", "JD", "JK", "JH", "KD", "7S"], None, None, ["JK", "7S", "AH", "JH", "KD", "JD"]),
        ("five_hundred", ["13H", "JH", "QH", "10H", "11H"], "S", None, ["QH", "JH", "13H", "11H", "10H"]),
        (
            "da_bai_fen",
            ["5H", "AS", "2C", "RJ", "2S", "BJ", "3S", "KD"],
            "S",
            "2",
            ["RJ", "BJ", "2S", "2C", "AS", "3S", "5H", "KD"],
        ),
    ],  # fmt: skip
)
def test_sort_hand_as_players_do(game, cards, trump, rank, expected):
    assert sort_hand(game, cards, trump, rank) == expected


def test_suits_alternate_colours_with_trump_first():
    hand = ["2S", "2H", "2D", "2C"]
    for trump in ("S", "H", "D", "C"):
        order = sort_hand("da_bai_fen", [c.replace("2", "3") for c in hand], trump, "2")
        suits = [c[-1] for c in order]
        assert suits[0] == trump
        reds = [s in "HD" for s in suits]
        assert reds[0] != reds[1] and reds[1] != reds[2] and reds[2] != reds[3]


# --- text ------------------------------------------------------------------------------------------------------


def test_chinese_and_french_labels_have_glyphs():
    for entry in LABELS.values():
        for text in entry.values():
            plain = text.replace("{n}", "").replace("{name}", "").replace("{page}", "").replace("{pages}", "")
            assert has_glyphs(plain), text
            assert has_glyphs(plain, bold=True), text
    assert has_glyphs("王芳 李伟 张敏 刘洋 打百分 Chloé Zoë Œuvre ♠♥♦♣")
    assert not has_glyphs("\U0001f0a1")  # a playing-card emoji is outside the subset: detected, not tofu


def test_render_reads_no_system_font_and_imports_no_discord():
    import pathlib

    src = pathlib.Path(__file__).resolve().parent.parent / "render"
    for path in src.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "import discord" not in text and "/usr/share/fonts" not in text or path.name == "subset_font.py"
