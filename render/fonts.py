"""The bundled font (CardTable Sans, a Noto Sans CJK SC subset under the OFL) and text helpers.

Fonts are read from render's own package data only; nothing depends on the system's fonts.
"""

from __future__ import annotations

import io
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_FILES = {False: "CardTableSans-Regular.otf", True: "CardTableSans-Bold.otf"}


def font_resource(bold: bool = False):
    return resources.files("render").joinpath("assets", "fonts", FONT_FILES[bold])


@cache
def _font_bytes(bold: bool) -> bytes:
    return font_resource(bold).read_bytes()


@lru_cache(maxsize=128)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The bundled font at ``size`` pixels, cached (opening a face costs a millisecond or two)."""
    res = font_resource(bold)
    if isinstance(res, Path):  # installed as files: let FreeType read the file lazily
        return ImageFont.truetype(str(res), size)
    return ImageFont.truetype(io.BytesIO(_font_bytes(bold)), size)  # zipped install


@lru_cache(maxsize=8192)
def text_width(text: str, size: int, bold: bool = False) -> float:
    """The advance of ``text``, cached: laying out a line in the CJK font costs ~20 µs, and a table measures the
    same names, labels and numbers some forty times per picture."""
    return font(size, bold).getlength(text)


@lru_cache(maxsize=4096)
def fit_text(text: str, width: float, size: int, bold: bool = False) -> str:
    """``text``, shortened with an ellipsis until it fits in ``width`` pixels.  A hand's title (the player, the
    table, the deal) is shortened anew for each width the hand takes as it is played out: by halves, with the
    widths kept, rather than a letter and a layout at a time."""
    if text_width(text, size, bold) <= width:
        return text
    fits, over = 0, len(text)  # the longest start that fits with its ellipsis, found by halves: a layout each
    while over - fits > 1:
        middle = (fits + over) // 2
        if text_width(text[:middle] + "…", size, bold) > width:  # kept: a hand's next picture asks again
            over = middle
        else:
            fits = middle
    return text[:fits] + "…"


def fit_size(text: str, width: float, size: int, bold: bool = False, smallest: int = 10) -> int:
    """The largest size up to ``size`` at which ``text`` fits in ``width`` pixels (not below ``smallest``)."""
    while size > smallest and text_width(text, size, bold) > width:
        size -= 1
    return size


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill,
    *,
    bold: bool = False,
    anchor: str = "la",
    max_width: float | None = None,
) -> None:
    if max_width is not None:
        text = fit_text(text, max_width, size, bold)
    if not text:
        return
    mask, dx, dy = text_mask(text, size, bold, anchor)
    draw.bitmap((round(xy[0]) + dx, round(xy[1]) + dy), mask, fill=fill)


@lru_cache(maxsize=4096)
def text_mask(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """The anti-aliased coverage of ``text`` and its offset from the anchor point, cached: a bot redraws the same
    names, labels and numbers on every move, and rasterising CJK-font text is the costliest part of an image."""
    # One layout and rasterisation (``getmask2``, what ``ImageDraw.text`` does inside), where measuring the box first
    # (``getbbox``) and drawing into it laid the text out twice: ~30 % of a new string's cost, same pixels.
    f = font(size, bold)
    core, (left, top) = f.getmask2(text, "L", anchor=anchor)
    if core.size[0] and core.size[1]:
        return Image.Image()._new(core), left, top
    # Nothing drawn (spaces): an empty mask the size of the text's box, as Pillow measures it.
    left, top, right, bottom = (int(edge) for edge in f.getbbox(text, anchor=anchor))
    return Image.new("L", (max(1, right - left), max(1, bottom - top)), 0), left, top


def has_glyphs(text: str, bold: bool = False) -> bool:
    """True when the bundled font draws every non-space character of ``text`` (no tofu boxes)."""
    f = font(24, bold)
    return all(ch.isspace() or _has_glyph(f, ch) for ch in text)


def _has_glyph(f: ImageFont.FreeTypeFont, ch: str) -> bool:
    # A missing glyph maps to glyph 0 (.notdef); its mask differs from a real glyph's.  Compare with a character
    # that is surely absent (a private-use code point).
    return f.getmask(ch).getbbox() != f.getmask("\ue000").getbbox() or ch == "\ue000"
