"""Da Bai Fen as the rest of the program sees it (see ``rules.game_type``)."""

from __future__ import annotations

from rules.da_bai_fen.summary import PAGES
from rules.game_type import GameType

GAME_TYPE = GameType(
    id="da_bai_fen",
    names={"en": "Da Bai Fen", "fr": "Da Bai Fen", "zh": "打百分"},
    aliases=("dabaifen", "da bai fen", "打百分"),
    engine="rules.da_bai_fen.match:DaBaiFen",
    seat_counts=(4,),
    teams=lambda players, options: ((0, 2), (1, 3)),
    presets={
        "standard": {},
        "short-to-7": {"target": "7"},
        "start-at-7": {"start_level": "7"},
        "steps-of-20": {"level_step": 20},
    },
    clockwise=False,
    has_trump_rank=True,
    scores_are_levels=True,
    dealer_word="starter",  # the record's dealer is the seat that draws first
    leader_not_contract=True,
    computer_strategy=True,
    rules_summary=PAGES,
)
