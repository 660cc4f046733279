"""A player's hand: sorted as players of the game sort it, each card's short name underneath (to type in a slash
command), legal cards raised with a gold edge and the others greyed when it is the player's turn."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render import theme
from render.cards import card_height, normalise, paste_card
from render.fonts import draw_text
from render.i18n import card_caption
from render.palette import to_palette
from render.png import encode_fixed
from render.sorting import sort_key

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
    left: int = 0,
) -> Image.Image:
    """The hand in RGB; ``left`` columns of felt added on the left (``_hand_png`` writes the PNG's filter bytes
    there)."""
    ordered = sorted((normalise(c) for c in cards), key=sort_key(game, trump, trump_rank))
    legal_set = None if legal is None else {normalise(c) for c in legal}
    rows = [ordered[i : i + ROW_MAX] for i in range(0, len(ordered), ROW_MAX)] or [[]]
    if len(rows) > 1:  # balance the rows: 18 cards as 9 + 9 rather than 13 + 5
        per = -(-len(ordered) // len(rows))
        rows = [ordered[i : i + per] for i in range(0, len(ordered), per)]
    ch = card_height(CARD_W)
    widest = max(len(r) for r in rows)
    width = max(2 * MARGIN + CARD_W + STEP * max(widest - 1, 0), 420)
    title_h = 48 if title else 0
    row_h = RAISE + ch + NAME_SIZE + 18
    height = MARGIN + title_h + row_h * len(rows) + MARGIN - 8
    img = Image.new("RGB", (left + width, height), theme.FELT)
    draw = ImageDraw.Draw(img)
    if title:
        draw_text(draw, (left + MARGIN, MARGIN + 16), title, TITLE_SIZE, theme.TEXT, bold=True, anchor="lm",
                  max_width=width - 2 * MARGIN)  # fmt: skip
    y0 = MARGIN + title_h
    for r, row in enumerate(rows):
        x0 = left + (width - (CARD_W + STEP * (len(row) - 1))) // 2
        top = y0 + r * row_h
        for i, c in enumerate(row):
            x = x0 + i * STEP
            playable = legal_set is None or c in legal_set
            y = top + (0 if legal_set is not None and playable else RAISE)
            if legal_set is not None and playable:
                draw.rounded_rectangle((x - 3, y - 3, x + CARD_W + 2, y + ch + 2), radius=12, fill=theme.GOLD)
            paste_card(img, c, x, y, CARD_W, four_colour, dim=not playable, lang=lang)
        for i, c in enumerate(row):  # names after the cards so a neighbour's shadow never covers one
            x = x0 + i * STEP
            playable = legal_set is None or c in legal_set
            colour = theme.GOLD if is_trump(game, c, trump, trump_rank) else theme.TEXT
            if not playable:
                colour = theme.TEXT_DIM
            caption = card_caption(c, lang)  # what the player types for it, in their language
            draw_text(
                draw, (x + STEP / 2 - 4, top + RAISE + ch + 8), caption, NAME_SIZE, colour, bold=True, anchor="mt"
            )
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


@lru_cache(maxsize=512)  # ~12 KB each: a player looks at the same hand several times (each card played, each turn)
def _hand_png(game, cards, trump, trump_rank, legal, four_colour, title, lang="en") -> bytes:
    # Drawn one column to the right, on a canvas one column wider: column 0 holds each row's PNG filter byte, so the
    # mapped canvas's bytes are the PNG's rows as they are (``render.png.framed`` without its copies: ~0.15 ms).
    img = build_hand(game, list(cards), trump=trump, trump_rank=trump_rank, legal=None if legal is None else set(legal),
                     four_colour=four_colour, title=title, lang=lang, left=1)  # fmt: skip
    mapped = to_palette(img)
    mapped.paste(0, (0, 0, 1, mapped.height))
    return encode_fixed(mapped.width - 1, [mapped.tobytes()])
