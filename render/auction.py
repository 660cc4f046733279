"""The auction on the table picture: who bid what, who passed, who countered, in the order everyone heard it, as a
strip between the header and the felt.  It stays in view through the play, as the table message's text does, in the
games whose ``GameType`` says the auction is shown on the table.

The calls flow left to right and wrap; at most ``MAX_LINES`` lines are drawn (the earliest calls give way to "…",
the table message's text keeps them all).  Every word is drawn at the table's smallest size or more, so it stays
readable on a phone (tests/test_render_layout.py)."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from render import theme
from render.fonts import draw_text, fit_text, text_width
from render.state import contract_segments
from render.text import Segment, draw_segments, seg_width, suit_seg
from rules.registry import lookup

SIZE = 24  # the table's smallest size: 12 px at 400 px wide
LINE_H = 38
PAD = 10
GAP = 26  # between two calls, with a dot in the middle
NAME_W = 150  # a long name is cut to this, so that one call never takes a line
MAX_LINES = 3
PHASES = ("bidding", "exchange", "trump", "play")

# The few words of a call, in the table's languages (English when one is missing).
WORDS: dict[str, dict[str, str]] = {
    "auction": {"en": "Auction", "fr": "Enchères", "zh": "叫牌"},
    "pass": {"en": "pass", "fr": "passe", "zh": "不叫"},
    "counter": {"en": "counter ×2", "fr": "contre ×2", "zh": "加倍 ×2"},
    "recounter": {"en": "recounter ×4", "fr": "surcontre ×4", "zh": "再加倍 ×4"},
    "keep": {"en": "keeps", "fr": "garde", "zh": "保留"},
    "trump": {"en": "trump", "fr": "atout", "zh": "主"},
}


def word(key: str, lang: str) -> str:
    entry = WORDS.get(key)
    return key if entry is None else entry.get(lang) or entry["en"]


@dataclass(frozen=True)
class Call:
    """One call as drawn: its player's name, what they said, in which colour, and its width on the canvas."""

    name: str
    said: list[Segment]
    colour: tuple[int, int, int]
    width: float


def calls_shown(state: dict) -> list[dict]:
    """The calls to show: those of a game that shows its auction, from the bidding to the end of the play."""
    found = lookup(state.get("game", ""))
    if found is None or not found.auction_on_table or state.get("phase") not in PHASES:
        return []
    return [c for c in state.get("auction") or [] if isinstance(c, dict) and isinstance(c.get("seat"), int)]


def said(call: dict, lang: str) -> tuple[list[Segment], tuple[int, int, int]]:
    """What a call says ("80 ♦", "pass", "counter ×2") and its colour: a pass dim, a counter in gold."""
    kind = call.get("type")
    if kind == "bid":
        segs = contract_segments({k: v for k, v in call.items() if k != "seat"}, lang)
        return [s.strip() if isinstance(s, str) and i == len(segs) - 1 else s for i, s in enumerate(segs)], theme.TEXT
    if kind == "pass":
        return [word("pass", lang)], theme.TEXT_DIM
    if kind in ("counter", "recounter"):
        return [word(str(kind), lang)], theme.GOLD
    if kind == "trump" and call.get("suit") in ("S", "H", "D", "C"):
        return [word("trump", lang) + " ", suit_seg(call["suit"])], theme.TEXT
    return [word(str(kind), lang)], theme.TEXT


def _names_of(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"#{seat + 1}"


def lines(state: dict, names: list[str], lang: str, width: float) -> list[list[Call]]:
    """The calls laid out in lines of ``width`` (the first line starts after the strip's label); the latest
    ``MAX_LINES`` lines' worth when there are more."""
    calls = calls_shown(state)
    if not calls:
        return []
    drawn = []
    for call in calls:
        name = fit_text(_names_of(names, call["seat"]), NAME_W, SIZE)
        segs, colour = said(call, lang)
        drawn.append(Call(name, segs, colour, text_width(name + " ", SIZE) + seg_width(segs, SIZE, True)))
    label_w = text_width(word("auction", lang).upper(), SIZE, True) + GAP
    more_w = text_width("…", SIZE) + GAP
    for first in range(len(drawn)):  # the earliest calls give way until the rest fits in MAX_LINES lines
        laid_out = _flow(drawn[first:], width, label_w + (more_w if first else 0))
        if len(laid_out) <= MAX_LINES:
            return laid_out
    return [drawn[-1:]]


def _flow(calls: list[Call], width: float, indent: float) -> list[list[Call]]:
    """Calls left to right in lines of ``width``, the first line starting at ``indent``."""
    out: list[list[Call]] = [[]]
    x = indent
    for call in calls:
        if out[-1] and x + GAP + call.width > width:
            out.append([])
            x = 0.0
        x += (GAP if out[-1] else 0) + call.width
        out[-1].append(call)
    return [line for line in out if line]


def height(rows: int) -> int:
    """The strip's height for ``rows`` lines of calls (none: no strip), with the gap under it."""
    return 0 if not rows else 2 * PAD + LINE_H * rows + 6


def draw(img: Image.Image, y: float, x0: float, x1: float, laid_out: list[list[Call]], total: int, lang: str,
         four_colour: bool, rows: int) -> None:  # fmt: skip
    """Draw the strip of ``rows`` lines at ``y`` between ``x0`` and ``x1`` (a replay keeps room for the calls to
    come, so its table does not jump); ``total`` is how many calls there were."""
    if not rows:
        return
    canvas = ImageDraw.Draw(img)
    canvas.rounded_rectangle((x0, y, x1, y + height(rows) - 6), radius=12, fill=theme.PANEL)
    x = x0 + 14
    mid = y + PAD + LINE_H / 2
    label = word("auction", lang).upper()
    draw_text(canvas, (x, mid), label, SIZE, theme.TEXT_DIM, bold=True, anchor="lm")
    x += text_width(label, SIZE, True) + GAP
    if sum(len(line) for line in laid_out) < total:
        draw_text(canvas, (x, mid), "…", SIZE, theme.TEXT_DIM, anchor="lm")
        x += text_width("…", SIZE) + GAP
    for i, line in enumerate(laid_out):
        if i:
            x, mid = x0 + 14, mid + LINE_H
        for j, call in enumerate(line):
            if j:
                draw_text(canvas, (x - GAP / 2, mid), "·", SIZE, theme.TEXT_DIM, anchor="mm")
            draw_text(canvas, (x, mid), call.name, SIZE, theme.TEXT_DIM, anchor="lm")
            name_w = text_width(call.name + " ", SIZE)
            draw_segments(img, (x + name_w, mid), call.said, SIZE, call.colour, bold=True, four_colour=four_colour)
            x += call.width + GAP
