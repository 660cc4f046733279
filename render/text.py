"""Lines of text mixing words and suit symbols (the symbols are drawn shapes, so they never depend on a font).

A line is a list of segments: a ``str``, or ``("suit", "H")`` for a suit symbol.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import theme
from render.fonts import draw_text, text_width
from render.pips import pip_image

Segment = str | tuple[str, str]


def suit_seg(suit: str) -> Segment:
    return ("suit", suit)


def seg_width(segments: list[Segment], size: int, bold: bool = False) -> float:
    total = 0.0
    for seg in segments:
        total += text_width(seg, size, bold) if isinstance(seg, str) else round(size * 0.82) + 2
    return total


def draw_segments(
    img: Image.Image,
    xy: tuple[float, float],
    segments: list[Segment],
    size: int,
    fill,
    *,
    bold: bool = False,
    anchor: str = "lm",
    four_colour: bool = False,
    max_width: float | None = None,
) -> float:
    """Draw ``segments`` with the vertical middle at y; ``anchor`` is ``lm``, ``mm`` or ``rm``.  Returns the width."""
    draw = ImageDraw.Draw(img)
    width = seg_width(segments, size, bold)
    if max_width is not None and width > max_width:  # shrink to fit rather than cut a contract in half
        while size > 10 and width > max_width:
            size -= 1
            width = seg_width(segments, size, bold)
    x, y = xy
    if anchor[0] == "m":
        x -= width / 2
    elif anchor[0] == "r":
        x -= width
    pip = round(size * 0.82)
    for seg in segments:
        if isinstance(seg, str):
            draw_text(draw, (x, y), seg, size, fill, bold=bold, anchor="lm")
            x += text_width(seg, size, bold)
        else:
            colour = theme.suit_colour(seg[1], four_colour, on_dark=True)
            im = pip_image(seg[1], pip, colour)
            img.paste(im, (round(x + 1), round(y - pip / 2 + size * 0.04)), im)
            x += pip + 2
    return width
