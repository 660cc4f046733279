"""Card faces drawn with Pillow: a big corner index (rank over suit) readable on a phone, a large centre symbol.

Faces are drawn once per (card, width, colour scheme) at 3x and scaled down (crisp, anti-aliased edges), then
cached; images paste them.  Every card of the four games has a face: the standard 52, the 11/12/13 of the
largest (six-player) pack, the single Joker ``JK``, the black ``BJ`` and red ``RJ`` jokers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render import theme
from render.fonts import font
from render.i18n import face_rank
from render.pips import draw_suit, star_points

SCALE = 3
ASPECT = 1.4  # height / width
JOKERS = ("JK", "BJ", "RJ")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A")


def split_card(card: str) -> tuple[str, str]:
    """``"10H"`` -> ``("10", "H")``; jokers -> ``("JK", "")``.  Accepts ``T`` for ten and lower case."""
    c = card.strip().upper()
    if c in JOKERS:
        return c, ""
    rank, suit = c[:-1], c[-1:]
    if rank == "T":
        rank = "10"
    if rank not in RANKS or suit not in "SHDC" or not suit:
        raise ValueError(f"'{card}' is not a card")
    return rank, suit


def card_height(width: int) -> int:
    return round(width * ASPECT)


def ink(card: str, four_colour: bool) -> tuple[int, int, int]:
    rank, suit = split_card(card)
    if not suit:
        return theme.JOKER_COLOURS[rank]
    return theme.suit_colour(suit, four_colour)


@lru_cache(maxsize=512)
def face(card: str, width: int, four_colour: bool = False, lang: str = "en") -> Image.Image:
    """The RGBA face of ``card`` (normalised name, e.g. ``"10H"``), ``width`` pixels wide; its corner index as the
    players of ``lang`` read it (a French king is R)."""
    rank, suit = split_card(card)
    w, h = width * SCALE, card_height(width) * SCALE
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = w * 0.08
    edge = max(SCALE, round(w * 0.012))
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=theme.CARD_FACE, outline=theme.CARD_EDGE, width=edge)
    colour = ink(card, four_colour)
    if not suit:
        _joker(d, rank, w, h, colour)
    else:
        _index(d, face_rank(rank, lang), suit, w, colour)
        _centre(d, rank, suit, w, h, colour)
    return img.resize((width, card_height(width)), Image.Resampling.LANCZOS)


def index_size(rank: str, width: float) -> float:
    """The font size of the corner rank on a card ``width`` pixels wide (10, 11, 12, 13 a little smaller, so the
    index column stays slim): what a player reads when cards overlap."""
    return width * (0.27 if len(rank) == 2 else 0.32)


def _index(d: ImageDraw.ImageDraw, rank: str, suit: str, w: int, colour) -> None:
    """Rank over suit in the top-left corner: the part of the card that shows when cards overlap in a hand."""
    col = w * 0.2  # centre of the index column
    f = font(round(index_size(rank, w)), True)
    d.text((col, w * 0.035), rank, font=f, fill=colour, anchor="mt")
    draw_suit(d, suit, col, w * 0.5, w * 0.22, colour)


def _centre(d: ImageDraw.ImageDraw, rank: str, suit: str, w: int, h: int, colour) -> None:
    # One index only (top-left, the corner that shows in a fanned hand); the centre symbol sits beside it.
    cx, cy = w * 0.62, h * 0.58
    if rank in ("J", "Q", "K"):
        # A court card: a tinted frame holding a crown/cap over a large suit symbol.
        box = (w * 0.38, h * 0.08, w * 0.9, h * 0.92)
        tint = tuple(int(255 - (255 - c) * 0.13) for c in colour)
        d.rounded_rectangle(box, radius=w * 0.05, fill=tint, outline=colour, width=max(2, round(w * 0.015)))
        draw_suit(d, suit, (box[0] + box[2]) / 2, h * 0.62, w * 0.4, colour)
        _headgear(d, rank, (box[0] + box[2]) / 2, h * 0.3, w * 0.36, colour)
        return
    size = {"A": 0.66}.get(rank, 0.56)
    draw_suit(d, suit, cx, cy, w * size, colour)


def _headgear(d: ImageDraw.ImageDraw, rank: str, cx: float, cy: float, size: float, colour) -> None:
    """A crown for the king, a tiara for the queen, a feathered cap for the jack: tells courts apart at a glance."""
    s = size / 2
    if rank == "K":
        pts = [(-1, 0.5), (-1, -0.55), (-0.5, 0.0), (0, -0.75), (0.5, 0.0), (1, -0.55), (1, 0.5)]
        d.polygon([(cx + x * s, cy + y * s) for x, y in pts], fill=colour)
    elif rank == "Q":
        pts = [(-0.9, 0.5), (-0.75, -0.2), (-0.35, 0.1), (0, -0.45), (0.35, 0.1), (0.75, -0.2), (0.9, 0.5)]
        d.polygon([(cx + x * s, cy + y * s) for x, y in pts], fill=colour)
        for x, y in ((-0.75, -0.2), (0, -0.45), (0.75, -0.2)):
            r = 0.16 * s
            d.ellipse((cx + x * s - r, cy + y * s - r * 2, cx + x * s + r, cy + y * s), fill=colour)
    else:  # J
        d.pieslice((cx - s * 0.85, cy - s * 0.6, cx + s * 0.85, cy + s * 1.1), 180, 360, fill=colour)
        d.polygon([(cx + x * s, cy + y * s) for x, y in [(0.3, -0.3), (1.1, -0.95), (0.6, -0.1)]], fill=colour)


def _joker(d: ImageDraw.ImageDraw, rank: str, w: int, h: int, colour) -> None:
    # The word JOKER down the left edge (shows when cards overlap) and a large star.
    size = round(w * 0.17)
    f = font(size, True)
    y = w * 0.05
    for letter in "JOKER":
        d.text((w * 0.15, y), letter, font=f, fill=colour, anchor="mt")
        y += size * 1.02
    cx, cy = w * 0.58, h * 0.52
    outer = w * 0.33
    if rank == "BJ":  # the small joker: an outlined star
        d.polygon(star_points(cx, cy, outer, outer * 0.45), outline=colour, width=max(3, round(w * 0.03)))
    elif rank == "RJ":  # the big joker: a filled star with a glow
        d.polygon(star_points(cx, cy, outer * 1.1, outer * 0.5), fill=(255, 205, 60))
        d.polygon(star_points(cx, cy, outer, outer * 0.45), fill=colour)
    else:  # the single Joker: a two-tone star
        d.polygon(star_points(cx, cy, outer, outer * 0.45), fill=colour)
        d.polygon(star_points(cx, cy, outer * 0.5, outer * 0.22), fill=(255, 205, 60))
    label = {"JK": "", "BJ": "小", "RJ": "大"}[rank]  # the Chinese names: small/big king
    if label:
        d.text((cx, h * 0.9), label, font=font(round(w * 0.16), True), fill=colour, anchor="mb")


@lru_cache(maxsize=512)
def dimmed(card: str, width: int, four_colour: bool = False, lang: str = "en") -> Image.Image:
    """The face greyed out: a card that may not be played now."""
    img = face(card, width, four_colour, lang)
    grey = Image.new("RGBA", img.size, (70, 74, 82, 255))
    out = Image.blend(img, grey, 0.5)
    out.putalpha(img.getchannel("A"))
    return out


@lru_cache(maxsize=32)
def shadow(width: int, blur: int = 4) -> Image.Image:
    """A soft shadow the size of a card (RGBA, black), pasted slightly offset under it."""
    w, h = width, card_height(width)
    pad = blur * 2
    img = Image.new("L", (w + 2 * pad, h + 2 * pad), 0)
    ImageDraw.Draw(img).rounded_rectangle((pad, pad, pad + w, pad + h), radius=w * 0.08, fill=140)
    alpha = img.filter(ImageFilter.GaussianBlur(blur))
    out = Image.new("RGBA", alpha.size, (0, 0, 0, 255))
    out.putalpha(alpha)
    return out


Piece = tuple[Image.Image, int, int]  # RGBA, and its offset from the card's top-left corner


@dataclass(frozen=True)
class Pieces:
    """A card and its shadow cut for pasting fast: blending a whole RGBA card costs ~40 µs, but a face is opaque
    but for its rounded corners, and the shadow shows only round it.  So the face's opaque middle rows are copied
    as they are, and only the face's top and bottom strips and the shadow's ring are blended: the same pixels."""

    core: Image.Image  # RGB: the face's rows from ``core_top`` that are opaque across the whole width
    core_top: int
    under: tuple[Piece, ...]  # the shadow's ring, blended before the core
    over: tuple[Piece, ...]  # the face's top and bottom strips, blended after it


@lru_cache(maxsize=1024)
def pieces(card: str, width: int, four_colour: bool = False, dim: bool = False, lang: str = "en") -> Pieces:
    img = (dimmed if dim else face)(card, width, four_colour, lang)
    alpha = img.getchannel("A")
    top = bottom = run = 0  # the longest run of opaque rows
    for y in range(img.height + 1):
        if y < img.height and alpha.crop((0, y, img.width, y + 1)).getextrema()[0] == 255:
            run += 1
        elif run > bottom - top:
            top, bottom, run = y - run, y, 0
        else:
            run = 0
    sh = shadow(width)
    pad = (sh.width - width) // 2
    sx, sy = 2 - pad, 3 - pad  # the shadow's corner from the card's
    ring = [
        (0, 0, sh.width, top - sy),
        (0, bottom - sy, sh.width, sh.height),  # above and below the core
        (0, top - sy, -sx, bottom - sy),
        (width - sx, top - sy, sh.width, bottom - sy),
    ]  # beside it
    under = [(sh.crop(box), sx + box[0], sy + box[1]) for box in ring if box[2] > box[0] and box[3] > box[1]]
    over = [(img.crop((0, 0, width, top)), 0, 0), (img.crop((0, bottom, width, img.height)), 0, bottom)]
    core = img.crop((0, top, width, bottom)).convert("RGB")
    return Pieces(core, top, _visible(under), _visible(over))


def _visible(cut: list[Piece]) -> tuple[Piece, ...]:
    return tuple(p for p in cut if p[0].width and p[0].height and p[0].getchannel("A").getbbox() is not None)


def paste_card(
    canvas: Image.Image,
    card: str,
    x: int,
    y: int,
    width: int,
    four_colour: bool = False,
    dim: bool = False,
    lang: str = "en",
) -> None:
    """Paste ``card``'s face with its shadow, top-left corner at (x, y)."""
    cut = pieces(normalise(card), width, four_colour, dim, lang)
    # Straight to the pixels: what ``Image.paste`` does for an RGB canvas and RGB or RGBA pieces, without its
    # checks, which cost more than the blending of the small pieces (a hand pastes ~50).
    if canvas.mode != "RGB" or canvas.readonly:
        raise ValueError("paste_card draws on a writable RGB image")
    canvas.load()
    target = canvas.im
    for piece, dx, dy in cut.under:
        target.paste(piece.im, (x + dx, y + dy, x + dx + piece.width, y + dy + piece.height), piece.im)
    if cut.core.height:
        core = cut.core
        target.paste(core.im, (x, y + cut.core_top, x + core.width, y + cut.core_top + core.height))
    for piece, dx, dy in cut.over:
        target.paste(piece.im, (x + dx, y + dy, x + dx + piece.width, y + dy + piece.height), piece.im)


def normalise(card: str) -> str:
    rank, suit = split_card(card)
    return rank + suit


def short_name(card: str) -> str:
    """The name a player types in a command: ``10H``, ``JK``..."""
    return normalise(card)
