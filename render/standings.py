"""A tournament's standings as a card: place, entrant, the ranking's first figure and a couple of tiebreak columns.

Data in, PNG out: the caller gives the rows already ranked and the column keys (labels in ``render/i18n.py``).  The
card is 640 px wide with large type so that it stays readable when Discord shows it 400 px wide on a phone; it
shows at most ``MAX_ROWS`` rows and says how many more there are (the paged ``/tournament standings`` lists all).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from render import theme
from render.fonts import draw_text
from render.i18n import t
from render.pips import star_points
from render.png import to_png

W = 640
PAD = 20
ROW = 46
HEAD = 64
MAX_ROWS = 20
MEDALS = {1: (246, 196, 68), 2: (200, 205, 214), 3: (205, 127, 50)}
NUMBER_W = 108  # each figure's column


def build_standings(
    rows: Sequence[Sequence[object]],
    *,
    title: str,
    columns: Sequence[str],
    subtitle: str = "",
    lang: str = "en",
    total: int | None = None,
) -> Image.Image:
    """``rows``: (place, name, figure, ...) with one figure per ``columns`` key; ``total``: how many entrants there
    are in all (more than the rows shown: "… and N more")."""
    shown = list(rows)[:MAX_ROWS]
    more = max(0, (total if total is not None else len(rows)) - len(shown))
    height = PAD + HEAD + (28 if subtitle else 0) + 34 + ROW * max(len(shown), 1) + (40 if more else 8) + PAD
    img = Image.new("RGB", (W, height), theme.PAGE)
    draw = ImageDraw.Draw(img)
    draw.polygon(star_points(PAD + 18, PAD + 26, 20, 8), fill=theme.GOLD)
    draw_text(draw, (PAD + 48, PAD + 26), title or t("standings", lang), 30, theme.TEXT, bold=True, anchor="lm",
              max_width=W - 2 * PAD - 50)  # fmt: skip
    y = PAD + HEAD - 8
    if subtitle:
        draw_text(draw, (PAD + 48, y), subtitle, 20, theme.TEXT_DIM, anchor="lm", max_width=W - 2 * PAD - 50)
        y += 28
    right = [W - PAD - 12 - NUMBER_W * i for i in range(len(columns))][::-1]
    name_x, place_x = PAD + 58, PAD + 26
    name_w = (right[0] - NUMBER_W + 16 if columns else W - PAD) - name_x
    draw_text(draw, (name_x, y + 16), t("st_entrant", lang).upper(), 16, theme.TEXT_DIM, bold=True, anchor="lm")
    for x, key in zip(right, columns, strict=True):
        draw_text(draw, (x, y + 16), t(key, lang).upper(), 16, theme.TEXT_DIM, bold=True, anchor="rm",
                  max_width=NUMBER_W - 8)  # fmt: skip
    y += 34
    if not shown:
        draw_text(draw, (W / 2, y + ROW / 2), t("st_empty", lang), 24, theme.TEXT_DIM, anchor="mm")
    for i, row in enumerate(shown):
        top = y + i * ROW
        mid = top + (ROW - 6) / 2
        draw.rounded_rectangle((PAD, top, W - PAD, top + ROW - 6), radius=9,
                               fill=theme.PANEL if i % 2 == 0 else theme.PANEL_LIGHT)  # fmt: skip
        place = int(str(row[0]))
        if place in MEDALS:
            r = 16
            draw.ellipse((place_x - r, mid - r, place_x + r, mid + r), fill=MEDALS[place])
            draw_text(draw, (place_x, mid), str(place), 20, (30, 30, 34), bold=True, anchor="mm")
        else:
            draw_text(draw, (place_x, mid), str(place), 20, theme.TEXT_DIM, bold=True, anchor="mm")
        draw_text(draw, (name_x, mid), str(row[1]), 24, theme.TEXT, bold=place <= 3, anchor="lm", max_width=name_w)
        for k, (x, value) in enumerate(zip(right, row[2:], strict=False)):
            colour = theme.GOLD if k == 0 and place == 1 else theme.TEXT if k == 0 else theme.TEXT_DIM
            draw_text(draw, (x, mid), _figure(value), 24 if k == 0 else 21, colour, bold=k == 0, anchor="rm")
    if more:
        draw_text(draw, (W / 2, y + ROW * len(shown) + 18), t("st_more", lang, n=more), 20, theme.TEXT_DIM,
                  anchor="mm")  # fmt: skip
    return img


def _figure(value: object) -> str:
    if isinstance(value, float):
        return f"{value:g}" if value == int(value) else f"{value:.2f}"
    return str(value)


def render_standings(
    rows: Sequence[Sequence[object]],
    *,
    title: str,
    columns: Sequence[str],
    subtitle: str = "",
    lang: str = "en",
    total: int | None = None,
) -> bytes:
    """PNG of the standings card (see ``build_standings``)."""
    return to_png(build_standings(rows, title=title, columns=columns, subtitle=subtitle, lang=lang, total=total))
