"""The table: seats around a felt with names, the dealer's chip and whose turn it is; the trick in the middle; a side
panel with the contract, trump, scores (or levels) and, on request, the last completed trick."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import state as st
from render import theme
from render.cards import card_height, paste_card
from render.fonts import draw_text, fit_text, font
from render.i18n import game_name, t
from render.pips import star_points
from render.png import to_png
from render.text import draw_segments, seg_width, suit_seg
from rules.registry import lookup

W, H = 1040, 740
HEADER = 64
FELT = (16, HEADER + 8, 700, H - 16)
PANEL_X = 716
PLATE_W, PLATE_H = 204, 72


def _direction(game: str) -> int:
    """1 when play goes clockwise round the table (seat 0 at the bottom, seat 1 on its left), else -1."""
    found = lookup(game)
    return 1 if found is None or found.clockwise else -1


def seat_centres(n: int, game: str) -> list[tuple[float, float]]:
    """Seat 0 at the bottom, then round the table in the game's real direction (seats are in order of play)."""
    cx, cy = (FELT[0] + FELT[2]) / 2, (FELT[1] + FELT[3]) / 2
    rx = (FELT[2] - FELT[0]) / 2 - PLATE_W / 2 - 20
    ry = (FELT[3] - FELT[1]) / 2 - PLATE_H / 2 - 24
    direction = _direction(game)
    out = []
    for s in range(n):
        a = math.radians(90 + direction * 360 * s / n)
        dx, dy = math.cos(a), math.sin(a)
        if n == 3 or n >= 5:  # push the side seats out to the edges to leave the middle free for the trick
            dx = math.copysign(abs(dx) ** 0.3, dx)
        out.append((cx + rx * dx, cy + ry * dy))
    return out


def trick_spot(n: int, seat: int, game: str) -> tuple[float, float]:
    """Where a seat's play lands: on a small ellipse round the centre, in the seat's direction."""
    cx, cy = (FELT[0] + FELT[2]) / 2, (FELT[1] + FELT[3]) / 2
    direction = _direction(game)
    a = math.radians(90 + direction * 360 * seat / n)
    rx, ry = (60, 128) if n == 3 else (70, 128) if n <= 4 else (80, 115)
    return cx + rx * math.cos(a), cy + ry * math.sin(a)


@lru_cache(maxsize=2)
def _background() -> Image.Image:
    """The page and the empty table, drawn once (rounded shapes are slow to draw) and copied for every image."""
    img = Image.new("RGB", (W, H), theme.PAGE)
    _felt(ImageDraw.Draw(img))
    return img


@lru_cache(maxsize=64)
def _plate_image(fill: tuple, edge: tuple) -> Image.Image:
    img = Image.new("RGBA", (PLATE_W + 5, PLATE_H + 6), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((3, 4, PLATE_W + 3, PLATE_H + 4), radius=14, fill=(15, 50, 33))
    d.rounded_rectangle((0, 0, PLATE_W, PLATE_H), radius=14, fill=fill, outline=edge, width=3)
    d.rounded_rectangle((3, 3, 13, PLATE_H - 3), radius=5, fill=edge)
    return img


def _felt(draw: ImageDraw.ImageDraw) -> None:
    x0, y0, x1, y1 = FELT
    r = (y1 - y0) * 0.22
    draw.rounded_rectangle(FELT, radius=r, fill=theme.FELT_EDGE)
    draw.rounded_rectangle((x0 + 9, y0 + 9, x1 - 9, y1 - 9), radius=r - 9, fill=theme.FELT)
    draw.rounded_rectangle((x0 + 40, y0 + 40, x1 - 40, y1 - 40), radius=r - 40, outline=theme.FELT_DARK, width=3)


def _cards_fan(img: Image.Image, cards: list[str], cx: float, cy: float, width: int, four_colour: bool) -> None:
    step = min(width * 0.38, 30)
    total = width + step * (len(cards) - 1)
    x = cx - total / 2
    y = cy - card_height(width) / 2
    for c in cards:
        paste_card(img, c, round(x), round(y), width, four_colour)
        x += step


def _plate(img, draw, seat, xy, state, names, *, to_move, lang, tricks) -> None:
    x, y = xy
    box = (x - PLATE_W / 2, y - PLATE_H / 2, x + PLATE_W / 2, y + PLATE_H / 2)
    turn = to_move == seat
    side = st.side_of(seat, state, names)
    plate = _plate_image(theme.GOLD if turn else theme.PANEL, theme.side_colour(side))
    img.paste(plate, (round(box[0]), round(box[1])), plate)
    ink = (25, 25, 30) if turn else theme.TEXT
    sub = (60, 50, 20) if turn else theme.TEXT_DIM
    draw_text(draw, (box[0] + 24, y - 13), st.seat_name(names, seat), 26, ink, bold=True, anchor="lm",
              max_width=PLATE_W - 40)  # fmt: skip
    parts = []
    if turn:
        phase = state.get("phase")
        parts.append(t("to_play" if phase == "play" else "to_draw" if phase == "deal" else "to_act", lang))
    if tricks is not None:
        parts.append(st.tricks_text(tricks, lang))
    if parts:
        draw_text(draw, (box[0] + 24, y + 18), " · ".join(parts), 19, sub, anchor="lm", max_width=PLATE_W - 40)
    contract = state.get("contract") or {}
    if contract.get("seat") == seat:  # the contractor / leader: a gold star on the plate's corner
        draw.polygon(star_points(box[0] + 8, box[1] + 6, 15, 6.5), fill=theme.GOLD, outline=(90, 70, 10))
    if state.get("dealer") == seat:
        r = 16
        cx, cy = box[2] - 4, box[1] + 4
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.DEALER, outline=(60, 60, 60), width=2)
        label = "庄" if lang == "zh" else "D"
        draw.text((cx, cy + 1), label, font=font(19, True), fill=(20, 20, 20), anchor="mm")


def _box(draw, y: int, h: int, label: str) -> int:
    draw.rounded_rectangle((PANEL_X, y, W - 16, y + h), radius=12, fill=theme.PANEL)
    draw_text(draw, (PANEL_X + 16, y + 10), label.upper(), 17, theme.TEXT_DIM, bold=True)
    return y + 36


def _contract_box(img, draw, y, state, names, lang, four_colour) -> int:
    contract = state.get("contract")
    h = 96
    if st.leader_not_contract(state):
        top = _box(draw, y, h, t("leader", lang))
        seat = (contract or {}).get("seat")
        text = st.seat_name(names, seat) if isinstance(seat, int) else "—"
        draw_text(draw, (PANEL_X + 16, top + 20), text, 28, theme.TEXT, bold=True, anchor="lm", max_width=270)
        exposed = state.get("exposed")
        if exposed and state.get("phase") in ("deal", "exchange"):  # the drawing: who showed which card
            card = exposed.get("card", "")
            shown = [card[:-1], suit_seg(card[-1])] if card[-1:] in ("S", "H", "D", "C") else [card]
            segs = [f"{st.seat_name(names, exposed.get('seat', -1))} {t('exposed', lang)} ", *shown]
            draw_segments(img, (PANEL_X + 16, top + 46), segs, 19, theme.TEXT_DIM, four_colour=four_colour,
                          max_width=270)  # fmt: skip
        return y + h + 10
    top = _box(draw, y, h, t("contract", lang))
    bid = contract or st.with_counters(state.get("high_bid"), state) or st.last_bid(state)
    segs = st.contract_segments(bid, lang)
    if not segs:
        segs = [t("no_contract", lang) if state.get("phase") not in ("bidding",) else t("phase_bidding", lang)]
    draw_segments(img, (PANEL_X + 16, top + 16), segs, 30, theme.TEXT, bold=True, four_colour=four_colour,
                  max_width=W - 16 - PANEL_X - 32)  # fmt: skip
    if bid and isinstance(bid.get("seat"), int):
        who = st.seat_name(names, bid["seat"])
        label = who if contract else f"{who} · {t('phase_bidding', lang).lower()}"
        partner = (contract or {}).get("partner")
        if isinstance(partner, int) and partner != bid["seat"]:  # a called partner, named at once
            label = f"{who} + {st.seat_name(names, partner)}"
        draw_text(draw, (PANEL_X + 16, top + 46), label, 19, theme.TEXT_DIM, anchor="lm", max_width=270)
    return y + h + 10


def _trump_box(img, draw, y, state, lang, four_colour) -> int:
    rank = st.trump_rank(state)
    h = 96 if rank else 78
    top = _box(draw, y, h, t("trump", lang))
    draw_segments(img, (PANEL_X + 16, top + 16), st.trump_segments(state, lang), 28, theme.TEXT, bold=True,
                  four_colour=four_colour, max_width=270)  # fmt: skip
    if rank:
        draw_text(draw, (PANEL_X + 16, top + 46), f"{t('trump_rank', lang)}: {rank}", 19, theme.TEXT_DIM,
                  anchor="lm")  # fmt: skip
    return y + h + 10


def _scores_box(img, draw, y, state, names, lang) -> int:
    scores = state.get("scores") or []
    n_sides = len(scores)
    side_points = st.points_by_side(state, names) if st.per_team(state, names) else None
    side_tricks = st.side_tricks(state, names) if st.per_team(state, names) else None
    detail = side_points is not None or side_tricks is not None
    row = 58 if detail else 40
    h = 44 + row * n_sides
    label = t("levels", lang) if st.scores_are_levels(state) else t("scores", lang)
    target = (state.get("options") or {}).get("target")
    if target is not None:
        label = f"{label} · {t('target', lang)} {target}"
    top = _box(draw, y, h, label)
    for side in range(n_sides):
        ry = top + side * row + 14
        colour = theme.side_colour(side)
        draw.rounded_rectangle((PANEL_X + 16, ry - 9, PANEL_X + 34, ry + 9), radius=4, fill=colour)
        value = st.score_text(state, scores[side])
        vw = font(28, True).getlength(value)
        name = fit_text(st.side_name(side, state, names), W - 16 - PANEL_X - 70 - vw, 22)
        draw_text(draw, (PANEL_X + 44, ry), name, 22, theme.TEXT, anchor="lm")
        draw_text(draw, (W - 32, ry), value, 28, theme.TEXT, bold=True, anchor="rm")
        if detail:
            parts = []
            if side_tricks is not None:
                parts.append(st.tricks_text(side_tricks[side], lang))
            if side_points is not None:
                parts.append(f"{side_points[side]} {t('points', lang)}")
            draw_text(draw, (PANEL_X + 44, ry + 25), " · ".join(parts), 18, theme.TEXT_DIM, anchor="lm")
    return y + h + 10


def _joker_badge(img, draw, state, n, game, width, lang, four_colour) -> None:
    """Under a Joker led at no trumps, the suit its player named ("as ♠")."""
    trick = state.get("trick") or []
    suit = state.get("joker_suit")
    if not suit or not trick or not isinstance(trick[0].get("seat"), int) or not 0 <= trick[0]["seat"] < n:
        return
    x, y = trick_spot(n, trick[0]["seat"], game)
    y += card_height(width) / 2 + 18
    segs = [f"{t('joker_as', lang)} ", suit_seg(suit)]
    half = seg_width(segs, 22, True) / 2 + 12
    draw.rounded_rectangle((x - half, y - 16, x + half, y + 16), radius=10, fill=theme.PANEL, outline=theme.GOLD)
    draw_segments(img, (x, y), segs, 22, theme.TEXT, bold=True, anchor="mm", four_colour=four_colour)


def _open_hand_box(img, draw, y, state, names, lang, four_colour) -> int:
    """An open misère: the soloist's hand, face up on the table from the end of the first trick."""
    shown = state.get("open_hand")
    if not shown or state.get("phase") != "play" or not shown.get("cards"):
        return y
    cards = shown["cards"]
    width = 44
    h = 36 + card_height(width) + 14
    top = _box(draw, y, h, f"{t('open_hand', lang)} · {st.seat_name(names, shown.get('seat', -1))}")
    room = W - 16 - PANEL_X - 32 - width
    step = min(30, room / max(len(cards) - 1, 1))
    for i, c in enumerate(cards):
        paste_card(img, c, round(PANEL_X + 16 + i * step), top + 4, width, four_colour)
    return y + h + 10


def _last_trick_box(img, draw, y, plays, names, lang, four_colour) -> int:
    h = 36 + 84 + 30
    top = _box(draw, y, h, t("last_trick", lang))
    n = max(len(plays), 1)
    slot = (W - 16 - PANEL_X - 24) / n
    width = min(56, int(slot) - 6)
    for i, play in enumerate(plays):
        cards = play.get("cards") or []
        cx = PANEL_X + 12 + slot * (i + 0.5)
        step = 12
        x = cx - (width + step * (len(cards) - 1)) / 2
        for c in cards:
            paste_card(img, c, round(x), top + 2, width, four_colour)
            x += step
        name = st.seat_name(names, play.get("seat", -1))
        colour = theme.GOLD if play.get("winner") else theme.TEXT_DIM
        draw_text(draw, (cx, top + 2 + card_height(width) + 6), name, 16, colour, anchor="mt", max_width=slot - 2)
    return y + h + 10


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
) -> Image.Image:
    game = state.get("game", "")
    n = st.players(state, names)
    img = _background().copy()
    draw = ImageDraw.Draw(img)

    # Header: the title (or the game and deal), the phase, the clock.
    heading = title or f"{game_name(game, lang)} · {t('deal_summary', lang, n=int(state.get('deal', 0)) + 1)}"
    phase = state.get("phase")
    clock_w: float = 0
    if clock:
        clock_w = font(26, True).getlength(clock) + 44
        cx = W - 24 - clock_w + 14
        draw.ellipse((cx - 13, HEADER / 2 - 13, cx + 13, HEADER / 2 + 13), outline=theme.GOLD, width=3)
        draw.line((cx, HEADER / 2, cx, HEADER / 2 - 8), fill=theme.GOLD, width=3)
        draw.line((cx, HEADER / 2, cx + 6, HEADER / 2 + 3), fill=theme.GOLD, width=3)
        draw_text(draw, (W - 24, HEADER / 2), clock, 26, theme.GOLD, bold=True, anchor="rm")
    phase_text = t(f"phase_{phase}", lang) if phase else ""
    phase_w = font(22).getlength(phase_text) + 24 if phase_text else 0
    head_w = W - 48 - clock_w - phase_w
    draw_text(draw, (24, HEADER / 2), heading, 30, theme.TEXT, bold=True, anchor="lm", max_width=head_w)
    if phase_text:
        x = 24 + min(font(30, True).getlength(heading), head_w) + 18
        draw_text(draw, (x, HEADER / 2 + 2), phase_text, 22, theme.TEXT_DIM, anchor="lm")

    seats = seat_centres(n, game)
    tricks = st.tricks_by_seat(state, names)
    for seat, xy in enumerate(seats):
        _plate(img, draw, seat, xy, state, names, to_move=to_move, lang=lang,
               tricks=tricks[seat] if tricks else None)  # fmt: skip

    # The trick in progress, each play in front of its player.
    width = 96 if n <= 3 else 90 if n == 4 else 72
    middle = (FELT[0] + FELT[2]) / 2
    many = max((len(p.get("cards") or []) for p in state.get("trick") or []), default=1)
    many = many if n == 4 and many > 1 else 0  # multi-card tricks (a throw): smaller cards, so they all fit
    if many:
        width = min(width, int(100 / (1 + 0.38 * (many - 1))))
    for play in state.get("trick") or []:
        seat = play.get("seat")
        if isinstance(seat, int) and 0 <= seat < n:
            x, y = trick_spot(n, seat, game)
            if many and abs(x - middle) > 1:  # a side seat's cards: between the middle and its plate
                total = width + min(width * 0.38, 30) * (many - 1)
                x = middle + math.copysign(4 + total / 2, x - middle)
            _cards_fan(img, play.get("cards") or [], x, y, width, four_colour)
    _joker_badge(img, draw, state, n, game, width, lang, four_colour)

    # The side panel.
    y = HEADER + 8
    y = _contract_box(img, draw, y, state, names, lang, four_colour)
    y = _trump_box(img, draw, y, state, lang, four_colour)
    y = _scores_box(img, draw, y, state, names, lang)
    y = _open_hand_box(img, draw, y, state, names, lang, four_colour)
    if show_last_trick:
        plays = last_trick if last_trick is not None else state.get("last_trick") or []
        if plays:
            _last_trick_box(img, draw, y, plays, names, lang, four_colour)
    return img


def render_table(
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
) -> bytes:
    """PNG of the table for ``state`` (the replay output) with ``names`` by seat."""
    img = build_table(state, names, to_move=to_move, title=title, show_last_trick=show_last_trick,
                      last_trick=last_trick, clock=clock, four_colour=four_colour, lang=lang)  # fmt: skip
    return to_png(img)
