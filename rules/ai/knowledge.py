"""What a seat can infer from its view: the tricks so far, who played what, voids shown, hand sizes, known cards.

Everything here is computed from a ``SeatView`` alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.actions import Action
from rules.ai.games import Adapter, Order, adapter_for, trick_winner
from rules.ai.view import SeatView, card_ids
from rules.cards import KING, QUEEN, card

DBF_DRAWN = 48


@dataclass
class Trick:
    plays: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (seat, cards)
    led: int = -1  # the led effective suit
    winner: int = -1  # the winner so far (one-card tricks)


class Knowledge:
    """Public facts of the current deal, as seen by ``view.seat``."""

    def __init__(self, view: SeatView):
        self.view = view
        self.ad: Adapter = adapter_for(view.game, view.options)
        ad = self.ad
        self.public = dict(view.public)
        self.players = view.players
        self.seat = view.seat
        self.order: Order | None = ad.order(self.public)
        self.active = ad.active(self.public)
        self.hand = view.hand_mask
        # Per position (a seat, or the two-player Two Hundred's silent partner a seat plays for).
        self.positions = ad.positions
        p = self.positions
        self.played_by = [0] * p
        self.played_count = [0] * p
        self.voids = [0] * p  # bit per effective suit (0..4)
        # Per position, effective suit -> the strongest card of it the position may still hold (Belote: a trump
        # played under a higher one, where overtrumping was the rule, shows that no higher trump is held).
        self.ceilings: list[dict[int, int]] = [{} for _ in range(p)]
        self.discard_count = [0] * p
        self.my_discards = 0
        self.known_holding = [0] * p  # cards known to be among a seat's cards (hand or own discards)
        self.exact_hand: dict[int, int] = {}
        self.first_cards: dict[int, list[int]] = {}  # Da Bai Fen: exposed cards (drawn before their exposure)
        self.tricks: list[Trick] = []
        self.draws = [0] * p
        # A silent partner's cards played, in order, each with the suit it had to follow (-1: it led).
        self.stack_plays: dict[int, list[tuple[int, int]]] = {}
        self._read_history(view.history)
        self.taker = ad.kitty_taker(self.public, view.history)
        self._read_public()
        self.played = 0
        for m in self.played_by:
            self.played |= m

    # --- reading ----------------------------------------------------------------------------------------------

    def _read_history(self, history: tuple[Action, ...]) -> None:
        order = self.order
        n_active = sum(self.active)
        silent = self.ad.silent
        failed = self._failed_throws()
        current: Trick | None = None
        for a in history:
            if a.type == "play":
                cards = tuple(a.cards)
                new_trick = current is None or len(current.plays) == n_active
                pos = a.seat
                if any(silent):
                    pos = self._position(current if not new_trick else None, a.seat)
                if new_trick and len(cards) > 1 and failed and (a.seat, frozenset(cards)) == failed[0]:
                    # A failed lead under failed_throw 'lowest_card': only its lowest card was played; the others
                    # were shown and went back to the hand.
                    failed.pop(0)
                    assert order is not None
                    low = min(cards, key=lambda c: order.st[c])
                    self.known_holding[pos] |= sum(1 << c for c in cards if c != low)
                    cards = (low,)
                for c in cards:
                    self.played_by[pos] |= 1 << c
                self.played_count[pos] += len(cards)
                if new_trick:
                    current = Trick()
                    self.tricks.append(current)
                    if order is not None:
                        current.led = a.suit if a.suit is not None and len(cards) == 1 else order.es[cards[0]]
                elif order is not None and not silent[pos]:  # a silent partner shows only its stacks' tops
                    self._note_follow(current, pos, cards)
                assert current is not None
                if new_trick and len(cards) > 1 and order is not None:
                    self._note_throw(pos, cards)
                current.plays.append((pos, cards))
                if silent[pos]:
                    self.stack_plays.setdefault(pos, []).append((cards[0], -1 if new_trick else current.led))
                if a.announce == "belote" and order is not None and order.trump >= 0:
                    pair = (1 << card(KING, order.trump)) | (1 << card(QUEEN, order.trump))
                    self.known_holding[pos] |= pair & ~(1 << cards[0])
            elif a.type == "discard":
                n = len(a.cards) or self._discard_size()
                self.discard_count[a.seat] += n
                if a.seat == self.seat:
                    for c in a.cards:
                        self.my_discards |= 1 << c
            elif a.type == "expose" and a.card is not None:
                self.known_holding[a.seat] |= 1 << a.card
                self.first_cards.setdefault(a.seat, []).append(a.card)
        if order is not None:
            for t in self.tricks:
                if not self.ad.multi_card and t.plays:
                    t.winner = trick_winner(order, [(s, cs[0]) for s, cs in t.plays], t.led)

    def _failed_throws(self) -> list[tuple[int, frozenset[int]]]:
        """Da Bai Fen's failed multi-card leads of this deal that went on with their lowest card, in order."""
        if self.view.options.get("failed_throw") != "lowest_card":
            return []
        return [(f["seat"], frozenset(card_ids(f["cards"]))) for f in self.public.get("failed_throws") or []]

    def _position(self, current: Trick | None, seat: int) -> int:
        """The position that played, where a seat also plays for a silent partner: the next one round the table,
        or the winner of the last trick (the contractor for the first)."""
        positions = self.positions
        if current is not None:
            return (current.plays[-1][0] + 1) % positions
        if not self.tricks:
            contract = self.public.get("contract") or {}
            return contract.get("seat", seat)
        last = self.tricks[-1]
        if self.order is None:
            return seat
        return trick_winner(self.order, [(s, cs[0]) for s, cs in last.plays], last.led)

    def _note_follow(self, trick: Trick, seat: int, cards: tuple[int, ...]) -> None:
        order = self.order
        led = trick.led
        suited = sum(1 for c in cards if order.es[c] == led)
        lead_size = len(trick.plays[0][1])
        if suited < lead_size:
            self.voids[seat] |= 1 << led
        if self.view.game == "belote" and order.trump >= 0 and led != order.trump:
            # Belote: void in the led suit and not trumping while the partner was not winning → no trumps either.
            # Over an opponent's trump only a higher one is forced (any trump with forced_undertrump): discarding
            # then says no more than "no higher trump".
            winning = [(s, cs[0]) for s, cs in trick.plays]
            winner = trick_winner(order, winning, led)
            best = next(c for s, c in winning if s == winner)
            cut = order.es[best] == order.trump
            forced = not cut or bool(self.view.options.get("forced_undertrump"))
            played_trump = order.es[cards[0]] == order.trump
            if suited == 0 and winner != seat ^ 2:
                if not played_trump and forced:
                    self.voids[seat] |= 1 << order.trump
                elif cut and (not played_trump or order.st[cards[0]] < order.st[best]):
                    self._cap(seat, order.trump, order.st[best])
        if self.view.game == "belote" and order.trump >= 0 and led == order.trump and suited:
            # Trumps led: a higher trump than any played is the rule, so a lower one shows none is held.
            best = max((cs[0] for _, cs in trick.plays if order.es[cs[0]] == order.trump), key=lambda c: order.st[c])
            if order.st[cards[0]] < order.st[best]:
                self._cap(seat, order.trump, order.st[best])

    def _note_throw(self, thrower: int, cards: tuple[int, ...]) -> None:
        """Da Bai Fen: a multi-card lead that stood (a failed one is read above, or ended the deal) shows that no
        other player held a card of its suit above its weakest: "all the cards led must be higher than any card of
        the suit led remaining in any player's hand".  The thrower may know where those cards are (its own hand, or
        the kitty it laid away); without this the sampled worlds put them anywhere and the replay refuses most."""
        order = self.order
        weakest = min(order.st[c] for c in cards)
        for position in range(self.positions):
            if position != thrower:
                self._cap(position, order.es[cards[0]], weakest)

    def _cap(self, position: int, suit: int, strength: int) -> None:
        ceilings = self.ceilings[position]
        ceilings[suit] = min(ceilings.get(suit, strength), strength)

    def _discard_size(self) -> int:
        if self.view.game == "da_bai_fen":
            return 6
        return self.ad.taken_kitty_size()

    def _read_public(self) -> None:
        public = self.public
        view = self.view
        if view.game == "five_hundred":
            open_hand = public.get("open_hand")
            if open_hand:
                self.exact_hand[open_hand["seat"]] = sum(1 << c for c in card_ids(open_hand["cards"]))
        if view.game == "da_bai_fen":
            drawn = public.get("drawn") or 0
            starter = view.dealer
            for i in range(min(drawn, DBF_DRAWN)):
                self.draws[(starter + i) % 4] += 1
            exposed = public.get("exposed")
            if exposed:
                c = card_ids([exposed["card"]])[0]
                self.known_holding[exposed["seat"]] |= 1 << c
                self.first_cards.setdefault(exposed["seat"], [c])
            if self.taker is not None:
                for c in card_ids(public.get("kitty_turned")) + card_ids(public.get("kitty_shown")):
                    self.known_holding[self.taker] |= 1 << c
        for failure in self.public.get("failed_throws") or []:
            for beating in failure.get("all_beating") or []:  # shown when the lead failed
                self.known_holding[beating["seat"]] |= sum(1 << c for c in card_ids(beating["cards"]))
        face_up = public.get("silent_face_up")
        if face_up:  # the silent partners' stacks' top cards
            for pos, names in zip((p for p in range(self.positions) if self.ad.silent[p]), face_up, strict=True):
                self.known_holding[pos] |= sum(1 << c for c in card_ids(names))
        for s in range(self.positions):
            self.known_holding[s] &= ~self.played_by[s]

    # --- derived ----------------------------------------------------------------------------------------------

    def dealt(self, seat: int) -> int:
        if self.view.game == "da_bai_fen":
            return self.draws[seat]
        return self.ad.dealt_size(seat)

    def count(self, seat: int) -> int:
        """The number of cards ``seat`` holds now."""
        n = self.dealt(seat) - self.played_count[seat] - self.discard_count[seat]
        if self.taker == seat:
            n += self.ad.taken_kitty_size()
        return n

    def rest_size(self) -> int:
        """Cards in no hand and no discard pile: the kitty not taken, the undrawn stock, cards out of play."""
        if self.view.game == "da_bai_fen":
            drawn = min(self.public.get("drawn") or 0, DBF_DRAWN)
            return 54 - drawn - (6 if self.taker is not None else 0)
        k = self.ad.kitty_size()
        return k - (self.ad.taken_kitty_size() if self.taker is not None else 0)

    def unseen(self) -> int:
        """Cards whose place this seat does not know."""
        return self.ad.pack_mask & ~self.hand & ~self.my_discards & ~self.played

    def stack_facts(self, rng) -> dict:
        """What laying out a silent partner's stacks needs (Adapter.deal_cards)."""
        current = self.current
        return {
            "stack_plays": self.stack_plays,
            "face_up": {p: self.known_holding[p] for p in range(self.positions) if self.ad.silent[p]},
            "pending": {pos for pos, _ in current.plays} if current is not None else set(),
            "rng": rng,
        }

    @property
    def current(self) -> Trick | None:
        n_active = sum(self.active)
        if self.tricks and len(self.tricks[-1].plays) < n_active:
            return self.tricks[-1]
        return None

    def side(self, seat: int) -> int:
        return self.ad.side_of(seat, self.public)

    def partners(self, seat: int | None = None) -> list[int]:
        return self.ad.partners(self.seat if seat is None else seat, self.public)

    def opponents(self) -> list[int]:
        mine = self.side(self.seat)
        return [s for s in range(self.players) if self.side(s) != mine and self.active[s]]

    def outstanding(self) -> int:
        """Cards not yet played and not in my hand (may be in others' hands, the kitty or discards)."""
        return self.unseen()
