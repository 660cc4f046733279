"""The end of a deal: thrown in, or scored; and whether the game is over.

Card points per side (with the discard where its rule sends it), the deal's score changes (scoring.py), the game's
end (a winner, a team dropping out), the bloutte and Le Rough's announcement, and skunks.
"""

from __future__ import annotations

from rules.cards import NO_TRUMP
from rules.errors import Term, Words
from rules.game import BETWEEN_DEALS, GAME_OVER

from . import exchange
from .scoring import GameEnd, Side, game_end, score_deal
from .state import DealState
from .steps import OVER
from .table import TOTAL_POINTS, card_points


class DealEnd(DealState):
    """Scoring for ``TwoHundred`` (its state is declared in state.py)."""

    def _throw_in(self, misdeal: int | None = None) -> None:
        """ "If all four players pass, the hands are thrown in without score"; a misdeal is redealt by the same
        dealer."""
        result = {"score_change": [0] * self.table.units, "thrown_in": True, "made": None, "contract": None}
        if misdeal is not None:
            result["misdeal"] = misdeal
            said = Words("{seat} called a misdeal: the same dealer deals again", seat=Term("seat", misdeal))
            self.redeal_same_dealer = True
        else:
            said = Words("everyone passed: thrown in without score")
        result["explain"] = said.message
        self.deal_results.append(result)
        self.explanations.append((said,))
        self.step, self.phase = OVER, BETWEEN_DEALS

    def _discard_owner(self) -> int:
        """The position whose side counts the discard's points."""
        owner = exchange.DISCARD_OWNER[self.options["kitty_discard"]]
        completed = self.play.completed
        if owner == "last_trick":
            return completed[-1][2]  # "count for the side that wins the last trick"
        if owner == "first_trick":
            return completed[0][2]  # "award the points in the discard to the side that wins the first trick"
        if owner == "contractor":
            return self.contractor  # "Some count the discarded points for the contractor"
        # "any points in it count to the contractor's opponents": with several, the contractor's left-hand opponent
        pos = self.contractor
        contracting = self._contracting_units()
        while True:
            pos = (pos + 1) % self.table.positions
            if self.active[pos] and self.table.unit_of[pos] not in contracting:
                return pos

    def _contracting_units(self) -> tuple[int, ...]:
        t = self.table
        units = {t.unit_of[self.contractor]}
        if self.partner >= 0:
            units.add(t.unit_of[self.partner])
        return tuple(sorted(units))

    def sides(self) -> list[Side]:
        """The contractor's side first, then each opposing side, with card points and best bids."""
        t = self.table
        taken = self.play.taken
        owner = self._discard_owner() if self.discard else -1
        best_bid = self.auction.best_bid
        if t.layout == "called_partner":  # temporary teams: the contractor and partner against the rest
            points = [card_points(mask) for mask in taken]
            if owner >= 0:
                points[owner] += card_points(self.discard)
            pair = (self.contractor, self.partner)
            rest = [p for p in range(t.positions) if p not in pair]
            return [
                Side(self._contracting_units(), sum(points[p] for p in pair), max(best_bid[p] for p in pair)),
                Side(tuple(rest), sum(points[p] for p in rest), max(best_bid[p] for p in rest)),
            ]
        contracting = t.unit_of[self.contractor]
        units = [contracting] + [u for u in range(t.units) if u != contracting and u not in self.dropped]
        out = []
        for u in units:
            members = t.members[u]
            cards = bid = 0
            for p in members:  # the cards a side took are its members' tricks together
                cards |= taken[p]
                if best_bid[p] > bid:
                    bid = best_bid[p]
            if owner in members:
                cards |= self.discard
            out.append(Side((u,), card_points(cards), bid))
        return out

    def _score(self) -> None:
        sides = self.sides()
        multiplier = 2 if self.trump == NO_TRUMP else 1  # "No trump games score double"
        t = self.table
        seats = [tuple(sorted({t.controller[p] for p in t.members[u]})) for u in range(t.units)]
        change, made, said = score_deal(self.scoring, self.unit_scores, sides, self.bid, multiplier, seats)
        if self.auction.no_bid:  # "the contractor's team cannot lose points"
            said[0] = Words("contract without a bid: {how}", how=said[0])
        for u, d in enumerate(change):
            self.unit_scores[u] += d
        contracting = sides[0].units
        contractor_unit = self.table.unit_of[self.contractor]
        took_all = sides[0].points == TOTAL_POINTS
        end = game_end(self.scoring, self.unit_scores, self.active_units(), contracting, contractor_unit, made)
        if self.options["bloutte"] and took_all:
            end = GameEnd(True, contractor_unit)  # "if the bidders take 100 points ... they win the whole game"
            said.append(Words("a bloutte: all 100 points win the game"))
        if self.hundred_announced:
            # "if they succeed they win the whole game, but if they lose the other team wins"
            end = GameEnd(True, contractor_unit if took_all else 1 - contractor_unit)
            if took_all:
                said.append(Words("announced all 100 points: made, the game is won"))
            else:
                said.append(Words("announced all 100 points: failed, the game is lost"))
        self.deal_results.append({
            "score_change": change,
            "thrown_in": False,
            "made": made,
            "contract": self.contract_json(),
            "points": [s.points for s in sides],
            "sides": [list(s.units) for s in sides],
            "explain": "; ".join(w.message for w in said),
        })  # fmt: skip
        self.explanations.append(tuple(said))
        self._drop(end.drop)
        self.step = OVER
        if end.over:
            self.phase, self.winner = GAME_OVER, end.winner
            self.skunk = self._is_skunk()
        else:
            self.phase = BETWEEN_DEALS

    def active_units(self) -> list[int]:
        return [u for u in range(self.table.units) if u not in self.dropped]

    def _drop(self, units: tuple[int, ...]) -> None:
        """ "the losing team drops out while the other two teams ... continue playing a four-player game"."""
        for u in units:
            self.dropped.append(u)
            for p in self.table.unit_positions(u):
                self.active[p] = False
        if units and not self.active[self.dealer]:
            self.dealer = self._previous_active(self.dealer)

    def _previous_active(self, pos: int) -> int:
        while not self.active[pos]:
            pos = (pos - 1) % self.table.positions
        return pos

    def _is_skunk(self) -> bool:
        """ "if a team wins while the other team is in the hole (below zero), this is considered a skunk"; "Others use
        the term skunk for the case where the losers neither won nor lost any points"."""
        rule = self.options["skunk"]
        if rule == "none" or self.winner is None:
            return False
        losers = [u for u in range(self.table.units) if u != self.winner]
        if rule == "in_the_hole":
            return all(self.unit_scores[u] < 0 for u in losers)
        return all(all(r["score_change"][u] == 0 for r in self.deal_results) for u in losers)
