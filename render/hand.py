"""A player's hand: sorted as players of the game sort it, each card's short name underneath (to type in a slash
command), legal cards raised with a gold edge and the others greyed when it is the player's turn."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from render import theme
from render.cards import card_height, normalise, paste_card
from render.fonts import draw_text, fit_text, text_width
from render.i18n import card_caption
from render.palette import felt_index, to_palette
from render.png import encode_fixed
from render.recent import Recent
from render.sorting import sort_key
from render.theme import Colour

CARD_W = 116
STEP = 76  # horizontal distance between cards: the overlapped part still shows the whole corner index
ROW_MAX = 13  # longer hands (18 cards with a kitty) wrap onto a second row
MARGIN = 22
RAISE = 16  # how far a legal card is lifted
NAME_SIZE = 26
TITLE_SIZE = 28


def is_trump(game: str, card: str, trump: str | None, trump_rank: str | None) -> bool:
    key = sort_key(game, trump, trump_rank)(card)
    return key[0] == 0 or (trump in ("S", "H", "D", "C") and key[0] == 1)


@dataclass(frozen=True)
class Shown:
    """One card as a hand shows it: raised on a gold edge (playable when the hand has legal cards), greyed (not
    playable), or plain; with its caption (what the player types for it) in its colour."""

    card: str
    dim: bool
    lifted: bool
    caption: str
    colour: Colour


@dataclass(frozen=True)
class HandLayout:
    """A hand picture's size and its rows of cards, each as shown."""

    width: int
    height: int
    title_h: int
    rows: list[list[Shown]]

    def row_left(self, row: list[Shown]) -> int:
        return (self.width - (CARD_W + STEP * (len(row) - 1))) // 2

    def row_top(self, r: int) -> int:
        return MARGIN + self.title_h + r * ROW_H


ROW_H = RAISE + card_height(CARD_W) + NAME_SIZE + 18


def hand_layout(game, cards, *, trump=None, trump_rank=None, legal=None, title=None, lang="en") -> HandLayout:
    """Where a hand's cards go and how each is shown."""
    ordered = sorted((normalise(c) for c in cards), key=sort_key(game, trump, trump_rank))
    legal_set = None if legal is None else {normalise(c) for c in legal}
    rows = [ordered[i : i + ROW_MAX] for i in range(0, len(ordered), ROW_MAX)] or [[]]
    if len(rows) > 1:  # balance the rows: 18 cards as 9 + 9 rather than 13 + 5
        per = -(-len(ordered) // len(rows))
        rows = [ordered[i : i + per] for i in range(0, len(ordered), per)]
    widest = max(len(r) for r in rows)
    width = max(2 * MARGIN + CARD_W + STEP * max(widest - 1, 0), 420)
    title_h = 48 if title else 0
    height = MARGIN + title_h + ROW_H * len(rows) + MARGIN - 8

    def shown(c: str) -> Shown:
        playable = legal_set is None or c in legal_set
        colour = theme.GOLD if is_trump(game, c, trump, trump_rank) else theme.TEXT
        # what the player types for it, in their language
        return Shown(c, not playable, legal_set is not None and playable, card_caption(c, lang),
                     colour if playable else theme.TEXT_DIM)  # fmt: skip

    return HandLayout(width, height, title_h, [[shown(c) for c in row] for row in rows])


def _paint_row(img: Image.Image, draw: ImageDraw.ImageDraw, row: list[Shown | None], x0: int, top: int,
               four_colour: bool, lang: str) -> None:  # fmt: skip
    """A row of cards from (x0, top); ``None`` leaves a card's place empty."""
    ch = card_height(CARD_W)
    for i, s in enumerate(row):
        if s is None:
            continue
        x, y = x0 + i * STEP, top + (0 if s.lifted else RAISE)
        if s.lifted:
            draw.rounded_rectangle((x - 3, y - 3, x + CARD_W + 2, y + ch + 2), radius=12, fill=theme.GOLD)
        paste_card(img, s.card, x, y, CARD_W, four_colour, dim=s.dim, lang=lang)
    for i, s in enumerate(row):  # names after the cards so a neighbour's shadow never covers one
        if s is not None:
            draw_text(draw, (x0 + i * STEP + STEP / 2 - 4, top + RAISE + ch + 8), s.caption, NAME_SIZE, s.colour,
                      bold=True, anchor="mt")  # fmt: skip


def _paint_title(draw: ImageDraw.ImageDraw, title: str, width: int) -> None:
    draw_text(draw, (MARGIN, MARGIN + 16), title, TITLE_SIZE, theme.TEXT, bold=True, anchor="lm",
              max_width=width - 2 * MARGIN)  # fmt: skip


def build_hand(
    game: str,
    cards: list[str],
    *,
    trump: str | None = None,
    trump_rank: str | None = None,
    legal: set[str] | None = None,
    four_colour: bool = False,
    title: str | None = None,
    lang: str = "en",
) -> Image.Image:
    """The hand in RGB, drawn whole (``render_hand`` composes the same picture from kept strips)."""
    layout = hand_layout(game, cards, trump=trump, trump_rank=trump_rank, legal=legal, title=title, lang=lang)
    img = Image.new("RGB", (layout.width, layout.height), theme.FELT)
    draw = ImageDraw.Draw(img)
    if title:
        _paint_title(draw, title, layout.width)
    for r, row in enumerate(layout.rows):
        _paint_row(img, draw, list(row), layout.row_left(row), layout.row_top(r), four_colour, lang)
    return img


def render_hand(
    game: str,
    cards: list[str],
    *,
    trump: str | None = None,
    trump_rank: str | None = None,
    legal: set[str] | None = None,
    four_colour: bool = False,
    title: str | None = None,
    lang: str = "en",
) -> bytes:
    """PNG of ``cards`` sorted for ``game``; ``legal`` (when given) raises the playable cards and greys the rest."""
    legal_key = None if legal is None else frozenset(legal)
    return _hand_png(game, tuple(sorted(cards)), trump, trump_rank, legal_key, four_colour, title, lang)


# A hand picture is composed from strips, each STEP columns of a row of cards: strip j, from card j's left edge,
# shows card j's visible part, what card j - 1 (its right part, its shadow, its caption) and card j + 1 (its
# shadow, its gold edge) paint there, and nothing else (a card with everything it paints spans less than a STEP to
# its left and two to its right).  So a strip is drawn by those three cards alone, and kept: a card played leaves
# every strip but two or three of the next picture of that hand as it was.
STRIP_ABOVE = 6  # a strip's rows above its row's top: a lifted card's shadow reaches 5 above it, a caption 215 below
STRIP_BYTES = 48 * 1024 * 1024  # ~17 KB a strip: the current hands of a worker's players, ten strips or so each
TitleKey = tuple[str, int]
_strips: Recent[tuple, Image.Image] = Recent(STRIP_BYTES, lambda strip: strip.width * strip.height)
_titles: Recent[TitleKey, Image.Image] = Recent(4 * 1024 * 1024, lambda band: band.width * band.height)


def _strip(prev: Shown | None, card: Shown | None, after: Shown | None, four_colour: bool, lang: str) -> Image.Image:
    img = Image.new("RGB", (STEP, ROW_H), theme.FELT)
    _paint_row(img, ImageDraw.Draw(img), [prev, card, after], -STEP, STRIP_ABOVE, four_colour, lang)
    return to_palette(img)


def _title_band(shown: str, width: int) -> Image.Image:
    """The title's rows, from the left edge to ``width`` (past the title's last letter), ``shown`` as it fits."""
    img = Image.new("RGB", (width, MARGIN + 48 - STRIP_ABOVE), theme.FELT)
    draw_text(ImageDraw.Draw(img), (MARGIN, MARGIN + 16), shown, TITLE_SIZE, theme.TEXT, bold=True, anchor="lm")
    return to_palette(img)


@lru_cache(maxsize=512)  # ~12 KB each: a player looks at the same hand several times (each card played, each turn)
def _hand_png(game, cards, trump, trump_rank, legal, four_colour, title, lang="en") -> bytes:
    layout = hand_layout(game, list(cards), trump=trump, trump_rank=trump_rank,
                         legal=None if legal is None else set(legal), title=title, lang=lang)  # fmt: skip
    # One column wider than the picture: column 0 holds each row's PNG filter byte (0), so the canvas's bytes are
    # the PNG's rows as they are.
    canvas = Image.new("P", (1 + layout.width, layout.height), felt_index())
    if title:  # kept by what it shows, which only a narrow hand shortens
        shown = fit_text(title, layout.width - 2 * MARGIN, TITLE_SIZE, True)
        width = min(layout.width, MARGIN + math.ceil(text_width(shown, TITLE_SIZE, True)) + 12)
        canvas.paste(_titles.get((shown, width), lambda: _title_band(shown, width)), (1, 0))
    for r, row in enumerate(layout.rows):
        x0, y = 1 + layout.row_left(row), layout.row_top(r) - STRIP_ABOVE
        around: list[Shown | None] = [None, None, *row, None, None]
        for j in range(-1, len(row) + 1):
            prev, card, after = around[j + 1 : j + 4]
            key = (prev, card, after, four_colour, lang)
            strip = _strips.get(key, partial(_strip, prev, card, after, four_colour, lang))
            canvas.paste(strip, (x0 + j * STEP, y))
    canvas.paste(0, (0, 0, 1, canvas.height))
    return encode_fixed(layout.width, [canvas.tobytes()])
