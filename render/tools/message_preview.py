"""A Discord message drawn as a player sees it on Discord's dark theme: the author line, the text (with **bold**,
mentions and `code`), the attached picture, and the button rows with their styles and disabled state.

Pure: it takes what the bot really sent (the message's content, its attachment's bytes and its components' JSON)
and returns a picture, for the player guide's screenshots (``tests/botkit/screens.py``).  The layout is a phone's
(about 440 points wide, drawn at one and a half times that for sharpness), so the pictures read at a phone's width.

The bundled font has no colour emoji: suit symbols are drawn as the card faces draw them (``render.pips``), the few
emoji the bot uses are small drawn tiles, and any other emoji a neutral tile — never a tofu box.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from render.fonts import font, has_glyphs
from render.pips import pip_image
from render.png import to_png

Colour = tuple[int, int, int]

# Discord's dark theme.
BACKGROUND: Colour = (49, 51, 56)
TEXT: Colour = (219, 222, 225)
TEXT_DIM: Colour = (148, 155, 164)
AUTHOR: Colour = (242, 243, 245)
BLURPLE: Colour = (88, 101, 242)
LINK: Colour = (0, 168, 252)
MENTION_BG: Colour = (60, 66, 112)
MENTION_TEXT: Colour = (201, 205, 251)
CODE_BG: Colour = (43, 45, 49)
SELECT_BG: Colour = (30, 31, 34)
# Button styles, by Discord's numbers: primary, secondary, success, danger, link.
BUTTON_COLOURS: dict[int, Colour] = {
    1: BLURPLE,
    2: (78, 80, 88),
    3: (36, 128, 70),
    4: (218, 55, 60),
    5: (78, 80, 88),
}
WHITE: Colour = (255, 255, 255)
SUIT_ON_DARK: dict[str, Colour] = {
    "S": (236, 238, 242),
    "C": (236, 238, 242),
    "H": (255, 120, 120),
    "D": (255, 120, 120),
}
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
# The emoji the bot writes, as tiles: (tile colour or None for a bare mark, what is drawn on it).
EMOJI: dict[str, tuple[Colour | None, str]] = {
    "✅": ((59, 165, 93), "check"),
    "✓": (None, "check"),
    "✔": (None, "check"),
    "➡": ((59, 136, 195), "→"),
    "❌": (None, "cross"),
    "✗": (None, "cross"),
    "⚠": (None, "⚠"),
    "🛑": ((218, 55, 60), "■"),
    "🙋": ((88, 101, 242), "!"),
    "🔁": ((88, 101, 242), "↻"),
    "↩": ((88, 101, 242), "←"),
    "▶": ((59, 136, 195), "▶"),
    "⌛": ((95, 99, 110), "…"),
}
NEUTRAL_TILE: Colour = (95, 99, 110)
VARIATION_SELECTOR = "\ufe0f"

# Layout, in points (multiplied by ``scale``).
WIDTH = 440
SCALE = 1.5
MARGIN = 12
AVATAR = 36
GUTTER = 10  # between the avatar and the message
TEXT_SIZE = 15
LINE = 21
BUTTON_HEIGHT = 32
BUTTON_PAD = 12
BUTTON_GAP = 8
BUTTON_TEXT = 14
IMAGE_MAX_HEIGHT = 320
EMBED_BG: Colour = (43, 45, 49)
EMBED_BAR: Colour = (31, 139, 76)  # the bot's embeds are dark green
EMBED_PAD = 10


@dataclass(frozen=True)
class Run:
    """A piece of a line of text: ``kind`` is "text", "suit" (``text`` is S/H/D/C), "emoji" or "space"."""

    text: str
    kind: str = "text"
    bold: bool = False
    code: bool = False
    mention: bool = False


# --- text into runs -------------------------------------------------------------------------------------------

_MARKUP = re.compile(r"(\*\*|`|<@!?\d+>|<#\d+>|<@&\d+>)")


def parse_line(line: str, names: Mapping[int, str] | None = None) -> list[Run]:
    """One line of Discord markdown as runs: **bold**, `code`, user/channel mentions; the rest as written."""
    names = names or {}
    runs: list[Run] = []
    bold = code = False
    for part in _MARKUP.split(line.replace(VARIATION_SELECTOR, "")):
        if not part:
            continue
        if part == "**" and not code:
            bold = not bold
        elif part == "`":
            code = not code
        elif part.startswith("<@&"):
            runs += _split(f"@{names.get(int(part[3:-1]), 'role')}", bold, code, mention=True)
        elif part.startswith("<@"):
            runs += _split(f"@{names.get(int(part.strip('<@!>')), 'someone')}", bold, code, mention=True)
        elif part.startswith("<#"):
            runs += _split(f"#{names.get(int(part[2:-1]), 'channel')}", bold, code, mention=True)
        else:
            runs += _split(part, bold, code)
    return runs


def _split(text: str, bold: bool, code: bool, *, mention: bool = False) -> list[Run]:
    """``text`` as words, spaces, suit symbols and emoji (each its own run, so lines wrap between words)."""
    runs: list[Run] = []
    word = ""

    def flush() -> None:
        nonlocal word
        if word:
            runs.append(Run(word, "text", bold, code, mention))
            word = ""

    for ch in text:
        if ch == " ":
            flush()
            runs.append(Run(" ", "space", bold, code, mention))
        elif ch in SUITS:
            flush()
            runs.append(Run(SUITS[ch], "suit", bold, code, mention))
        elif ch in EMOJI or not has_glyphs(ch, bold):
            flush()
            runs.append(Run(ch, "emoji", bold, code, mention))
        else:
            word += ch
    flush()
    return runs


# --- drawing runs ---------------------------------------------------------------------------------------------


class Pen:
    """Draws runs at a text size on an image, in points scaled to pixels."""

    def __init__(self, img: Image.Image, scale: float):
        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.scale = scale

    def px(self, points: float) -> int:
        return round(points * self.scale)

    def width(self, run: Run, size: int) -> float:
        """The run's width in points."""
        if run.kind in ("suit", "emoji"):
            return size * 1.05
        return font(self.px(size), run.bold).getlength(run.text) / self.scale

    def line_width(self, runs: Iterable[Run], size: int) -> float:
        return sum(self.width(r, size) for r in runs)

    def runs(
        self, x: float, middle: float, runs: Sequence[Run], size: int, colour: Colour, *, plain_suits: bool = False
    ) -> None:
        """Draw ``runs`` from ``x`` with their vertical middle at ``middle`` (points); ``plain_suits`` draws the suit
        symbols in ``colour`` (red on a coloured button would not read)."""
        for run in runs:
            w = self.width(run, size)
            if run.mention or run.code:
                bg = MENTION_BG if run.mention else CODE_BG
                box = (self.px(x), self.px(middle - size * 0.72), self.px(x + w), self.px(middle + size * 0.72))
                self.draw.rectangle(box, fill=bg)
            fg = MENTION_TEXT if run.mention else colour
            if run.kind == "text":
                f = font(self.px(size), run.bold)
                self.draw.text((self.px(x), self.px(middle)), run.text, font=f, fill=fg, anchor="lm")
            elif run.kind == "suit":
                self._pip(run.text, x + size * 0.08, middle, size * 0.9, fg if plain_suits else None)
            elif run.kind == "emoji":
                self._emoji(run.text, x + size * 0.05, middle, size * 0.95, fg)
            x += w

    def _pip(self, suit: str, x: float, middle: float, size: float, colour: Colour | None = None) -> None:
        im = pip_image(suit, self.px(size), colour or SUIT_ON_DARK[suit])
        self.img.paste(im, (self.px(x), self.px(middle - size / 2)), im)

    def _emoji(self, ch: str, x: float, middle: float, size: float, colour: Colour) -> None:
        tile, mark = EMOJI.get(ch, (NEUTRAL_TILE, ""))
        box = (self.px(x), self.px(middle - size / 2), self.px(x + size), self.px(middle + size / 2))
        if tile is not None:
            self.draw.rounded_rectangle(box, radius=self.px(size * 0.2), fill=tile)
            colour = WHITE
        left, top, right, bottom = box
        stroke = max(2, self.px(size * 0.14))
        inset = (right - left) * 0.22
        if mark == "check":
            points = [(left + inset, (top + bottom) / 2), (left + (right - left) * 0.42, bottom - inset)]
            points.append((right - inset, top + inset))
            self.draw.line(points, fill=colour if tile is None else WHITE, width=stroke, joint="curve")
        elif mark == "cross":
            red = (237, 66, 69)
            self.draw.line([(left + inset, top + inset), (right - inset, bottom - inset)], fill=red, width=stroke)
            self.draw.line([(left + inset, bottom - inset), (right - inset, top + inset)], fill=red, width=stroke)
        elif mark:
            fill = (250, 200, 60) if mark == "⚠" else colour
            f = font(self.px(size * (0.9 if tile is None else 0.8)), True)
            self.draw.text(((left + right) / 2, (top + bottom) / 2), mark, font=f, fill=fill, anchor="mm")


def wrap(pen: Pen, runs: list[Run], size: int, width: float) -> list[list[Run]]:
    """``runs`` in lines of at most ``width`` points, broken between words (a word too long for a line is cut)."""
    lines: list[list[Run]] = [[]]
    used = 0.0
    for run in runs:
        w = pen.width(run, size)
        if run.kind == "space" and not lines[-1]:
            continue  # no space at the start of a wrapped line
        if used + w > width and lines[-1]:
            while lines[-1] and lines[-1][-1].kind == "space":
                lines[-1].pop()
            lines.append([])
            used = 0.0
            if run.kind == "space":
                continue
        lines[-1].append(run)
        used += w
    return lines


# --- components -----------------------------------------------------------------------------------------------


@dataclass
class Control:
    """One component as drawn: a button (``style`` > 0) or a select menu (``style`` 0)."""

    runs: list[Run]
    style: int
    disabled: bool
    width: float


def _controls(pen: Pen, row: Mapping[str, Any], full: float) -> list[Control]:
    out = []
    for item in row.get("components", []):
        emoji = (item.get("emoji") or {}).get("name") or ""
        text = " ".join(t for t in (emoji, item.get("label") or "") if t)
        runs = parse_line(text)
        disabled = bool(item.get("disabled"))
        if item.get("type") == 2:
            width = pen.line_width(runs, BUTTON_TEXT) + 2 * BUTTON_PAD
            out.append(Control(runs, int(item.get("style", 2)), disabled, max(width, BUTTON_HEIGHT)))
        else:  # a select menu: its placeholder, the width of the message
            runs = parse_line(item.get("placeholder") or "Make a selection")
            out.append(Control(runs, 0, disabled, full))
    return out


def _flow(controls: list[Control], width: float) -> list[list[Control]]:
    """A row's components wrapped as Discord wraps them on a narrow screen."""
    lines: list[list[Control]] = [[]]
    used = 0.0
    for control in controls:
        needed = control.width + (BUTTON_GAP if lines[-1] else 0)
        if lines[-1] and used + needed > width:
            lines.append([])
            needed, used = control.width, 0.0
        lines[-1].append(control)
        used += needed
    return lines


def _blend(colour: Colour, onto: Colour, alpha: float) -> Colour:
    r, g, b = (round(c * alpha + o * (1 - alpha)) for c, o in zip(colour, onto, strict=True))
    return (r, g, b)


def _draw_control(pen: Pen, control: Control, x: float, y: float) -> None:
    alpha = 0.5 if control.disabled else 1.0  # Discord draws a disabled component at half opacity
    box = (pen.px(x), pen.px(y), pen.px(x + control.width), pen.px(y + BUTTON_HEIGHT))
    middle = y + BUTTON_HEIGHT / 2
    if control.style == 0:
        pen.draw.rounded_rectangle(box, radius=pen.px(4), fill=SELECT_BG, outline=(30, 31, 34))
        pen.runs(x + BUTTON_PAD, middle, control.runs, BUTTON_TEXT, _blend(TEXT_DIM, BACKGROUND, alpha))
        chevron = x + control.width - BUTTON_PAD - 6
        points = [(chevron - 5, middle - 2), (chevron, middle + 3), (chevron + 5, middle - 2)]
        pen.draw.line([(pen.px(a), pen.px(b)) for a, b in points], fill=TEXT, width=pen.px(2))
        return
    fill = _blend(BUTTON_COLOURS.get(control.style, BUTTON_COLOURS[2]), BACKGROUND, alpha)
    pen.draw.rounded_rectangle(box, radius=pen.px(4), fill=fill)
    text_width = pen.line_width(control.runs, BUTTON_TEXT)
    label = _blend(WHITE, fill, alpha)
    coloured = control.style in (1, 3, 4)
    pen.runs(x + (control.width - text_width) / 2, middle, control.runs, BUTTON_TEXT, label, plain_suits=coloured)


# --- the message ----------------------------------------------------------------------------------------------


def preview_message(
    content: str,
    components: Sequence[Mapping[str, Any]] = (),
    attachment: bytes | None = None,
    *,
    author: str = "CardTable",
    names: Mapping[int, str] | None = None,
    ephemeral: bool = False,
    embeds: Sequence[str] = (),
    width: int = WIDTH,
    scale: float = SCALE,
) -> Image.Image:
    """The message as Discord's dark theme shows it on a phone.  ``components`` are the message's action rows as
    Discord sends them (JSON dicts); ``attachment`` the bytes of its picture; ``names`` resolve mentions;
    ``embeds`` the text of each embed (drawn in its box with a coloured bar)."""
    left = MARGIN + AVATAR + GUTTER
    column = width - left - MARGIN
    measure = Pen(Image.new("RGB", (1, 1)), scale)
    text_lines = [
        line for raw in content.split("\n") for line in wrap(measure, parse_line(raw, names), TEXT_SIZE, column)
    ]
    picture = Image.open(io.BytesIO(attachment)).convert("RGB") if attachment else None
    picture_size = (0.0, 0.0)
    if picture is not None:
        fit = min(column / picture.width, IMAGE_MAX_HEIGHT / picture.height) * scale
        picture_size = (picture.width * fit / scale, picture.height * fit / scale)
    rows = [_flow(_controls(measure, row, column), column) for row in components]
    inner = column - 2 * EMBED_PAD - 4
    boxes = [
        [line for raw in text.split("\n") for line in wrap(measure, parse_line(raw, names), TEXT_SIZE - 1, inner)]
        for text in embeds
    ]

    height: float = MARGIN + LINE + len(text_lines) * LINE
    height += sum(len(lines) * LINE + 2 * EMBED_PAD + 6 for lines in boxes)
    height += picture_size[1] + 6 if picture is not None else 0
    height += sum(len(lines) * (BUTTON_HEIGHT + BUTTON_GAP) for lines in rows) + (6 if rows else 0)
    height += LINE if ephemeral else 0
    height += MARGIN
    img = Image.new("RGB", (round(width * scale), round(height * scale)), BACKGROUND)
    pen = Pen(img, scale)

    # The author: an avatar (a spade on blurple), the name and the APP tag.
    y: float = MARGIN
    pen.draw.ellipse((pen.px(MARGIN), pen.px(y), pen.px(MARGIN + AVATAR), pen.px(y + AVATAR)), fill=BLURPLE)
    pen._pip("S", MARGIN + AVATAR * 0.27, y + AVATAR / 2, AVATAR * 0.46)
    name = [Run(author, bold=True)]
    pen.runs(left, y + LINE / 2, name, TEXT_SIZE, AUTHOR)
    tag_x = left + pen.line_width(name, TEXT_SIZE) + 6
    tag = [Run("APP", bold=True)]
    tag_w = pen.line_width(tag, 10) + 8
    tag_box = (pen.px(tag_x), pen.px(y + LINE / 2 - 8), pen.px(tag_x + tag_w), pen.px(y + LINE / 2 + 8))
    pen.draw.rounded_rectangle(tag_box, radius=pen.px(3), fill=BLURPLE)
    pen.runs(tag_x + 4, y + LINE / 2, tag, 10, WHITE)
    y += LINE

    for line in text_lines:
        pen.runs(left, y + LINE / 2, line, TEXT_SIZE, TEXT)
        y += LINE
    if picture is not None:
        size = (pen.px(picture_size[0]), pen.px(picture_size[1]))
        shown = picture.resize(size, Image.Resampling.LANCZOS)
        corners = Image.new("L", size, 0)
        ImageDraw.Draw(corners).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1), radius=pen.px(6), fill=255)
        img.paste(shown, (pen.px(left), pen.px(y + 4)), corners)
        y += picture_size[1] + 6
    for box_lines in boxes:
        bottom = y + 4 + len(box_lines) * LINE + 2 * EMBED_PAD
        box = (pen.px(left), pen.px(y + 4), pen.px(left + column), pen.px(bottom))
        pen.draw.rounded_rectangle(box, radius=pen.px(4), fill=EMBED_BG)
        pen.draw.rectangle((pen.px(left), pen.px(y + 4), pen.px(left + 4), pen.px(bottom)), fill=EMBED_BAR)
        y += 4 + EMBED_PAD
        for line in box_lines:
            pen.runs(left + 4 + EMBED_PAD, y + LINE / 2, line, TEXT_SIZE - 1, TEXT)
            y += LINE
        y += EMBED_PAD + 2
    if rows:
        y += 6
    for lines in rows:
        for flowed in lines:
            x = float(left)
            for control in flowed:
                _draw_control(pen, control, x, y)
                x += control.width + BUTTON_GAP
            y += BUTTON_HEIGHT + BUTTON_GAP
    if ephemeral:
        note = parse_line("Only you can see this · ")
        pen.runs(left, y + LINE / 2, note, 12, TEXT_DIM)
        pen.runs(left + pen.line_width(note, 12), y + LINE / 2, parse_line("Dismiss message"), 12, LINK)
    return img


def preview_png(
    content: str, components: Sequence[Mapping[str, Any]] = (), attachment: bytes | None = None, **kw: Any
) -> bytes:
    """``preview_message`` as a small PNG (a 256-colour palette, as the bot's own pictures)."""
    return to_png(preview_message(content, components, attachment, **kw))
