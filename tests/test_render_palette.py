"""The cheap table and hand PNGs look like the drawings: the fixed palette moves a pixel by well under a level on
average; the table composed from cached parts in that palette is ``build_table``'s picture, state after state, the
cached parts never stale; the hand composed from kept strips is ``build_hand``'s picture; the PNG writer's files read
back as written, with ISA-L or with zlib."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image, ImageChops, ImageStat

from render import png, render_hand, render_table
from render.hand import build_hand
from render.palette import colours, to_palette
from render.state import trump_rank
from render.table import build_table
from rules.players import RandomPlayer
from rules.registry import new_match

GAMES = {"two_hundred": 4, "five_hundred": 3, "belote": 4, "da_bai_fen": 4}
NAMES = ["Léa", "Hugo", "王芳", "Zoë"]


def states(game: str, seed: int, count: int):
    """Successive states of a seeded random game (bidding and play), with the mover's hand and seat."""
    m = new_match(game, {})
    rng, player = random.Random(seed), RandomPlayer()
    m.start_deal(m.random_deal(rng))
    out = []
    while m.phase != "game_over" and len(out) < count:
        if m.phase == "between_deals":
            m.start_deal(m.random_deal(rng))
            continue
        out.append((m.output(), m.hand_mask_names(m.to_move), m.to_move))
        m.apply(player.choose(m, rng))
    return out


def mean_error(a: Image.Image, b: Image.Image) -> float:
    assert a.size == b.size
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


def decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def table_kw(state: dict, seat: int, four_colour: bool, lang: str) -> dict:
    last = state.get("last_trick") or []
    return dict(to_move=seat, title="T · #3", clock="30 s / turn", show_last_trick=bool(last) and not state.get(
        "trick"), last_trick=last, four_colour=four_colour, lang=lang)  # fmt: skip


def test_the_palette_holds_the_theme_flat_colours_exactly():
    from render import theme

    assert len(colours()) <= 256
    flat = [theme.PAGE, theme.PANEL, theme.FELT, theme.FELT_EDGE, theme.TEXT, theme.TEXT_DIM, theme.GOLD,
            theme.CARD_FACE, *theme.SIDE_COLOURS]  # fmt: skip
    for c in flat:
        assert to_palette(Image.new("RGB", (1, 1), c)).convert("RGB").getpixel((0, 0)) == c


@pytest.mark.parametrize("game", GAMES)
def test_fixed_palette_moves_pixels_by_under_a_level(game):
    for state, hand, seat in states(game, 3, 40)[::8]:
        for four_colour, lang in ((False, "fr"), (True, "zh")):
            table = build_table(state, NAMES[: GAMES[game]], **table_kw(state, seat, four_colour, lang))
            assert mean_error(table, to_palette(table)) < 0.5
            legal = {c for a in state["legal"] if a["type"] == "play" for c in a.get("cards", [])}
            shown = build_hand(game, hand, trump=state.get("trump"), trump_rank=trump_rank(state),
                               legal=legal or None, four_colour=four_colour, title="Ann", lang=lang)  # fmt: skip
            assert mean_error(shown, to_palette(shown)) < 1.0
            assert mean_error(shown, decoded(render_hand(game, hand, trump=state.get("trump"),
                              trump_rank=trump_rank(state), legal=legal or None, four_colour=four_colour,
                              title="Ann", lang=lang))) < 1.0  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_the_table_from_cached_parts_is_the_drawing_state_after_state(game):
    """Two tables' states interleaved, as a render worker gets them: every picture's top and elements come from
    the caches when they were drawn before, and the picture is still the one build_table draws (but where one
    element's soft shadow falls on another: a few pixels, blended with the felt)."""
    runs = [states(game, seed, 30) for seed in (5, 6)]
    names = NAMES[: GAMES[game]]
    same = 0
    for i in range(30):
        for run in runs:
            if i >= len(run):
                continue
            state, _, seat = run[i]
            kw = table_kw(state, seat, i % 3 == 0, ("en", "fr", "zh")[i % 3])
            got = decoded(render_table(state, names, **kw))
            want = to_palette(build_table(state, names, **kw))
            assert got.mode == "P" and got.size == want.size
            error = mean_error(got, want)
            assert error < 0.1, (i, state["phase"])
            same += error == 0
    assert same > 20  # most pictures are identical, pixel for pixel


def test_a_changed_score_is_drawn_not_taken_from_the_cache():
    state, _, seat = states("belote", 5, 1)[0]
    names = NAMES
    first = decoded(render_table(state, names, **table_kw(state, seat, False, "en")))
    moved = {**state, "scores": [state["scores"][0] + 120, state["scores"][1]]}
    second = decoded(render_table(moved, names, **table_kw(moved, seat, False, "en")))
    assert mean_error(first, second) > 0
    assert mean_error(second, to_palette(build_table(moved, names, **table_kw(moved, seat, False, "en")))) == 0


@pytest.mark.parametrize("game", GAMES)
def test_a_trick_taken_redraws_the_scores_and_keeps_the_rest_of_the_top(game):
    """The top is kept in bands (title and contract, scores, auction): a trick taken changes the scores' band only
    (when the scores show tricks: Five Hundred's show them on the plates, so none), and the picture is still
    build_table's, pixel for pixel, before and after."""
    from render import table_png
    from render.table import scores_shown

    played = [s for s in states(game, 7, 60) if s[0]["phase"] == "play" and s[0].get("tricks_won")]
    state, _, seat = played[0]
    names = NAMES[: GAMES[game]]
    taken = list(state["tricks_won"])
    taken[seat] += 1
    later = {**state, "tricks_won": taken}
    table_png._parts.items.clear()  # the chips another test drew for these states
    table_png._parts.total = 0
    for shown in (state, later):
        kw = table_kw(shown, seat, False, "fr")
        drawn, chips = table_png._bands.misses, table_png._parts.misses
        got = decoded(render_table(shown, names, **kw))
        assert mean_error(got, to_palette(build_table(shown, names, **kw))) == 0
    before, after = scores_shown(state, names, "fr"), scores_shown(later, names, "fr")
    redrawn = before != after
    assert redrawn == (game != "five_hundred")
    assert table_png._bands.misses == drawn + redrawn  # the scores' band only was drawn for the later state
    # and in it only the chip of the side that took the trick
    assert table_png._parts.misses == chips + sum(a != b for a, b in zip(before[2], after[2], strict=True)) <= chips + 1


@pytest.mark.parametrize("game", GAMES)
def test_a_bid_redraws_the_bands_that_show_it_and_keeps_the_scores(game):
    """The scores' band is kept by what it shows, the auction strip by its calls: a bid redraws the title's band
    (the contract box shows the bid) and the auction strip, not the scores; each picture is still build_table's."""
    from render import table as tb
    from render import table_png

    seen = states(game, 3, 40)
    if not any(s[0].get("auction") for s in seen):
        pytest.skip("no auction in this game (Da Bai Fen's bids are shown cards)")
    names = NAMES[: GAMES[game]]
    for (state, _, seat), (after, _, seat_after) in zip(seen, seen[1:], strict=False):
        calls = len(state.get("auction") or [])
        if not calls or len(after.get("auction") or []) != calls + 1 or after["scores"] != state["scores"]:
            continue
        for shown, to_move in ((state, seat), (after, seat_after)):
            kw = table_kw(shown, to_move, False, "en")
            drawn, parts = table_png._bands.misses, table_png._parts.misses
            got = decoded(render_table(shown, names, **kw))
            assert mean_error(got, to_palette(build_table(shown, names, **kw))) == 0
        assert table_png._bands.misses == drawn + 2  # the title's band and the auction strip: not the scores
        # and in the title's band, the parts that show the bid (the contract box; the phase, when it changed)
        kw = {"title": "T · #3", "clock": "30 s / turn", "lang": "en"}
        changed = [tb.title_shown(state, **kw) != tb.title_shown(after, **kw),
                   tb.contract_shown(state, names, "en") != tb.contract_shown(after, names, "en"),
                   tb.trump_shown(state, "en") != tb.trump_shown(after, "en")]  # fmt: skip
        assert changed[1] and table_png._parts.misses <= parts + sum(changed) < parts + 3
        return
    pytest.fail("no two pictures a bid apart")


@pytest.mark.parametrize("with_isal", [True, False])
def test_png_writer_round_trips(monkeypatch, with_isal):
    if not with_isal:
        monkeypatch.setattr(png, "isal_zlib", None)
    rng = random.Random(1)
    img = Image.new("RGB", (37, 23))
    img.putdata([(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(37 * 23)])
    mapped = to_palette(img)
    got = decoded(
        png.encode_fixed(37, [png.framed(mapped.crop((0, 0, 37, 10))), png.framed(mapped.crop((0, 10, 37, 23)))])
    )
    assert got.size == (37, 23) and got.mode == "P"
    assert mean_error(got, mapped) == 0
    adaptive = png.palette_of(img)
    assert mean_error(decoded(png.encode_palette(adaptive)), adaptive) == 0
    assert decoded(png.to_png(img, palette=False)).mode == "RGB"


@pytest.mark.parametrize("game", GAMES)
def test_a_hand_composed_from_kept_strips_is_the_hand_drawn_whole(game):
    """render_hand pastes a strip per card, each drawn by the card and its two neighbours and kept: the hand as it
    is played out (each picture mostly strips of the one before), with and without legal cards, in each language and
    colour scheme, with a title that fits and one that must be shortened, is build_hand's picture, pixel for pixel."""
    from render import hand as hand_module

    rng = random.Random(11)
    titles = [None, "Léa · table #3 · deal 2", "王芳 · a title far too long for a hand of a few cards to show whole"]
    for state, hand, _ in states(game, 21, 40)[::13]:
        for four_colour, lang in ((False, "en"), (True, "fr"), (False, "zh")):
            cards, title, plain_before = list(hand), rng.choice(titles), False
            while cards:
                legal = None if rng.random() < 0.5 else set(rng.sample(cards, rng.randint(0, len(cards))))
                kw = dict(trump=state.get("trump"), trump_rank=trump_rank(state), legal=legal, four_colour=four_colour,
                          title=title, lang=lang)  # fmt: skip
                hand_module._hand_png.cache_clear()  # composed, not the PNG kept whole
                kept = hand_module._strips.hits
                got = decoded(render_hand(game, cards, **kw))
                assert mean_error(got, to_palette(build_hand(game, cards, **kw))) == 0, (lang, len(cards), kw)
                if legal is None and plain_before and len(cards) > 2:
                    assert hand_module._strips.hits > kept  # the strips the last picture of this hand drew
                plain_before = legal is None
                cards.pop(rng.randrange(len(cards)))


def test_a_long_hand_wraps_onto_two_rows_composed_alike():
    """Eighteen cards (a Da Bai Fen hand with the kitty) go on two rows of nine: each row's strips, the same
    picture as drawn whole."""
    spades, hearts = ["AS", "KS", "10S", "2S"], ["AH", "QH", "5H", "3H"]
    cards = [*spades, *hearts, "BJ", "RJ", "KD", "JD", "9D", "4D", "AC", "8C", "7C", "2C"]
    for legal in (None, {"AS", "BJ", "2C"}):
        kw = dict(trump="S", trump_rank="2", legal=legal, title="Zoë", lang="zh")
        got = decoded(render_hand("da_bai_fen", cards, **kw))
        assert mean_error(got, to_palette(build_hand("da_bai_fen", cards, **kw))) == 0


def test_a_shortened_text_is_the_longest_start_that_fits():
    from render.fonts import fit_text, text_width

    rng = random.Random(5)
    for _ in range(300):
        text = "".join(rng.choice("abcWMi 王芳·#0123456789") for _ in range(rng.randint(0, 50)))
        width, size = rng.randint(30, 600), rng.choice([24, 26, 28])
        shown = fit_text(text, width, size, True)
        if text_width(text, size, True) <= width:
            assert shown == text
            continue
        assert shown.endswith("…") and text.startswith(shown[:-1])
        kept = len(shown) - 1
        assert kept == 0 or text_width(shown, size, True) <= width
        assert kept == len(text) or text_width(text[: kept + 1] + "…", size, True) > width
