"""The leaderboard card: rank, name, rating, games and win rate, one page of it."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import theme
from render.fonts import draw_text
from render.i18n import t
from render.pips import star_points
from render.png import to_png

W = 900
PAD = 28
ROW = 54
MEDALS = {1: (246, 196, 68), 2: (200, 205, 214), 3: (205, 127, 50)}


def _win_rate(value) -> float:
    v = float(value or 0)
    return v / 100 if v > 1 else v


def build_leaderboard(rows: list[dict], *, title: str, page: int = 1, pages: int = 1, lang: str = "en") -> Image.Image:
    n = max(len(rows), 1)
    height = PAD + 64 + 40 + ROW * n + 56 + PAD
    img = Image.new("RGB", (W, height), theme.PAGE)
    draw = ImageDraw.Draw(img)
    draw.polygon(star_points(PAD + 20, PAD + 28, 22, 9), fill=theme.GOLD)
    draw_text(draw, (PAD + 56, PAD + 28), title or t("leaderboard", lang), 34, theme.TEXT, bold=True, anchor="lm",
              max_width=W - 2 * PAD - 60)  # fmt: skip
    y = PAD + 64
    cols = {"rank": PAD + 36, "name": PAD + 84, "rating": 560, "games": 680, "rate": 760}
    draw_text(draw, (cols["rank"], y + 20), t("rank", lang), 17, theme.TEXT_DIM, bold=True, anchor="mm")
    draw_text(draw, (cols["name"], y + 20), t("player", lang).upper(), 17, theme.TEXT_DIM, bold=True, anchor="lm")
    draw_text(draw, (cols["rating"], y + 20), t("rating", lang).upper(), 17, theme.TEXT_DIM, bold=True, anchor="rm")
    draw_text(draw, (cols["games"], y + 20), t("games", lang).upper(), 17, theme.TEXT_DIM, bold=True, anchor="rm")
    draw_text(draw, (cols["rate"], y + 20), t("win_rate", lang).upper(), 17, theme.TEXT_DIM, bold=True, anchor="lm")
    y += 40
    if not rows:
        draw_text(draw, (W / 2, y + ROW / 2), t("no_rows", lang), 24, theme.TEXT_DIM, anchor="mm")
    for i, row in enumerate(rows):
        top = y + i * ROW
        mid = top + (ROW - 6) / 2
        draw.rounded_rectangle((PAD, top, W - PAD, top + ROW - 6), radius=10,
                               fill=theme.PANEL if i % 2 == 0 else theme.PANEL_LIGHT)  # fmt: skip
        rank = int(row.get("rank", i + 1))
        if rank in MEDALS:
            r = 17
            cx = cols["rank"]
            draw.ellipse((cx - r, mid - r, cx + r, mid + r), fill=MEDALS[rank])
            draw_text(draw, (cx, mid), str(rank), 20, (30, 30, 34), bold=True, anchor="mm")
        else:
            draw_text(draw, (cols["rank"], mid), str(rank), 20, theme.TEXT_DIM, bold=True, anchor="mm")
        draw_text(draw, (cols["name"], mid), str(row.get("name", "")), 24, theme.TEXT, bold=rank <= 3, anchor="lm",
                  max_width=cols["rating"] - cols["name"] - 110)  # fmt: skip
        rating = row.get("rating", 0)
        draw_text(draw, (cols["rating"], mid), f"{round(float(rating))}", 24, theme.GOLD if rank == 1 else theme.TEXT,
                  bold=True, anchor="rm")  # fmt: skip
        draw_text(draw, (cols["games"], mid), str(row.get("games", 0)), 22, theme.TEXT, anchor="rm")
        rate = _win_rate(row.get("win_rate"))
        bar_x0, bar_x1 = cols["rate"], W - PAD - 74
        draw.rounded_rectangle((bar_x0, mid - 6, bar_x1, mid + 6), radius=6, fill=(30, 33, 40))
        if rate > 0:
            draw.rounded_rectangle((bar_x0, mid - 6, bar_x0 + max(12, (bar_x1 - bar_x0) * rate), mid + 6), radius=6,
                                   fill=theme.GOOD)  # fmt: skip
        draw_text(draw, (W - PAD - 12, mid), f"{rate * 100:.0f}%", 20, theme.TEXT, anchor="rm")
    y += ROW * n + 14
    if pages > 1 or page > 1:
        draw_text(draw, (W / 2, y + 20), t("page", lang, page=page, pages=pages), 20, theme.TEXT_DIM, anchor="mm")
    return img


def render_leaderboard(rows: list[dict], *, title: str, page: int = 1, pages: int = 1, lang: str = "en") -> bytes:
    """PNG of one leaderboard page; rows: {"rank", "name", "rating", "games", "win_rate" (0..1)}."""
    return to_png(build_leaderboard(rows, title=title, page=page, pages=pages, lang=lang))
