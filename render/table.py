"""The table, drawn for a phone first: Discord shows it about 400 px wide there, half the canvas's width, so every
text a player needs (whose turn, the contract, trump and trump rank, the scores or levels, the cards of the trick)
is drawn at ``MIN_SIZE`` or more.  A header band holds the contract, trump and scores; below it the felt, with the
seats' plates round it in the game's direction of play and each play in front of its player (a trick of several
cards a play, as in Da Bai Fen, as one row per player).  The last trick shows in the middle while no trick is in
progress; an open misère hand and a last trick beside a trick in progress go in a band under the felt."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from PIL import Image, ImageDraw

from render import auction, theme
from render import state as st
from render.cards import card_height, paste_card
from render.fonts import draw_text, fit_text, text_width
from render.i18n import game_name, t
from render.pips import star_points
from render.text import Segment, draw_segments, seg_width, suit_seg
from render.theme import Colour
from rules.registry import lookup

# Places one element of the felt (a plate, a row of cards, a label): ``put(key, box, paint)``, where ``key`` names
# all the element shows, ``box`` bounds it with its shadow, and ``paint(img, draw, dx, dy)`` draws it shifted by
# (dx, dy).  build_table draws in place; table_png keeps each element drawn in the fixed palette.
Paint = Callable[[Image.Image, ImageDraw.ImageDraw, int, int], None]


class Put(Protocol):
    """Places one element of the felt: ``paint`` draws it within ``box``, over what ``ground`` (a flat colour)
    covers there; ``key`` is everything it shows, so that a picture composed from kept elements can reuse it."""

    def __call__(self, key: tuple, box: tuple[float, float, float, float], paint: Paint,
                 ground: Colour = ...) -> None: ...  # fmt: skip


W = 800
SHOWN_WIDTH = 400  # how wide a phone shows the image
MIN_SIZE = 24  # every text's font size on the canvas: 12 px at SHOWN_WIDTH
MARGIN = 16

# Font sizes by element: tests/test_render_layout.py holds every text drawn to MIN_SIZE.
TITLE, LABEL, VALUE, SCORE, NAME, DETAIL = 26, 24, 34, 34, 28, 24

TOP_ROW = 52  # the title, the phase, the clock
FACTS_H = 104  # the contract and trump boxes
CARD_W = 92  # a trick's cards: their corner rank is drawn at MIN_SIZE or more
CARD_H = card_height(CARD_W)
CARD_STEP = 38  # overlapping cards of one play: each card's corner index stays in view
PLATE_W, PLATE_H = 224, 84
ROW_GAP = 14  # between a multi-card trick's rows
SPLIT = MARGIN + (W - 2 * MARGIN - 10) * 0.56  # the contract box's right edge; the trump box's is the page's
CONTRACT_BOX = (MARGIN, TOP_ROW, SPLIT, TOP_ROW + FACTS_H)
TRUMP_BOX = (SPLIT + 10, TOP_ROW, W - MARGIN, TOP_ROW + FACTS_H)
SCORES_TOP = TOP_ROW + FACTS_H + 10  # the header's scores start here (an even row: see table_png)


@dataclass(frozen=True)
class Geometry:
    """Where plates and single-card plays go for a number of seats, from the middle of the table: seats on an
    ellipse of radii (plate_rx, plate_ry), their plays on one of (trick_rx, trick_ry); side seats pushed out to the
    edges.  The felt spans what they cover, so no empty felt above three seats."""

    plate_rx: float
    plate_ry: float
    trick_rx: float
    trick_ry: float
    push: bool  # push side seats towards the edges (the middle stays free for the trick)

    @lru_cache(maxsize=64)  # noqa: B019 - a few geometries, kept for the program's life anyway
    def extent(self, n: int) -> tuple[float, float]:
        """The felt's top and bottom as offsets from the middle of the table (asked a dozen times a picture)."""
        plates = [dy for _, dy in _round_table(n, "", self.plate_rx, self.plate_ry, self.push)]
        cards = [dy for _, dy in _round_table(n, "", self.trick_rx, self.trick_ry, False)]
        top = min(min(plates) - PLATE_H / 2, min(cards) - CARD_H / 2) - MARGIN
        bottom = max(max(plates) + PLATE_H / 2, max(cards) + CARD_H / 2) + MARGIN
        return top, bottom


GEOMETRY = {
    2: Geometry(268, 200, 100, 80, False),
    3: Geometry(280, 214, 116, 100, True),
    4: Geometry(268, 200, 100, 80, False),
    5: Geometry(272, 254, 106, 140, True),
    6: Geometry(280, 256, 116, 140, True),
}


def geometry(n: int) -> Geometry:
    return GEOMETRY.get(n, GEOMETRY[6])


def _direction(game: str) -> int:
    """1 when play goes clockwise round the table (seat 0 at the bottom, seat 1 on its left), else -1."""
    found = lookup(game)
    return 1 if found is None or found.clockwise else -1


@lru_cache(maxsize=256)
def _round_table(n: int, game: str, rx: float, ry: float, push: bool) -> tuple[tuple[float, float], ...]:
    """Offsets from the centre for each seat on an ellipse, seat 0 at the bottom, then in the game's direction."""
    direction = _direction(game)
    out = []
    for s in range(n):
        a = math.radians(90 + direction * 360 * s / n)
        dx, dy = math.cos(a), math.sin(a)
        if push:
            dx = math.copysign(abs(dx) ** 0.3, dx)
        out.append((rx * dx, ry * dy))
    return tuple(out)


@dataclass(frozen=True)
class Layout:
    """The canvas's bands for one image: header, felt (its top and height), the band under the felt."""

    n: int
    header_h: int
    felt_top: int
    felt_h: int
    rows: bool  # a trick of several cards a play: one row per player instead of plays round the table
    height: int
    calls: tuple[tuple[auction.Call, ...], ...] = ()  # the auction strip's lines, between the header and the felt
    call_rows: int = 0  # the strip's height in lines: those of ``calls``, or more kept free (a replay's)

    @property
    def centre(self) -> tuple[float, float]:
        """The middle of the table (of the ellipses the seats and plays are on)."""
        return W / 2, self.felt_top - geometry(self.n).extent(self.n)[0]


def seat_centres(n: int, game: str, layout: Layout | None = None) -> list[tuple[float, float]]:
    """The centres of the seats' plates (round the table, or down the left in a multi-card trick's rows)."""
    layout = layout or plan({"game": game, "options": {"players": n}}, [""] * n, with_band=False)
    if layout.rows:
        x = MARGIN + 8 + PLATE_W / 2
        return [(x, layout.felt_top + MARGIN + _row_y(layout, s) + CARD_H / 2) for s in range(n)]
    g = geometry(n)
    cx, cy = layout.centre
    return [(cx + dx, cy + dy) for dx, dy in _round_table(n, game, g.plate_rx, g.plate_ry, g.push)]


def trick_spot(n: int, seat: int, game: str, layout: Layout | None = None) -> tuple[float, float]:
    """The centre of a seat's single-card play: between the middle of the table and the seat."""
    layout = layout or plan({"game": game, "options": {"players": n}}, [""] * n, with_band=False)
    g = geometry(n)
    cx, cy = layout.centre
    dx, dy = _round_table(n, game, g.trick_rx, g.trick_ry, False)[seat]
    return cx + dx, cy + dy


def _row_y(layout: Layout, seat: int) -> float:
    return seat * (CARD_H + ROW_GAP)


def _scores_rows(sides: int) -> int:
    return 1 if sides <= 3 else 2


def _scores_h(state: dict, names: list[str]) -> int:
    sides = len(state.get("scores") or [])
    return LABEL + 18 + _scores_rows(sides) * (_score_chip_h(state, names) + 10)


def _score_chip_h(state: dict, names: list[str]) -> int:
    detail = st.per_team(state, names) and (st.points_by_side(state, names) is not None or st.side_tricks(
        state, names) is not None)  # fmt: skip
    return 92 if detail else 60


def _multi_card(plays: list[dict]) -> bool:
    return any(len(p.get("cards") or []) > 1 for p in plays)


def _open_hand(state: dict) -> dict | None:
    shown = state.get("open_hand")
    return shown if shown and state.get("phase") == "play" and shown.get("cards") else None


BAND_ROW_H = LABEL + 16 + CARD_H + DETAIL + 18


AUCTION_TEXT_W = W - 2 * MARGIN - 28  # inside the auction strip's box


def plan(state: dict, names: list[str], on_felt: Sequence[dict] = (), *, last_in_band: bool = False,
         with_band: bool = True, lang: str = "en", auction_rows: int = 0) -> Layout:  # fmt: skip
    """The bands for ``state`` with the plays ``on_felt`` (the trick in progress, or the last trick); the auction
    strip at least ``auction_rows`` lines high."""
    n = st.players(state, names)
    header_h = SCORES_TOP + _scores_h(state, names)
    calls = auction.lines(state, names, lang, AUCTION_TEXT_W)
    rows = _multi_card(list(on_felt))
    top, bottom = geometry(n).extent(n)
    felt_h = round(2 * MARGIN + n * (CARD_H + ROW_GAP) - ROW_GAP if rows else bottom - top)
    call_rows = max(len(calls), auction_rows)
    felt_top = header_h + auction.height(call_rows) + 8
    height = felt_top + felt_h + MARGIN
    if with_band:
        height += BAND_ROW_H * ((_open_hand(state) is not None) + last_in_band)
    return Layout(n, header_h, felt_top, felt_h, rows, height, tuple(tuple(line) for line in calls), call_rows)


def auction_rows(state: dict, names: list[str], lang: str = "en") -> int:
    """How many lines the auction strip takes for ``state`` (a replay keeps the most it will need)."""
    return len(auction.lines(state, names, lang, AUCTION_TEXT_W))


# --- drawing ------------------------------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _background(felt_top: int, felt_h: int, height: int) -> Image.Image:
    """The page and the empty table, drawn once per size (rounded shapes are slow to draw), copied for each image."""
    img = Image.new("RGB", (W, height), theme.PAGE)
    draw = ImageDraw.Draw(img)
    box = (MARGIN - 8, felt_top, W - MARGIN + 8, felt_top + felt_h)
    r = min(felt_h * 0.2, 110)
    draw.rounded_rectangle(box, radius=r, fill=theme.FELT_EDGE)
    draw.rounded_rectangle((box[0] + 8, box[1] + 8, box[2] - 8, box[3] - 8), radius=r - 8, fill=theme.FELT)
    return img


@lru_cache(maxsize=64)
def _plate_image(fill: tuple, edge: tuple) -> Image.Image:
    img = Image.new("RGBA", (PLATE_W + 5, PLATE_H + 6), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((3, 4, PLATE_W + 3, PLATE_H + 4), radius=14, fill=(15, 50, 33))
    d.rounded_rectangle((0, 0, PLATE_W, PLATE_H), radius=14, fill=fill, outline=edge, width=3)
    d.rounded_rectangle((3, 3, 13, PLATE_H - 3), radius=5, fill=edge)
    return img


def _cards_row(
    img: Image.Image, cards: list[str], x: float, y: float, four_colour: bool, step: float = CARD_STEP, lang: str = "en"
):
    """Cards overlapping left to right from (x, y), top-left; each one's corner index stays in view."""
    for i, c in enumerate(cards):
        paste_card(img, c, round(x + i * step), round(y), CARD_W, four_colour, lang=lang)


def _row_width(count: int, step: float = CARD_STEP) -> float:
    return CARD_W + step * max(count - 1, 0)


def _plate(img, draw, seat, xy, state, names, *, to_move, lang, tricks) -> None:
    x, y = xy
    box = (x - PLATE_W / 2, y - PLATE_H / 2, x + PLATE_W / 2, y + PLATE_H / 2)
    turn = to_move == seat
    side = st.side_of(seat, state, names)
    plate = _plate_image(theme.GOLD if turn else theme.PANEL, theme.side_colour(side))
    img.paste(plate, (round(box[0]), round(box[1])), plate)
    ink = (25, 25, 30) if turn else theme.TEXT
    dealer = state.get("dealer") == seat
    draw_text(draw, (box[0] + 22, y - 17), st.seat_name(names, seat), NAME, ink, bold=True, anchor="lm",
              max_width=PLATE_W - 30 - (28 if dealer else 0))  # fmt: skip
    contract = state.get("contract") or {}
    if contract.get("seat") == seat:  # the contractor / leader: a gold star on the plate's corner
        draw.polygon(star_points(box[0] + 8, box[1] + 6, 16, 7), fill=theme.GOLD, outline=(90, 70, 10))
    if dealer:
        r = 17
        cx, cy = box[2] - 22, box[1] + 22
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.DEALER, outline=(60, 60, 60), width=2)
        draw_text(draw, (cx, cy + 1), "庄" if lang == "zh" else "D", LABEL, (20, 20, 20), bold=True, anchor="mm")


def plate_line(state: dict, seat: int, to_move: int | None, tricks: int | None, lang: str) -> str:
    """The plate's second line: "to play" on the player to move, the tricks the seat has taken."""
    parts = []
    if to_move == seat:
        phase = state.get("phase")
        parts.append(t("to_play" if phase == "play" else "to_draw" if phase == "deal" else "to_act", lang))
    if tricks is not None:
        parts.append(st.tricks_text(tricks, lang))
    return " · ".join(parts)


def _put_plate(put: Put, seat, xy, state, names, *, to_move, lang, tricks) -> None:
    """A seat's plate, and its second line as an element of its own over it: the line changes with each trick
    the seat takes, the plate with the turn (its colour) and the deal; lines are the same at every table.  Each
    key is everything its painting reads."""
    turn = to_move == seat
    contract = state.get("contract") or {}
    key = ("plate", turn, st.side_of(seat, state, names), st.seat_name(names, seat), state.get("dealer") == seat,
           contract.get("seat") == seat, lang)  # fmt: skip

    def paint(img, draw, dx, dy) -> None:
        _plate(img, draw, seat, (xy[0] + dx, xy[1] + dy), state, names, to_move=to_move, lang=lang, tricks=tricks)

    x, y = xy
    put(key, (x - PLATE_W / 2 - 14, y - PLATE_H / 2 - 14, x + PLATE_W / 2 + 14, y + PLATE_H / 2 + 14), paint)
    line = plate_line(state, seat, to_move, tricks, lang)
    if not line:
        return
    left = x - PLATE_W / 2 + 22
    ink = (50, 40, 10) if turn else theme.TEXT_DIM

    def paint_line(img, draw, dx, dy) -> None:
        draw_text(draw, (left + dx, y + 20 + dy), line, DETAIL, ink, anchor="lm", max_width=PLATE_W - 30)

    # Its box lies in the plate's flat fill (right of the side bar, inside the outline): the line's ground.
    put(("plate line", line, turn), (left - 6, y + 2, x + PLATE_W / 2 - 4, y + PLATE_H / 2 - 4), paint_line,
        theme.GOLD if turn else theme.PANEL)  # fmt: skip


def _box(draw, x0: float, y: float, x1: float, h: float, label: str, note: str = "") -> None:
    """A header box with its label (and a note beside it, in full colour: the trump rank, the contractor)."""
    draw.rounded_rectangle((x0, y, x1, y + h), radius=12, fill=theme.PANEL)
    head = label.upper()
    draw_text(draw, (x0 + 14, y + 22), head, LABEL, theme.TEXT_DIM, bold=True, anchor="lm")
    if note:
        x = x0 + 14 + text_width(head, LABEL, True) + 12
        draw_text(draw, (x, y + 22), note, LABEL, theme.TEXT, bold=True, anchor="lm", max_width=x1 - x - 12)


def contract_shown(state: dict, names: list[str], lang: str) -> tuple:
    """What the contract box shows for ``state``: its label, the note beside it, and its value (a text, or
    segments: the third item says which)."""
    contract = state.get("contract")
    if st.leader_not_contract(state):
        seat = (contract or {}).get("seat")
        label = t("leader", lang)
        exposed = state.get("exposed")
        if exposed and state.get("phase") in ("deal", "exchange"):  # the drawing: who showed which card
            card = exposed.get("card", "")
            shown = [card[:-1], suit_seg(card[-1])] if card[-1:] in ("S", "H", "D", "C") else [card]
            return label, "", "segments", [f"{st.seat_name(names, exposed.get('seat', -1))} {t('exposed', lang)} ",
                                           *shown]  # fmt: skip
        return label, "", "text", st.seat_name(names, seat) if isinstance(seat, int) else "—"
    bid = contract or st.with_counters(state.get("high_bid"), state) or st.last_bid(state)
    note = ""
    if bid and isinstance(bid.get("seat"), int):
        who = st.seat_name(names, bid["seat"])
        note = who if contract else f"{who} · {t('phase_bidding', lang).lower()}"
        partner = (contract or {}).get("partner")
        if isinstance(partner, int) and partner != bid["seat"]:  # a called partner, named at once
            note = f"{who} + {st.seat_name(names, partner)}"
    segs = st.contract_segments(bid, lang)
    if not segs:
        segs = [t("no_contract", lang) if state.get("phase") not in ("bidding",) else t("phase_bidding", lang)]
    return t("contract", lang), note, "segments", segs


def _contract_box(img, draw, x0, y, x1, state, names, lang, four_colour) -> None:
    _draw_contract_box(img, draw, (x0, y, x1), contract_shown(state, names, lang), four_colour)


def _draw_contract_box(img, draw, at: tuple[float, float, float], shown: tuple, four_colour: bool) -> None:
    x0, y, x1 = at
    label, note, kind, value = shown
    _box(draw, x0, y, x1, FACTS_H, label, note)
    if kind == "text":
        draw_text(draw, (x0 + 14, y + 70), value, VALUE, theme.TEXT, bold=True, anchor="lm", max_width=x1 - x0 - 28)
    else:
        draw_segments(img, (x0 + 14, y + 70), value, VALUE, theme.TEXT, bold=True, four_colour=four_colour,
                      max_width=x1 - x0 - 28)  # fmt: skip


def trump_shown(state: dict, lang: str) -> tuple:
    """What the trump box shows for ``state``: its label, the trump rank beside it, the trump."""
    rank = st.trump_rank(state)
    return t("trump", lang), f"{t('trump_rank', lang)} {rank}" if rank else "", st.trump_segments(state, lang)


def _trump_box(img, draw, x0, y, x1, state, lang, four_colour) -> None:
    _draw_trump_box(img, draw, (x0, y, x1), trump_shown(state, lang), four_colour)


def _draw_trump_box(img, draw, at: tuple[float, float, float], shown: tuple, four_colour: bool) -> None:
    x0, y, x1 = at
    label, note, segs = shown
    _box(draw, x0, y, x1, FACTS_H, label, note)
    draw_segments(img, (x0 + 14, y + 70), segs, VALUE, theme.TEXT, bold=True, four_colour=four_colour,
                  max_width=x1 - x0 - 28)  # fmt: skip


def scores_shown(state: dict, names: list[str], lang: str) -> tuple:
    """Everything the scores' band shows, worked out from ``state``: equal for two states, the band is the same
    picture (``render/table_png.py`` keeps it by this, not by the whole state, which changes with each bid)."""
    scores = state.get("scores") or []
    label = t("levels", lang) if st.scores_are_levels(state) else t("scores", lang)
    target = (state.get("options") or {}).get("target")
    if target is not None:
        label = f"{label} · {t('target', lang)} {target}"
    team = st.per_team(state, names)
    side_points = st.points_by_side(state, names) if team else None
    side_tricks = st.side_tricks(state, names) if team else None
    chips = []
    for side in range(len(scores)):
        parts = []
        if side_tricks is not None:
            parts.append(st.tricks_text(side_tricks[side], lang))
        if side_points is not None and side_points[side] is not None:  # None: face down in the won tricks
            parts.append(f"{side_points[side]} {t('points', lang)}")
        chips.append((st.score_text(state, scores[side]), st.side_name(side, state, names), " · ".join(parts)))
    return label.upper(), _score_chip_h(state, names), tuple(chips)


def _scores(img, draw, y, state, names, lang) -> None:
    _draw_scores(img, draw, y, scores_shown(state, names, lang))


def _draw_scores(img, draw, y, shown: tuple) -> None:
    label, chip_h, chips = shown
    _scores_label(draw, y, label)
    for side, (box, chip) in enumerate(zip(score_chip_boxes(y, chip_h, len(chips)), chips, strict=True)):
        _score_chip(draw, box, side, *chip)


def _scores_label(draw, y, label: str) -> None:
    draw_text(draw, (MARGIN + 4, y + LABEL / 2 + 4), label, LABEL, theme.TEXT_DIM, bold=True, anchor="lm")


def score_chip_boxes(y: float, chip_h: int, sides: int) -> list[tuple[float, float, float, float]]:
    """Where each side's chip lies in the scores' band that starts at ``y``."""
    per_row = math.ceil(sides / _scores_rows(sides)) if sides else 1
    gap = 10
    chip_w = (W - 2 * MARGIN - gap * (per_row - 1)) / per_row
    boxes = []
    for side in range(sides):
        x0 = MARGIN + (side % per_row) * (chip_w + gap)
        y0 = y + LABEL + 18 + (side // per_row) * (chip_h + gap)
        boxes.append((x0, y0, x0 + chip_w, y0 + chip_h))
    return boxes


def _score_chip(draw, box, side: int, value: str, side_name: str, detail: str) -> None:
    """One side's chip: its colour, name and score, and the tricks and points it took (``detail``)."""
    x0, y0, x1, _ = box
    chip_w = x1 - x0
    draw.rounded_rectangle(box, radius=12, fill=theme.PANEL)
    draw.rounded_rectangle((x0 + 10, y0 + 14, x0 + 18, y0 + 46), radius=3, fill=theme.side_colour(side))
    value_w = text_width(value, SCORE, True)
    draw_text(draw, (x0 + chip_w - 12, y0 + 30), value, SCORE, theme.TEXT, bold=True, anchor="rm")
    name = fit_text(side_name, chip_w - 48 - value_w, NAME)
    draw_text(draw, (x0 + 28, y0 + 30), name, NAME, theme.TEXT, anchor="lm")
    if detail:
        draw_text(draw, (x0 + 28, y0 + 68), detail, DETAIL, theme.TEXT_DIM, anchor="lm", max_width=chip_w - 40)


def _header(img, draw, state, names, *, title, clock, lang, four_colour) -> None:
    _facts(img, draw, state, names, title=title, clock=clock, lang=lang, four_colour=four_colour)
    _scores(img, draw, SCORES_TOP, state, names, lang)


def _facts(img, draw, state, names, *, title, clock, lang, four_colour) -> None:
    """The header's rows above the scores (``SCORES_TOP``): the title, phase and clock, the contract and trump."""
    _draw_title_row(draw, title_shown(state, title=title, clock=clock, lang=lang))
    _contract_box(img, draw, CONTRACT_BOX[0], TOP_ROW, CONTRACT_BOX[2], state, names, lang, four_colour)
    _trump_box(img, draw, TRUMP_BOX[0], TOP_ROW, TRUMP_BOX[2], state, lang, four_colour)


def title_shown(state: dict, *, title: str, clock: str | None, lang: str) -> tuple[str, str, str | None]:
    """What the top row shows: the heading, the phase, the clock."""
    game = state.get("game", "")
    heading = title or f"{game_name(game, lang)} · {t('deal_summary', lang, n=int(state.get('deal', 0)) + 1)}"
    phase = state.get("phase")
    return heading, t(f"phase_{phase}", lang) if phase else "", clock


def _draw_title_row(draw, shown: tuple[str, str, str | None]) -> None:
    heading, phase_text, clock = shown
    mid = TOP_ROW / 2 + 4
    right: float = W - MARGIN - 4
    if clock:
        draw_text(draw, (right, mid), clock, VALUE, theme.GOLD, bold=True, anchor="rm")
        right -= text_width(clock, VALUE, True) + 10
        cx = right - 14
        draw.ellipse((cx - 14, mid - 14, cx + 14, mid + 14), outline=theme.GOLD, width=3)
        draw.line((cx, mid, cx, mid - 9), fill=theme.GOLD, width=3)
        draw.line((cx, mid, cx + 7, mid + 3), fill=theme.GOLD, width=3)
        right -= 40
    if phase_text:
        draw_text(draw, (right, mid), phase_text, LABEL, theme.TEXT_DIM, anchor="rm")
        right -= text_width(phase_text, LABEL) + 18
    draw_text(draw, (MARGIN + 4, mid), heading, TITLE, theme.TEXT, bold=True, anchor="lm", max_width=right - MARGIN)


def _tag(img, draw, xy, segs, *, four_colour, edge=theme.GOLD) -> None:
    """A small label on the felt: the Joker's named suit, the last trick's title."""
    x, y = xy
    half = seg_width(segs, LABEL, True) / 2 + 12
    draw.rounded_rectangle((x - half, y - 18, x + half, y + 18), radius=10, fill=theme.PANEL, outline=edge, width=2)
    draw_segments(img, (x, y), segs, LABEL, theme.TEXT, bold=True, anchor="mm", four_colour=four_colour)


def _put_tag(put: Put, xy: tuple[float, float], segs: list[Segment], *, four_colour: bool,
             edge: Colour = theme.GOLD) -> None:  # fmt: skip
    x, y = xy
    half = seg_width(segs, LABEL, True) / 2 + 12

    def paint(img, draw, dx, dy) -> None:
        _tag(img, draw, (x + dx, y + dy), segs, four_colour=four_colour, edge=edge)

    put(("tag", repr(segs), edge, four_colour), (x - half - 4, y - 22, x + half + 4, y + 22), paint)


def _trick_round(put: Put, layout, plays, game, *, winner: int | None = None, four_colour, lang="en") -> None:
    """Single-card plays, each in front of its player; a complete trick's ``winner`` edged in gold."""
    rows = []
    for play in plays:
        seat = play.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < layout.n:
            continue
        x, y = trick_spot(layout.n, seat, game, layout)
        cards = play.get("cards") or []
        rows.append(CardRow(tuple(cards), x - _row_width(len(cards)) / 2, y - CARD_H / 2, CARD_STEP, seat == winner))
    _put_plays(put, rows, four_colour, lang)


@dataclass(frozen=True)
class CardRow:
    """A row of overlapping cards from (left, top), on a gold edge when it won the trick."""

    cards: tuple[str, ...]
    left: float
    top: float
    step: float
    gold: bool

    @property
    def right(self) -> float:
        return self.left + _row_width(len(self.cards), self.step)


def _put_plays(put: Put, rows: list[CardRow], four_colour: bool, lang: str) -> None:
    """The trick's rows of cards, as one element: one play's shadow falls on another's cards."""
    rows = [row for row in rows if row.cards]
    if not rows:
        return

    def paint(img, draw, dx, dy) -> None:
        for row in rows:
            if row.gold:
                draw.rounded_rectangle((row.left + dx - 6, row.top + dy - 6, row.right + dx + 6,
                                        row.top + dy + CARD_H + 6), radius=12, fill=theme.GOLD)  # fmt: skip
            _cards_row(img, list(row.cards), row.left + dx, row.top + dy, four_colour, row.step, lang)

    box = (min(r.left for r in rows) - 14, min(r.top for r in rows) - 14, max(r.right for r in rows) + 14,
           max(r.top for r in rows) + CARD_H + 16)  # fmt: skip
    key = ("plays", tuple((r.cards, r.left - box[0], r.top - box[1], r.step, r.gold) for r in rows), four_colour, lang)
    put(key, box, paint)


def _winner(state: dict, plays: list[dict]) -> int | None:
    """The seat that won a completed trick: marked on its play, or the engine's ``last_trick_winner``."""
    marked = [p.get("seat") for p in plays if p.get("winner")]
    return marked[0] if marked else state.get("last_trick_winner")


def _trick_rows(put: Put, layout, state, names, on_felt, winner, to_move, lang, four_colour) -> None:
    """A trick of several cards a play: each seat's plate down the left with its cards beside it (a completed
    trick's ``winner`` edged in gold)."""
    plays = {p.get("seat"): p.get("cards") or [] for p in on_felt}
    tricks = st.tricks_by_seat(state, names)
    x0 = MARGIN + 8 + PLATE_W + 14
    room = W - MARGIN - 12 - x0
    rows = []
    for seat, xy in enumerate(seat_centres(layout.n, state.get("game", ""), layout)):
        _put_plate(put, seat, xy, state, names, to_move=to_move, lang=lang, tricks=tricks[seat] if tricks else None)
        cards = plays.get(seat) or []
        step = min(CARD_STEP, (room - CARD_W) / max(len(cards) - 1, 1))
        rows.append(CardRow(tuple(cards), x0, xy[1] - CARD_H / 2, step, seat == winner))
    _put_plays(put, rows, four_colour, lang)


def _joker_badge(put: Put, state, layout, game, lang, four_colour) -> None:
    """Under a Joker led at no trumps, the suit its player named ("as ♠")."""
    trick = state.get("trick") or []
    suit = state.get("joker_suit")
    if not suit or not trick or not isinstance(trick[0].get("seat"), int) or not 0 <= trick[0]["seat"] < layout.n:
        return
    if layout.rows:
        x, y = seat_centres(layout.n, game, layout)[trick[0]["seat"]]
        x, y = x + PLATE_W / 2 + 14 + CARD_W / 2, y + CARD_H / 2 - 18
    else:
        x, y = trick_spot(layout.n, trick[0]["seat"], game, layout)
        y += CARD_H / 2 - 18
    _put_tag(put, (x, y), [f"{t('joker_as', lang)} ", suit_seg(suit)], four_colour=four_colour)


def _band_open_hand(img, draw, y, shown, names, lang, four_colour) -> float:
    """An open misère: the soloist's hand, face up on the table from the end of the first trick."""
    cards = shown["cards"]
    label = f"{t('open_hand', lang)} · {st.seat_name(names, shown.get('seat', -1))}".upper()
    draw_text(draw, (MARGIN + 4, y + LABEL / 2 + 4), label, LABEL, theme.TEXT_DIM, bold=True, anchor="lm")
    room = W - 2 * MARGIN - CARD_W
    step = min(CARD_STEP + 10, room / max(len(cards) - 1, 1))
    _cards_row(img, cards, MARGIN, y + LABEL + 16, four_colour, step, lang)
    return y + BAND_ROW_H


def _band_last_trick(img, draw, y, plays, winner, names, lang, four_colour) -> float:
    """The last trick beside a trick in progress: its plays in order, each over its player's name."""
    draw_text(draw, (MARGIN + 4, y + LABEL / 2 + 4), t("last_trick", lang).upper(), LABEL, theme.TEXT_DIM,
              bold=True, anchor="lm")  # fmt: skip
    slot = (W - 2 * MARGIN) / max(len(plays), 1)
    top = y + LABEL + 16
    for i, play in enumerate(plays):
        cards = play.get("cards") or []
        step = min(CARD_STEP, (slot - 8 - CARD_W) / max(len(cards) - 1, 1))
        x = MARGIN + slot * i + (slot - _row_width(len(cards), step)) / 2
        _cards_row(img, cards, x, top, four_colour, step, lang)
        won = winner is not None and play.get("seat") == winner
        name = st.seat_name(names, play.get("seat", -1))
        draw_text(draw, (MARGIN + slot * (i + 0.5), top + CARD_H + 4 + DETAIL / 2), name, DETAIL,
                  theme.GOLD if won else theme.TEXT_DIM, bold=won, anchor="mm", max_width=slot - 6)  # fmt: skip
    return y + BAND_ROW_H


@dataclass(frozen=True)
class Scene:
    """What one picture of the table shows on and under the felt, and the bands it needs."""

    layout: Layout
    trick: list[dict]
    last: list[dict]
    on_felt: list[dict]
    winner: int | None
    last_in_band: bool


def _scene(state: dict, names: list[str], show_last_trick: bool, last_trick: list[dict] | None, lang: str,
           auction_rows: int = 0) -> Scene:  # fmt: skip
    trick = state.get("trick") or []
    last = (last_trick if last_trick is not None else state.get("last_trick") or []) if show_last_trick else []
    # The felt shows the trick in progress, else the last trick (its winner edged in gold); a last trick beside a
    # trick in progress goes under the felt.
    on_felt = trick or last
    winner = None if trick else _winner(state, last)
    last_in_band = bool(trick) and bool(last)
    layout = plan(state, names, on_felt, last_in_band=last_in_band, lang=lang, auction_rows=auction_rows)
    return Scene(layout, trick, last, on_felt, winner, last_in_band)


def _draw_top(img, draw, state, names, layout: Layout, *, title, clock, lang, four_colour) -> None:
    """The header and the auction strip: everything above the felt."""
    _header(img, draw, state, names, title=title, clock=clock, lang=lang, four_colour=four_colour)
    auction.draw(img, layout.header_h, MARGIN, W - MARGIN, [list(line) for line in layout.calls],
                 len(auction.calls_shown(state)), lang, four_colour, layout.call_rows)  # fmt: skip


def _draw_felt(put: Put, state, names, scene: Scene, *, to_move, lang, four_colour) -> None:
    """The felt with the seats' plates and the plays, each placed by ``put``."""
    layout, on_felt, winner, game = scene.layout, scene.on_felt, scene.winner, state.get("game", "")
    if layout.rows:
        _trick_rows(put, layout, state, names, on_felt, winner, to_move, lang, four_colour)
    else:
        tricks = st.tricks_by_seat(state, names)
        for seat, xy in enumerate(seat_centres(layout.n, game, layout)):
            _put_plate(put, seat, xy, state, names, to_move=to_move, lang=lang,
                       tricks=tricks[seat] if tricks else None)  # fmt: skip
        _trick_round(put, layout, on_felt, game, winner=winner, four_colour=four_colour, lang=lang)
    if on_felt and not scene.trick:
        tag: list[Segment] = [t("last_trick", lang)]
        half = seg_width(tag, LABEL, True) / 2 + 20
        corner = (W - MARGIN - half, layout.felt_top) if layout.rows else (
            MARGIN + half, layout.felt_top + layout.felt_h - MARGIN - 26)  # fmt: skip
        _put_tag(put, corner, tag, four_colour=four_colour, edge=theme.TEXT_DIM)
    _joker_badge(put, state, layout, game, lang, four_colour)


def band_top(layout: Layout) -> float:
    """Where the band under the felt starts."""
    return layout.felt_top + layout.felt_h + MARGIN


def _draw_band(img, draw, state, names, scene: Scene, y: float, *, lang, four_colour) -> None:
    """The band under the felt from ``y``: an open misère hand, the last trick beside a trick in progress."""
    shown = _open_hand(state)
    if shown is not None:
        y = _band_open_hand(img, draw, y, shown, names, lang, four_colour)
    if scene.last_in_band:
        _band_last_trick(img, draw, y, scene.last, _winner(state, scene.last), names, lang, four_colour)


def drawing_in_place(img: Image.Image) -> Put:
    """A ``Put`` that draws each element straight onto ``img``."""
    draw = ImageDraw.Draw(img)

    def put(key, box, paint, ground=theme.FELT) -> None:
        paint(img, draw, 0, 0)

    return put


def build_table(
    state: dict,
    names: list[str],
    *,
    to_move: int | None = None,
    title: str = "",
    show_last_trick: bool = False,
    last_trick: list[dict] | None = None,
    clock: str | None = None,
    four_colour: bool = False,
    lang: str = "en",
    auction_rows: int = 0,
) -> Image.Image:
    scene = _scene(state, names, show_last_trick, last_trick, lang, auction_rows)
    layout = scene.layout
    img = _background(layout.felt_top, layout.felt_h, layout.height).copy()
    draw = ImageDraw.Draw(img)
    _draw_top(img, draw, state, names, layout, title=title, clock=clock, lang=lang, four_colour=four_colour)
    _draw_felt(drawing_in_place(img), state, names, scene, to_move=to_move, lang=lang, four_colour=four_colour)
    _draw_band(img, draw, state, names, scene, band_top(layout), lang=lang, four_colour=four_colour)
    return img
