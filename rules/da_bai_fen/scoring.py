"""Levels (a side's score is a card rank) and the result tables.

"Each side's score in game points is expressed as a card rank from two (low) up to Ace (high) ... Both sides start
at two and the winners are the first side whose score goes above Ace."  Levels are integers: 2..10, J 11, Q 12,
K 13, A 14, and 15 or more for a side that went past the target.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import RANKS
from rules.errors import Words

LEVEL_NAMES = {**{n: str(n) for n in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
LEVEL_BY_NAME = {name: level for level, name in LEVEL_NAMES.items()}


def level_name(level: int) -> str:
    return LEVEL_NAMES.get(level, f"A+{level - 14}")


def level_rank(level: int) -> int:
    """The card rank slot (rules.cards) of a level: the trump rank when that side declares."""
    return RANKS.index(LEVEL_NAMES[level])


def parse_level(value: object) -> int | None:
    """A level given as a rank (``"A"``, ``"7"``, ``"q"``) or as its integer 2..14; None when it is neither."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if 2 <= value <= 14 else None
    if isinstance(value, str):
        return LEVEL_BY_NAME.get(value.strip().upper())
    return None


@dataclass(frozen=True)
class Outcome:
    """What a deal's opponents' card points mean: who gains how many levels and who declares next."""

    declarers_gain: int
    opponents_gain: int
    declarers_stay: bool
    draw: bool = False

    @property
    def row_words(self) -> Words:
        """``row`` as words the bot translates."""
        if self.draw:
            return Words("exactly 40: a draw")
        if self.declarers_stay:
            return Words("declarers score {n}", n=self.declarers_gain)
        if self.opponents_gain:
            return Words("opponents score {n} and become declarers", n=self.opponents_gain)
        return Words("no score; opponents become declarers")

    @property
    def row(self) -> str:
        if self.draw:
            return "exactly 40: a draw"
        if self.declarers_stay:
            return f"declarers score {self.declarers_gain}"
        if self.opponents_gain:
            return f"opponents score {self.opponents_gain} and become declarers"
        return "no score; opponents become declarers"


def outcome(opponent_points: int, level_step: int = 40, forty_is_draw: bool = False) -> Outcome:
    """The text's result tables.

    level_step 40: "Zero: Declarers score 2 / 5 to 35: Declarers score 1 / 40 to 75: No score, Opponents become new
    declarers / 80 to 95: Opponents score 1 / 100 or more: Opponents score 2".
    level_step 20: "Zero: 3 / 5 to 15: 2 / 20 to 35: 1 / 40 to 55: No score / 60 to 75: Opponents score 1 / 80 to 95:
    2 / 100 to 115: 3 ... the table is extended in the obvious way" (one more level per further 20 points).
    forty_is_draw: "if the opponents score 40 points exactly, the result is a draw".
    """
    p = opponent_points
    if forty_is_draw and p == 40:
        return Outcome(0, 0, False, draw=True)
    if p < 40:
        return Outcome(_declarers_gain(p, level_step), 0, True)
    return Outcome(0, _opponents_gain(p, level_step), False)


def _declarers_gain(p: int, level_step: int) -> int:
    if level_step == 20:
        return 3 if p == 0 else 2 - p // 20  # 5 to 15: 2; 20 to 35: 1
    return 2 if p == 0 else 1


def _opponents_gain(p: int, level_step: int) -> int:
    if level_step == 20:
        return (p - 40) // 20  # 40-55: 0, 60-75: 1, 80-95: 2, 100-115: 3, and on "in the obvious way"
    return 0 if p < 80 else 1 if p < 100 else 2
