"""Da Bai Fen 打百分, the single-deck Sheng Ji (game id ``da_bai_fen``)."""

import importlib

from rules.da_bai_fen.game_type import GAME_TYPE

_LAZY = {
    "DaBaiFen": "rules.da_bai_fen.match",
    "TRUMP": "rules.da_bai_fen.order",
    "TrumpOrder": "rules.da_bai_fen.order",
    "beating_cards": "rules.da_bai_fen.order",
    "trump_order": "rules.da_bai_fen.order",
    "Outcome": "rules.da_bai_fen.scoring",
    "level_name": "rules.da_bai_fen.scoring",
    "outcome": "rules.da_bai_fen.scoring",
}
__all__ = ["GAME_TYPE", *_LAZY]


def __getattr__(name: str):
    # The engine loads on first use: reading the game's declaration (rules.registry) must not load it.
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
