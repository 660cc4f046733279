"""Da Bai Fen 打百分, the single-deck Sheng Ji (game id ``da_bai_fen``)."""

from rules.da_bai_fen.match import DaBaiFen
from rules.da_bai_fen.order import TRUMP, TrumpOrder, beating_cards, trump_order
from rules.da_bai_fen.scoring import Outcome, level_name, outcome

__all__ = ["DaBaiFen", "TRUMP", "TrumpOrder", "beating_cards", "trump_order", "Outcome", "level_name", "outcome"]
