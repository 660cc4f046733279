"""One fixed 256-colour palette for the table and hand pictures, built once from the theme.

Choosing a palette for each picture (an octree over a sample of its pixels) cost about a third of a table's CPU.
These pictures are drawn from a known set of colours: flat theme colours, and the anti-aliased edges between a
text, pip or card ink and the background it is drawn on, between a card's edge and what lies under it, and a card's
soft shadow over the felt, the gold or another card.  The palette holds each flat colour exactly and a few steps
of each of those blends, so mapping a picture to it moves a pixel by a level or two at most on the edges, and not
at all on the flat areas (tests/test_render_palette.py measures the mean error on every game's table and hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from PIL import Image

from render import theme
from render.theme import Colour

# Inks drawn on the plate of the player whose turn it is (gold), the dealer's button, the star's outline and the
# plates' shadow (render/table.py), the joker's gold (render/cards.py).
INK_ON_GOLD: Colour = (25, 25, 30)
SUB_ON_GOLD: Colour = (50, 40, 10)
PLATE_SHADOW: Colour = (15, 50, 33)
STAR_EDGE: Colour = (90, 70, 10)
DEALER_EDGE: Colour = (60, 60, 60)
DEALER_INK: Colour = (20, 20, 20)
JOKER_GOLD: Colour = (255, 205, 60)
DIM_GREY: Colour = (70, 74, 82)  # what an unplayable card is blended with (render/cards.py's ``dimmed``)
SHADOW_ALPHA = 140 / 255  # the darkest point of a card's shadow (render/cards.py's ``shadow``)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved a fraction ``t`` of the way to ``b``."""
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def ramp(a: Colour, b: Colour, steps: int) -> list[Colour]:
    """``steps`` colours evenly between ``a`` and ``b`` (both excluded)."""
    return [mix(a, b, i / (steps + 1)) for i in range(1, steps + 1)]


def _card_inks() -> list[Colour]:
    inks = {*theme.SUIT_COLOURS.values(), *theme.SUIT_COLOURS_FOUR.values(), *theme.JOKER_COLOURS.values()}
    return sorted(inks)


def _dim(c: Colour) -> Colour:
    """``c`` as ``Image.blend`` halves it towards the grey (it truncates)."""
    return (int(c[0] + (DIM_GREY[0] - c[0]) * 0.5), int(c[1] + (DIM_GREY[1] - c[1]) * 0.5),
            int(c[2] + (DIM_GREY[2] - c[2]) * 0.5))  # fmt: skip


@cache
def colours() -> tuple[Colour, ...]:
    """The palette's colours, flat ones first; at most 256."""
    flat = [theme.PAGE, theme.PANEL, theme.PANEL_LIGHT, theme.FELT, theme.FELT_DARK, theme.FELT_EDGE, theme.TEXT,
            theme.TEXT_DIM, theme.GOLD, theme.DEALER, theme.GOOD, theme.BAD, theme.CARD_FACE, theme.CARD_EDGE,
            INK_ON_GOLD, SUB_ON_GOLD, PLATE_SHADOW, STAR_EDGE, DEALER_EDGE, DEALER_INK, JOKER_GOLD,
            *theme.SIDE_COLOURS, *theme.SUIT_COLOURS_ON_DARK_FOUR.values(),
            *theme.SUIT_COLOURS_ON_DARK.values()]  # fmt: skip
    inks = _card_inks()
    tints = [mix(c, (255, 255, 255), 0.87) for c in inks]  # a court card's frame (render/cards.py's ``_centre``)
    face_colours = [theme.CARD_FACE, theme.CARD_EDGE, JOKER_GOLD, *inks, *tints]
    flat += face_colours[2:] + [_dim(c) for c in face_colours]
    blends: list[Colour] = []
    # Text and the symbols in it on the backgrounds it is drawn on: 5 steps.
    on_dark = {theme.TEXT, theme.TEXT_DIM, theme.GOLD, *theme.SUIT_COLOURS_ON_DARK_FOUR.values()}
    for fg in sorted(on_dark):
        for bg in (theme.PAGE, theme.PANEL):
            blends += ramp(fg, bg, 5)
    for fg, bg in ((theme.TEXT, theme.FELT), (theme.TEXT_DIM, theme.FELT), (theme.GOLD, theme.FELT),
                   (INK_ON_GOLD, theme.GOLD), (SUB_ON_GOLD, theme.GOLD), (DEALER_INK, theme.DEALER),
                   (DEALER_EDGE, theme.DEALER), (STAR_EDGE, theme.GOLD)):  # fmt: skip
        blends += ramp(fg, bg, 5)
    # A card's inks on its face (plain and dimmed): 4 steps; a court card's ink on its tint: 2.
    for ink, tint in zip(inks, tints, strict=True):
        blends += ramp(ink, theme.CARD_FACE, 4) + ramp(_dim(ink), _dim(theme.CARD_FACE), 4)
        blends += ramp(ink, tint, 2)
    blends += ramp(JOKER_GOLD, theme.CARD_FACE, 2) + ramp(theme.CARD_EDGE, theme.CARD_FACE, 2)
    # A card's shadow over what lies under it (more steps where it is most often: the felt, a card, the gold),
    # and the card's rounded edge over the same.
    for under, steps in ((theme.FELT, 7), (theme.GOLD, 6), (theme.CARD_FACE, 6), (theme.PAGE, 3),
                         (_dim(theme.CARD_FACE), 5)):  # fmt: skip
        dark = mix(under, (0, 0, 0), SHADOW_ALPHA)
        blends += ramp(under, dark, steps) + [dark]
        blends += ramp(theme.CARD_EDGE, mix(under, (0, 0, 0), SHADOW_ALPHA / 2), 2)
    out = list(dict.fromkeys(flat + blends))
    if len(out) > 256:
        raise ValueError(f"the fixed palette needs {len(out)} colours, more than 256")
    # Pillow maps a pixel through a cache of cells four levels wide, so a blend close to a flat colour can take the
    # flat colour's pixels (the dimmed card face went to a shadow's grey).  Such blends give way.
    kept = set(flat)
    probe = Image.new("RGB", (len(kept), 1))
    probe.putdata(sorted(kept))
    for _ in range(len(out)):
        mapped = probe.quantize(palette=_holder(out), dither=Image.Dither.NONE).convert("RGB")
        thieves = {c for want, c in zip(sorted(kept), _pixels(mapped), strict=True) if c != want and c not in kept}
        if not thieves:
            return tuple(out)
        out = [c for c in out if c not in thieves]
    raise ValueError("the fixed palette cannot map its own flat colours")


def _pixels(img: Image.Image) -> list[Colour]:
    return [img.getpixel((x, 0)) for x in range(img.width)]  # type: ignore[misc]


def _holder(cs: Sequence[Colour]) -> Image.Image:
    """A 1x1 ``P`` image carrying the colours ``cs`` as its palette, as ``Image.quantize(palette=...)`` wants it."""
    flat = [v for c in cs for v in c]
    flat += list(cs[0]) * (256 - len(cs))  # unused entries repeat the first colour: never nearer than it
    img = Image.new("P", (1, 1), 0)
    img.putpalette(flat)
    return img


@cache
def index_of(colour: Colour) -> int:
    """The palette index of one of its flat colours."""
    return colours().index(colour)


def felt_index() -> int:
    return index_of(theme.FELT)


@cache
def palette_image() -> Image.Image:
    """The fixed palette, as ``Image.quantize(palette=...)`` wants it."""
    return _holder(colours())


@cache
def fixed_palette_bytes() -> bytes:
    """The palette's 256 entries as a PNG's PLTE chunk holds them."""
    return bytes(palette_image().getpalette() or [])


def to_palette(img: Image.Image) -> Image.Image:
    """``img`` (RGB) mapped to the fixed palette, each pixel to its nearest colour."""
    return img.quantize(palette=palette_image(), dither=Image.Dither.NONE)
