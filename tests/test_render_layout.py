"""The table image is read on a phone, where Discord shows it about 400 px wide: every text it draws (whose turn, the
contract, trump and trump rank, the scores or levels, names, labels) and the corner rank of every card on the table
must come out at 12 px or more at that width.  Drawn for every game and table size from real engine states, the
sizes are taken from the drawing itself (each text and card as it is drawn), not from the layout's constants."""

from __future__ import annotations

import pytest

import render.auction
import render.fonts
import render.table
from render.cards import SCALE, index_size, split_card
from render.table import SHOWN_WIDTH, W, build_table
from tests.test_render import FORM_IDS, FORMS, NAMES, snapshots

SMALLEST_SHOWN = 12  # px at SHOWN_WIDTH


def shown(size: float) -> float:
    return size * SHOWN_WIDTH / W


@pytest.fixture
def drawn(monkeypatch):
    """Every (text, size) and (card, width) the table draws."""
    texts: list[tuple[str, int]] = []
    cards: list[tuple[str, int]] = []
    text_mask, paste_card = render.fonts.text_mask, render.table.paste_card

    def recording_mask(text, size, bold, anchor):
        texts.append((text, size))
        return text_mask(text, size, bold, anchor)

    def recording_paste(canvas, card, x, y, width, *args, **kwargs):
        cards.append((card, width))
        return paste_card(canvas, card, x, y, width, *args, **kwargs)

    monkeypatch.setattr(render.fonts, "text_mask", recording_mask)
    monkeypatch.setattr(render.table, "paste_card", recording_paste)
    return texts, cards


def assert_readable(texts, cards) -> None:
    small = sorted({(text, size) for text, size in texts if shown(size) < SMALLEST_SHOWN}, key=lambda x: x[1])
    assert not small, f"texts under {SMALLEST_SHOWN} px at {SHOWN_WIDTH} px wide: {small[:5]}"
    for card, width in cards:
        rank = split_card(card)[0]
        if rank in ("JK", "BJ", "RJ"):
            continue  # a joker's face says JOKER down its edge, in the same size class as a rank; it has no rank
        size = round(index_size(rank, width * SCALE)) / SCALE  # the face is drawn at SCALE and shrunk
        assert shown(size) >= SMALLEST_SHOWN, f"{card} drawn {width} px wide: its rank is {shown(size):.1f} px"


@pytest.mark.parametrize(("game", "options"), FORMS, ids=FORM_IDS)
def test_every_text_and_card_rank_is_readable_on_a_phone(game, options, drawn):
    texts, cards = drawn
    for i, (state, _hands, to_move) in enumerate(snapshots(game, tuple(sorted(options.items())))):
        n = state["options"]["players"]
        names = NAMES[:n]
        last = [{"seat": s, "cards": [c]} for s, c in enumerate(["10H", "QS", "AD", "KC", "9H", "8S"][:n])]
        for lang in ("en", "fr", "zh"):
            build_table(state, names, to_move=to_move, show_last_trick=i % 2 == 0, last_trick=last, clock="12:42",
                        four_colour=i % 2 == 1, lang=lang)  # fmt: skip
    assert texts and any(size >= 24 for _, size in texts)
    assert_readable(texts, cards)


def test_a_trick_of_several_cards_a_play_is_readable_rows(drawn):
    texts, cards = drawn
    state, _, _ = next(s for s in snapshots("da_bai_fen", ()) if s[0]["phase"] == "play")
    many = ["AS", "AS", "KS", "KS", "QS", "QS", "JS", "JS", "10S", "10S", "9S", "9S"]
    trick = [{"seat": 1, "cards": many}, {"seat": 2, "cards": ["3S"] * 12}, {"seat": 3, "cards": ["RJ", "BJ"]}]
    img = build_table({**state, "trick": trick}, NAMES[:4], to_move=0, lang="zh")
    assert_readable(texts, cards)
    assert sorted(c for c, _ in cards) == sorted(c for p in trick for c in p["cards"])
    layout = render.table.plan({**state, "trick": trick}, NAMES[:4], trick)
    assert layout.rows and img.height == layout.height


@pytest.mark.parametrize("n", range(2, 7))
def test_plates_and_plays_never_overlap(n):
    """Round the table: each seat's plate and each single-card play in its own place, inside the felt."""
    state = {"game": "two_hundred", "options": {"players": n}}
    layout = render.table.plan(state, [""] * n)
    boxes = []
    for x, y in render.table.seat_centres(n, "two_hundred", layout):
        boxes.append((x - render.table.PLATE_W / 2, y - render.table.PLATE_H / 2, x + render.table.PLATE_W / 2,
                      y + render.table.PLATE_H / 2))  # fmt: skip
    for seat in range(n):
        x, y = render.table.trick_spot(n, seat, "two_hundred", layout)
        boxes.append((x - render.table.CARD_W / 2, y - render.table.CARD_H / 2, x + render.table.CARD_W / 2,
                      y + render.table.CARD_H / 2))  # fmt: skip
    felt = (render.table.MARGIN, layout.felt_top, W - render.table.MARGIN, layout.felt_top + layout.felt_h)
    for i, a in enumerate(boxes):
        assert felt[0] <= a[0] and a[2] <= felt[2] and felt[1] <= a[1] and a[3] <= felt[3], (i, a, felt)
        for b in boxes[i + 1 :]:
            assert max(a[0], b[0]) >= min(a[2], b[2]) or max(a[1], b[1]) >= min(a[3], b[3]), (a, b)


def _play_state(game: str, options: tuple = ()) -> tuple[dict, int | None]:
    state, _, to_move = next(s for s in snapshots(game, options) if s[0]["phase"] == "play")
    return state, to_move


@pytest.mark.parametrize("lang", ["en", "fr", "zh"])
def test_the_auction_stays_on_the_picture_through_the_play_readable(lang, drawn):
    """Who bid what, who passed, who countered, drawn at the table's smallest size or more, however long the
    auction and the names: at most three lines, the latest calls kept."""
    texts, cards = drawn
    state, to_move = _play_state("belote")
    calls = [{"seat": i % 4, "type": "bid", "value": 80 + 10 * i, "suit": "SHDC"[i % 4]} for i in range(14)]
    calls += [{"seat": 2, "type": "counter"}, {"seat": 3, "type": "recounter"}, {"seat": 0, "type": "pass"}]
    names = ["Alexandrina Constantinople", "Bruno", "Chloé", "王芳"]
    img = build_table({**state, "auction": calls}, names, to_move=to_move, lang=lang)
    assert_readable(texts, cards)
    layout = render.table.plan({**state, "auction": calls}, names, lang=lang)
    assert 1 < len(layout.calls) <= render.auction.MAX_LINES and img.height == layout.height
    shown = [c for line in layout.calls for c in line]
    assert len(shown) < len(calls)  # the earliest give way...
    assert shown[-1].name.startswith("Alexandrin") and "…" in {text for text, _ in texts}  # ...the latest stay
    said = {text for text, _ in texts}
    assert render.auction.word("recounter", lang) in said and render.auction.word("pass", lang) in said


def test_every_game_that_shows_its_auction_draws_it_in_play_and_others_do_not(drawn):
    texts, _ = drawn
    for game, options in FORMS:
        state, to_move = _play_state(game, tuple(sorted(options.items())))
        n = state["options"]["players"]
        texts.clear()
        build_table(state, NAMES[:n], to_move=to_move)
        label = render.auction.word("auction", "en").upper()
        shows = render.table.lookup(game).auction_on_table and bool(state.get("auction"))
        assert (label in {text for text, _ in texts}) == shows, game
        for call in state.get("auction") or []:  # each call's player named in the strip
            assert not shows or any(NAMES[call["seat"]] in text for text, _ in texts)
    # Before the play and after the deal the header's contract box says all there is.
    state = {**state, "phase": "between_deals"}
    assert render.table.plan(state, NAMES[:n]).calls == ()
