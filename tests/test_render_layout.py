"""The table image is read on a phone, where Discord shows it about 400 px wide: every text it draws (whose turn, the
contract, trump and trump rank, the scores or levels, names, labels) and the corner rank of every card on the table
must come out at 12 px or more at that width.  Drawn for every game and table size from real engine states, the
sizes are taken from the drawing itself (each text and card as it is drawn), not from the layout's constants."""

from __future__ import annotations

import pytest

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
