"""The table's PNG, composed in the fixed palette from parts kept drawn (``build_table`` draws the same picture in
RGB, for the replays' animations and the tests).

A table's picture is an empty table (the page and the felt), the top in three bands (the title, contract and trump;
the scores; the auction strip), and a few elements on the felt: the seats' plates, the rows of cards played, a
label or two.  Between two pictures of a table most of them are the same: a card played adds one row of cards and
moves the turn from one plate to another; the scores' band changes once a trick, the others once a bid.  So each
part is kept, already mapped to the fixed palette (``render.palette``), in a per-process cache keyed by everything
it shows; a picture copies the empty table, pastes the parts, and writes the rows.  Only a part not seen lately is
drawn (in RGB, on its background) and mapped.  The bot sends each table's pictures to one render worker
(``bot/presentation/render_pool.py``), so a worker's caches hold its own tables' parts.

An element on the felt is drawn on the felt's colour and pasted where it differs from it: its soft shadow is blended
with the felt as in ``build_table``; where an element lies over another (a label on a card) it is opaque.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import cache, lru_cache

from PIL import Image, ImageDraw

from render import auction, theme
from render import table as tb
from render.palette import index_of, to_palette
from render.png import encode_fixed
from render.recent import Recent

# The tops' bands, one byte a pixel: 50-130 KB each, about 300 KB a table.  A render worker draws its tables in
# turn, so the bands must hold all of them or they hold none when asked again (96 MB: ~300 tables a worker).
TOP_BYTES = 96 * 1024 * 1024
PART_BYTES = 48 * 1024 * 1024
PART_MARGIN = 4  # pixels of page kept around a band's part: less than the 10 between two chips or two boxes
ELEMENT_CACHE_SIZE = 1024  # plates, rows of cards, labels: ~20-60 KB each


class Latest:
    """The latest band drawn in each slot (a table's scores, say: its title and names tell the table), slots least
    recently used dropped past ``limit`` bytes.  A table's older bands are never asked for again: replaced at once,
    they do not push other tables' bands out while they wait their turn to be dropped."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self.items: OrderedDict[tuple, tuple[str, Image.Image]] = OrderedDict()
        self.hits = self.misses = 0  # for benchmarks
        self._lock = threading.Lock()  # as render.recent.Recent's: shared by drawing threads, not while drawing

    def get(self, slot: tuple, key: str, make: Callable[[], Image.Image]) -> Image.Image:
        with self._lock:
            found = self.items.get(slot)
            if found is not None and found[0] == key:
                self.items.move_to_end(slot)
                self.hits += 1
                return found[1]
            self.misses += 1
        band = make()
        with self._lock:
            replaced = self.items.pop(slot, None)  # read again: another thread may have drawn this slot meanwhile
            if replaced is not None:
                self.total -= _weight(replaced[1])
            self.items[slot] = (key, band)
            self.total += _weight(band)
            while self.total > self.limit and len(self.items) > 1:
                self.total -= _weight(self.items.popitem(last=False)[1][1])
        return band


def _weight(band: Image.Image) -> int:
    return band.width * band.height  # one byte a pixel


_bands = Latest(TOP_BYTES)
# The bands' parts (score chips, contract and trump boxes, title rows), one byte a pixel (~25-50 KB each): a
# worker's tables' current parts, five to seven a table.
_parts: Recent[str, tuple[Image.Image, Image.Image | None]] = Recent(
    PART_BYTES, lambda part: _weight(part[0]) * (1 if part[1] is None else 2)
)
_elements: Recent[tuple, Element] = Recent(ELEMENT_CACHE_SIZE)


# The canvas is one column wider than the picture: column 0 holds each row's PNG filter byte (0, "none"), so its
# bytes are the PNG's rows as they are (``render.png.framed`` without the copies: ~0.3 ms a table).
LEFT = 1


@lru_cache(maxsize=16)
def _empty_table(felt_top: int, felt_h: int, height: int) -> Image.Image:
    canvas = Image.new("P", (LEFT + tb.W, height), 0)
    canvas.paste(to_palette(tb._background(felt_top, felt_h, height)), (LEFT, 0))
    return canvas


@cache
def _not_colour(colour: theme.Colour) -> list[int]:
    """A lookup table: 0 for ``colour``'s palette index, 255 for every other."""
    index = index_of(colour)
    return [0 if i == index else 255 for i in range(256)]


def _not_where(mapped: Image.Image, colour: theme.Colour) -> Image.Image:
    """The mode-"1" mask of where the palette image ``mapped`` is not ``colour``: its indices looked up straight
    (``Image.point`` would first copy its table through Python, half the cost on an element's mask)."""
    return mapped._new(mapped.im.point(_not_colour(colour), "1"))


class Element:
    """An element of the felt drawn on its ground's colour (the felt's; a plate's, for the line on it) and mapped
    to the palette; the mask of where it is not the ground is made when first wanted (an element over bare felt is
    pasted whole: its felt is the felt under it)."""

    __slots__ = ("mapped", "ground", "_mask")

    def __init__(self, mapped: Image.Image, ground: theme.Colour) -> None:
        self.mapped = mapped
        self.ground = ground
        self._mask: Image.Image | None = None

    @property
    def mask(self) -> Image.Image:
        """Mode "1" (each pixel 0 or 255, as the "L" ones were): Pillow pastes through it by copying the pixels it
        lets through, where an "L" mask is blended pixel by pixel to the same result."""
        if self._mask is None:
            self._mask = _not_where(self.mapped, self.ground)
        return self._mask


def _element(width: int, height: int, dx: int, dy: int, paint: tb.Paint, ground: theme.Colour) -> Element:
    img = Image.new("RGB", (width, height), ground)
    paint(img, ImageDraw.Draw(img), dx, dy)
    return Element(to_palette(img), ground)


@lru_cache(maxsize=4096)
def _bare_felt(empty: tuple[int, int, int], rect: tuple[int, int, int, int]) -> bool:
    """Whether the empty table of this size (``_empty_table``'s arguments) is felt, all of it, within ``rect``."""
    x0, y0, x1, y1 = rect
    return _empty_table(*empty).crop((LEFT + x0, y0, LEFT + x1, y1)).getextrema() == (index_of(theme.FELT),) * 2


def _meet(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _placing(canvas: Image.Image, empty: tuple[int, int, int]) -> tb.Put:
    """A ``Put`` that pastes each element, kept drawn, onto ``canvas`` (a palette image on the empty table
    ``empty``): whole where it lies on bare felt and on no element placed before it, else through its mask (a
    paste through a mask costs ten times as much)."""
    placed: list[tuple[int, int, int, int]] = []

    def put(
        key: tuple, box: tuple[float, float, float, float], paint: tb.Paint, ground: theme.Colour = theme.FELT
    ) -> None:
        # Shifted by even pixels: Python rounds halves to even, so an odd shift would move some edges by one.
        x0, y0 = 2 * math.floor(box[0] / 2), 2 * math.floor(box[1] / 2)
        width, height = math.ceil(box[2]) - x0, math.ceil(box[3]) - y0
        # The element's place within a pixel changes how its edges round: part of the key.
        full = (key, ground, box[0] - x0, box[1] - y0, width, height)
        element = _elements.get(full, lambda: _element(width, height, -x0, -y0, paint, ground))
        rect = (x0, y0, x0 + width, y0 + height)
        if ground == theme.FELT and _bare_felt(empty, rect) and not any(_meet(rect, other) for other in placed):
            canvas.paste(element.mapped, (LEFT + x0, y0))
        else:
            canvas.paste(element.mapped, (LEFT + x0, y0), element.mask)
        placed.append(rect)

    return put


def _band(
    slot: tuple, key: tuple, height: int, paint: Callable[[Image.Image, ImageDraw.ImageDraw], None]
) -> Image.Image:
    """A band of the top, the page's width and ``height`` rows, drawn on the page's colour and kept mapped."""

    def draw() -> Image.Image:
        img = Image.new("RGB", (tb.W, height), theme.PAGE)
        paint(img, ImageDraw.Draw(img))
        return to_palette(img)

    return _bands.get(slot, repr(key), draw)


def _part(key: tuple, box: tuple[float, float, float, float], paint: Callable[..., None], *, masked: bool = False
          ) -> tuple[Image.Image, Image.Image | None, tuple[int, int]]:  # fmt: skip
    """A part of a band (a score chip, the contract box): ``paint(img, draw, box)`` draws it in ``box``, here on the
    page with ``PART_MARGIN`` pixels of page around it, mapped and kept by ``key``; with (``masked``) the mask of
    where it is not the page, and where it goes in the band."""
    # Shifted by even pixels, as the felt's elements are (``_placing``), so its edges round as on the whole band.
    x0, y0 = max(0, 2 * math.floor((box[0] - PART_MARGIN) / 2)), max(0, 2 * math.floor((box[1] - PART_MARGIN) / 2))
    width, height = math.ceil(box[2] + PART_MARGIN) - x0, math.ceil(box[3] + PART_MARGIN) - y0
    shifted = (box[0] - x0, box[1] - y0, box[2] - x0, box[3] - y0)

    def draw() -> tuple[Image.Image, Image.Image | None]:
        img = Image.new("RGB", (width, height), theme.PAGE)
        paint(img, ImageDraw.Draw(img), shifted)
        mapped = to_palette(img)
        if not masked:
            return mapped, None
        return mapped, _not_where(mapped, theme.PAGE)

    mapped, mask = _parts.get(repr((key, masked, shifted, width, height)), draw)  # repr: segments are lists
    return mapped, mask, (x0, y0)


def _compose(height: int, parts: list[tuple[Image.Image, Image.Image | None, tuple[int, int]]]) -> Image.Image:
    """A band of the page's width from its parts in the order they are drawn: a masked part covers what it draws
    (not its margin of page) over the parts before it, as on the whole picture; the others, which overlap nothing
    drawn, are pasted whole (a mask costs ~30 µs a paste)."""
    band = Image.new("P", (tb.W, height), index_of(theme.PAGE))
    for mapped, mask, at in parts:
        band.paste(mapped, at, mask)
    return band


def _scores_band(shown: tuple, height: int) -> Image.Image:
    """The scores' band, from its label and one chip per side, each kept drawn: a trick taken redraws the chip of
    the side that took it, not the others'."""
    label, chip_h, chips = shown
    parts = [
        _part(("scores", label), (0, 0, tb.W, tb.LABEL + 18), lambda img, draw, at: tb._scores_label(draw, 0, label))
    ]
    for side, (chip, box) in enumerate(zip(chips, tb.score_chip_boxes(0, chip_h, len(chips)), strict=True)):
        parts.append(_part(("chip", side, chip), box,
                           lambda img, draw, at, s=side, c=chip: tb._score_chip(draw, at, s, *c)))  # fmt: skip
    return _compose(height, parts)


def _facts_band(title_row: tuple, contract: tuple, trump: tuple, four_colour: bool) -> Image.Image:
    """The top rows (``SCORES_TOP``), from the title row and the contract and trump boxes, each kept drawn: a bid
    redraws the contract box, not the title or the trump."""
    return _compose(tb.SCORES_TOP, [
        _part(("title", title_row), (0, 0, tb.W, tb.TOP_ROW), lambda img, draw, at: tb._draw_title_row(draw, title_row)
              ),
        # The title's descenders may reach into the boxes' margins: the boxes cover only what they draw.
        _part(("contract", contract, four_colour), tb.CONTRACT_BOX, masked=True,
              paint=lambda img, draw, at: tb._draw_contract_box(img, draw, at[:3], contract, four_colour)),
        _part(("trump", trump, four_colour), tb.TRUMP_BOX, masked=True,
              paint=lambda img, draw, at: tb._draw_trump_box(img, draw, at[:3], trump, four_colour)),
    ])  # fmt: skip


def _put_top(canvas: Image.Image, state, names, layout: tb.Layout, *, title, clock, lang, four_colour) -> None:
    """The header and the auction strip for ``state`` (the rows above the felt), pasted from their bands: the title,
    contract and trump; the scores; the auction.  Each band starts on an even row, so that its drawing, shifted up
    to the band's top, rounds as it does on the whole picture."""
    table = (title, *names)  # the slot: one table's bands replace each other
    # Keyed by what its parts show, as the scores' band is: a change of the state that shows nowhere draws nothing.
    title_row = tb.title_shown(state, title=title, clock=clock, lang=lang)
    contract, trump = tb.contract_shown(state, names, lang), tb.trump_shown(state, lang)
    facts_key = repr(("facts", title_row, contract, trump, four_colour))
    facts = _bands.get(("facts", *table), facts_key, lambda: _facts_band(title_row, contract, trump, four_colour))
    canvas.paste(facts, (LEFT, 0))
    # Keyed by what the scores show, not by the state: a bid changes the state (and the other bands), not them.
    on_scores = tb.scores_shown(state, names, lang)
    height = layout.header_h - tb.SCORES_TOP
    scores_key = repr(("scores", on_scores, height))
    scores = _bands.get(("scores", *table), scores_key, lambda: _scores_band(on_scores, height))
    canvas.paste(scores, (LEFT, tb.SCORES_TOP))
    if not layout.call_rows:
        return
    start = layout.header_h - layout.header_h % 2
    total = len(auction.calls_shown(state))

    def strip(img: Image.Image, draw: ImageDraw.ImageDraw) -> None:
        auction.draw(img, layout.header_h - start, tb.MARGIN, tb.W - tb.MARGIN, [list(line) for line in layout.calls],
                     total, lang, four_colour, layout.call_rows)  # fmt: skip

    # Keyed by what ``strip`` draws (the calls' lines, in this language and these colours, in this box), not by the
    # state: the contract, the trump and the phase change it no more than a trick does.
    key = ("auction", layout.calls, total, lang, four_colour, layout.header_h, layout.felt_top, layout.call_rows)
    canvas.paste(_band(("auction", *table), key, layout.felt_top - start, strip), (LEFT, start))


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
    scene = tb._scene(state, names, show_last_trick, last_trick, lang)
    layout = scene.layout
    empty = (layout.felt_top, layout.felt_h, layout.height)
    canvas = _empty_table(*empty).copy()
    _put_top(canvas, state, names, layout, title=title, clock=clock, lang=lang, four_colour=four_colour)
    tb._draw_felt(_placing(canvas, empty), state, names, scene, to_move=to_move, lang=lang, four_colour=four_colour)
    band = round(tb.band_top(layout))
    if band < layout.height:  # an open misère hand, or the last trick beside a trick in progress
        img = Image.new("RGB", (tb.W, layout.height - band), theme.PAGE)
        tb._draw_band(img, ImageDraw.Draw(img), state, names, scene, tb.band_top(layout) - band, lang=lang,
                      four_colour=four_colour)  # fmt: skip
        canvas.paste(to_palette(img), (LEFT, band))
    canvas.paste(0, (0, 0, LEFT, layout.height))  # the filter bytes, should an element's edge have strayed there
    return encode_fixed(tb.W, [canvas.tobytes()])
