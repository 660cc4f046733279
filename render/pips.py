"""Suit symbols drawn as shapes (no font glyph needed), and small anti-aliased pip images for text lines."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

Point = tuple[float, float]


def _heart_outline(n: int = 48) -> list[Point]:
    # The classic heart curve, normalised to fit -1..1 with the point at the bottom.
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x / 17, (y - 2.5) / 15.5))
    return pts


HEART = _heart_outline()
SPADE_BODY = [(x * 0.92, -y * 0.92 - 0.12) for x, y in HEART]
STEM = [(0.0, 0.15), (0.16, 0.72), (0.38, 1.0), (-0.38, 1.0), (-0.16, 0.72)]


def _diamond(n: int = 12) -> list[Point]:
    # Slightly concave sides, as on printed cards.
    pts = []
    corners = [(0.0, -1.0), (0.74, 0.0), (0.0, 1.0), (-0.74, 0.0)]
    for i in range(4):
        (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
        mx, my = (x0 + x1) / 2 * 0.86, (y0 + y1) / 2 * 0.86
        for k in range(n):
            t = k / n
            x = (1 - t) ** 2 * x0 + 2 * (1 - t) * t * mx + t * t * x1
            y = (1 - t) ** 2 * y0 + 2 * (1 - t) * t * my + t * t * y1
            pts.append((x, y))
    return pts


DIAMOND = _diamond()


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: float, fill) -> None:
    """Draw the suit symbol centred on (cx, cy), ``size`` pixels tall."""
    r = size / 2

    def poly(points: list[Point]) -> None:
        draw.polygon([(cx + x * r, cy + y * r) for x, y in points], fill=fill)

    if suit == "H":
        poly(HEART)
    elif suit == "D":
        poly(DIAMOND)
    elif suit == "S":
        poly(SPADE_BODY)
        poly(STEM)
    elif suit == "C":
        lobe = 0.36 * r
        for dx, dy in ((0.0, -0.5), (-0.47, 0.1), (0.47, 0.1)):
            x, y = cx + dx * r, cy + dy * r
            draw.ellipse((x - lobe, y - lobe, x + lobe, y + lobe), fill=fill)
        draw.ellipse((cx - 0.2 * r, cy - 0.25 * r, cx + 0.2 * r, cy + 0.2 * r), fill=fill)
        poly(STEM)
    else:
        raise ValueError(f"no suit symbol for {suit!r}")


def star_points(cx: float, cy: float, outer: float, inner: float, points: int = 5, turn: float = 0.0):
    out = []
    for i in range(points * 2):
        a = -math.pi / 2 + turn + i * math.pi / points
        r = outer if i % 2 == 0 else inner
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


SUPERSAMPLE = 4


@lru_cache(maxsize=256)
def pip_image(suit: str, size: int, colour: tuple[int, int, int]) -> Image.Image:
    """An anti-aliased RGBA pip ``size`` pixels square, to paste into text lines."""
    big = size * SUPERSAMPLE
    mask = Image.new("L", (big, big), 0)
    draw_suit(ImageDraw.Draw(mask), suit, big / 2, big / 2, big * 0.94, 255)
    mask = mask.resize((size, size), Image.Resampling.LANCZOS)
    img = Image.new("RGBA", (size, size), colour + (255,))
    img.putalpha(mask)
    return img
