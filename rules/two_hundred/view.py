"""What the replay output shows of a Two Hundred deal beyond the spec's required keys."""

from __future__ import annotations

from rules.cards import CARD_NAMES, NO_TRUMP, SUIT_MASKS, iter_cards
from rules.game import GAME_OVER

from .state import DealState
from .steps import OVER
from .table import card_points

SUIT_LETTERS = {0: "S", 1: "H", 2: "D", 3: "C", NO_TRUMP: "NT"}


class StateView(DealState):
    """The output of ``TwoHundred`` (its state is declared in state.py)."""

    def hand(self, seat: int) -> list[int]:
        return list(iter_cards(self.play.hands[seat])) if hasattr(self, "play") else []

    def scores(self) -> list[int]:
        return list(self.unit_scores)

    def contract_json(self) -> dict | None:
        if self.contractor < 0:
            return None
        out: dict = {
            "seat": self.table.controller[self.contractor],
            "bid": self.bid,
            "team": self.table.unit_of[self.contractor],
        }
        if self.auction.no_bid:
            out["without_bid"] = True
        if self.partner_card is not None:
            out["partner_card"] = CARD_NAMES[self.partner_card]
            if self.play.completed and any(c == self.partner_card for t in self.play.completed for _, c in t[1]):
                out["partner"] = self.partner
        if self.hundred_announced:
            out["announced_hundred"] = True
        return out

    def state_json(self) -> dict:
        if not hasattr(self, "play"):
            return {}
        t = self.table
        out: dict = {
            "trump": None if self.trump is None else SUIT_LETTERS[self.trump],
            "contract": self.contract_json(),
            "trick": [
                {"seat": t.controller[p], "cards": [CARD_NAMES[c]], **({"silent": True} if t.silent[p] else {})}
                for p, c in self.play.trick
            ],
            "step": self.step,
            "hands": [[CARD_NAMES[c] for c in iter_cards(self.play.hands[s])] for s in range(t.players)],
            "auction": [
                {"seat": t.controller[p], "type": k, **({"value": v} if v is not None else {})}
                for p, k, v in self.auction.history
            ],
            "tricks_won": [self.play.tricks_won[p] for p in range(t.positions)],
            "points_taken": [card_points(self.play.taken[p]) for p in range(t.positions)],
        }
        if self.stacks:
            out["silent_face_up"] = [[CARD_NAMES[c] for c in iter_cards(self.visible(p))] for p in (2, 3)]
        if self.discard:
            out.update(self._discard_info())
        if self.dropped:
            out["dropped_out"] = list(self.dropped)
        if self.phase == GAME_OVER and self.options["skunk"] != "none":
            out["skunk"] = self.skunk
        return out

    def _discard_info(self) -> dict:
        rule = self.options["kitty_discard"]
        if self.step == OVER:
            return {"discard": [CARD_NAMES[c] for c in iter_cards(self.discard)]}  # shown at the end of the play
        if rule == "show_trumps" and self.trump is not None and self.trump != NO_TRUMP:
            # "any trumps that are discarded must be shown to the other players after trumps are announced"
            return {"discard_trumps_shown": [CARD_NAMES[c] for c in iter_cards(self.discard & SUIT_MASKS[self.trump])]}
        if rule == "announce_points":
            # "require the contractor to inform the other players if there are any point cards in the discard"
            return {"discard_has_points": bool(card_points(self.discard))}
        return {}
