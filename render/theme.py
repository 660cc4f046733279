"""Colours and sizes shared by every image.

The images are opaque (Discord shows them on its dark and light themes alike): a dark frame around a green felt or
a slate panel reads well on both, and flat colours keep the PNGs small.
"""

from __future__ import annotations

Colour = tuple[int, int, int]

PAGE: Colour = (32, 35, 42)  # frame around the felt, and the background of sheets
PANEL: Colour = (43, 47, 56)  # boxes on sheets
PANEL_LIGHT: Colour = (56, 61, 72)
FELT: Colour = (27, 94, 62)
FELT_DARK: Colour = (21, 76, 50)
FELT_EDGE: Colour = (95, 62, 38)  # the table's wooden rim
TEXT: Colour = (236, 238, 242)
TEXT_DIM: Colour = (170, 176, 188)
GOLD: Colour = (246, 196, 68)  # whose turn, legal cards, highlights
DEALER: Colour = (250, 250, 250)
GOOD: Colour = (102, 204, 122)
BAD: Colour = (240, 98, 98)
CARD_FACE: Colour = (253, 253, 250)
CARD_EDGE: Colour = (150, 150, 150)

# One colour per team / player for name plates and the chart lines (distinguishable by most colour-blind players:
# the Okabe-Ito palette).
SIDE_COLOURS: tuple[Colour, ...] = (
    (86, 180, 233),  # sky blue
    (230, 159, 0),  # orange
    (0, 158, 115),  # bluish green
    (204, 121, 167),  # reddish purple
    (240, 228, 66),  # yellow
    (213, 94, 0),  # vermilion
)

SUIT_COLOURS: dict[str, Colour] = {"S": (26, 26, 30), "H": (206, 32, 41), "D": (206, 32, 41), "C": (26, 26, 30)}
# Four-colour pack (as in online poker rooms): diamonds blue and clubs green.
SUIT_COLOURS_FOUR: dict[str, Colour] = {"S": (26, 26, 30), "H": (206, 32, 41), "D": (21, 101, 192), "C": (30, 125, 50)}
# Suit symbols drawn on dark backgrounds (text lines) need lighter shades.
SUIT_COLOURS_ON_DARK: dict[str, Colour] = {"S": (236, 238, 242), "H": (255, 105, 105), "D": (255, 105, 105),
                                           "C": (236, 238, 242)}  # fmt: skip
SUIT_COLOURS_ON_DARK_FOUR: dict[str, Colour] = {"S": (236, 238, 242), "H": (255, 105, 105), "D": (100, 170, 255),
                                                "C": (110, 210, 120)}  # fmt: skip
JOKER_COLOURS: dict[str, Colour] = {"JK": (106, 27, 154), "BJ": (26, 26, 30), "RJ": (206, 32, 41)}


def suit_colour(suit: str, four_colour: bool = False, on_dark: bool = False) -> Colour:
    if on_dark:
        return (SUIT_COLOURS_ON_DARK_FOUR if four_colour else SUIT_COLOURS_ON_DARK)[suit]
    return (SUIT_COLOURS_FOUR if four_colour else SUIT_COLOURS)[suit]


def side_colour(i: int) -> Colour:
    return SIDE_COLOURS[i % len(SIDE_COLOURS)]
