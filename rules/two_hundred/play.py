"""The play of the tricks: "Players must follow suit if able to. A player who has no card of the suit led is free
to play any card. The trick is won by the highest trump in it, or, if it contains no trumps, by the highest card of
the suit that was led. The winner of each trick leads to the next."

``TrickPlay`` (rules/tricks.py) keeps the books; this mixin of ``TwoHundred`` adds what is particular to the game:
the lead that sets trump, the compulsory trump lead, the silent partners' face-up cards, and the fast path for
computer players (``legal_card_mask``, ``play_card``, ``random_playout``).
"""

from __future__ import annotations

from rules.cards import CARD_NAMES, NO_TRUMP, SUIT_MASKS, SUITS, nth_card
from rules.errors import IllegalAction, Term
from rules.game import PLAY

from .state import DealState
from .steps import TRICKS
from .table import SILENT_STACKS

EFFECTIVE_SUIT = [c >> 4 if c < 64 else -1 for c in range(67)]  # no bowers or jokers: a card's suit is its suit
STRENGTH = [c & 15 for c in range(67)]  # "A-K-Q-J-10-9-8-7-6-5": the natural order of the rank slots


def _suit(s: int) -> Term:
    return Term("suit", "NT" if s == NO_TRUMP else SUITS[s])


class PlayPhase(DealState):
    """Trick play for ``TwoHundred`` (its state is declared in state.py)."""

    def visible(self, pos: int) -> int:
        """A silent partner's face-up cards: the top card of each stack (turned up once the trick is complete)."""
        stacks = self.stacks[pos - 2]
        mask = 0
        for i, stack in enumerate(stacks):
            if stack and not self.turned_pending[(pos - 2) * SILENT_STACKS + i]:
                mask |= 1 << stack[-1]
        return mask

    def legal_card_mask(self) -> int:
        """The cards the position to play may play now (fast path for computer players)."""
        play = self.play
        pos = play.turn
        hand = self.visible(pos) if self.stacks and self.table.silent[pos] else play.hands[pos]
        if play.trick:
            # "Players must follow suit if able to. A player who has no card of the suit led is free to play any card."
            return hand & SUIT_MASKS[play.led_suit] or hand
        trump = self.trump
        if self.compulsory_lead and trump is not None and self.must_lead_trump(hand):
            return hand & SUIT_MASKS[trump]
        return hand

    def must_lead_trump(self, hand: int) -> bool:
        """Compulsory trump lead: "do not allow a non-trump to be led to the first trick"."""
        return (
            self.options["compulsory_trump_lead"] and not self.play.completed and self.trump is not None
            and self.trump != NO_TRUMP and bool(hand & SUIT_MASKS[self.trump])
        )  # fmt: skip

    def _play(self, c: int) -> None:
        if not self.legal_card_mask() >> c & 1:
            raise self._why_not_playable(c)
        self.play_card(c)

    def _why_not_playable(self, c: int) -> IllegalAction:
        play = self.play
        silent = self.table.silent[play.turn]
        hand = self.visible(play.turn) if silent else play.hands[play.turn]
        card = Term("card", CARD_NAMES[c])
        if not hand >> c & 1:
            if silent:
                return IllegalAction("{card} is not one of your silent partner's face-up cards", card=card)
            return IllegalAction("you do not hold {card}", card=card)
        if not play.trick:
            # Held but not legal on the lead: only the compulsory trump lead forbids that, and only once trump is named.
            assert self.trump is not None
            return IllegalAction("your first lead must be a trump ({suit}): you hold one", suit=_suit(self.trump))
        if silent:
            return IllegalAction("you must follow suit: your silent partner shows {suit}", suit=_suit(play.led_suit))
        return IllegalAction("you must follow suit: you hold {suit}", suit=_suit(play.led_suit))

    def play_card(self, c: int) -> None:
        """Play a card known to be legal (fast path for computer players: no Action, no re-checking).

        Up to the trick's end this is ``TrickPlay.play`` written out for this game (a card's suit is ``c >> 4`` and its
        strength ``c & 15``; the next position comes from a table), which computer players call thousands of times
        per decision: the same fields change in the same way (about 5% faster than calling it)."""
        play = self.play
        pos = play.turn
        if self.trump is None:
            # "If the contractor fails to announce a trump suit before leading to the first trick, the suit of the
            # first card played by the contractor automatically becomes trump."
            self.trump = play.trump = c >> 4
            self.step, self.phase = TRICKS, PLAY
        if self.stacks and self.table.silent[pos]:
            self._take_from_stack(pos, c)
        play.hands[pos] &= ~(1 << c)
        trick = play.trick
        suit = c >> 4
        # The highest trump, else the highest card of the suit led; equal keys: the first played keeps the trick.
        if not trick:
            play.led_suit = suit
            play.best_key = (200 if suit == play.trump else 100) + (c & 15)
            play.best_seat = pos
        elif suit == play.trump:
            key = 200 + (c & 15)
            if key > play.best_key:
                play.best_key = key
                play.best_seat = pos
        elif suit == play.led_suit:
            key = 100 + (c & 15)
            if key > play.best_key:
                play.best_key = key
                play.best_seat = pos
        trick.append((pos, c))
        nxt = self._next_position[pos]
        if nxt != play.leader:
            play.turn = nxt
            return
        play.close_trick()  # "The winner of each trick leads to the next."
        if self.stacks:
            self.turned_pending = [False] * (SILENT_STACKS * 2)  # "turns the next card ... face up"
        self.tricks_left -= 1
        if not self.tricks_left:
            self._score()

    def random_playout(self, rng) -> None:
        """Play the rest of the deal with uniformly random legal cards, for Monte-Carlo players: the same as calling
        ``play_card(random legal card)`` until the deal ends, with the per-card overhead inlined.  It starts once
        trump is known (step "play"); before that it does nothing."""
        rand = rng.random
        play = self.play
        first_lead_rule = self.options["compulsory_trump_lead"]
        # Silent partners' stacks and the compulsory trump lead of the first trick take the ordinary path.
        while self.step == TRICKS and (self.stacks or (first_lead_rule and not play.completed)):
            legal = self.legal_card_mask()
            self.play_card(nth_card(legal, int(rand() * legal.bit_count())))
        while self.step == TRICKS and play.trick:  # finish the trick in progress
            legal = self.legal_card_mask()
            self.play_card(nth_card(legal, int(rand() * legal.bit_count())))
        if self.step == TRICKS:
            self._random_tricks(rand)

    def _random_tricks(self, rand) -> None:
        """Whole tricks of random legal cards, with TrickPlay's bookkeeping (taken, tricks won, completed) kept."""
        play = self.play
        hands, suits, trump = play.hands, SUIT_MASKS, play.trump
        taken, tricks_won, completed = play.taken, play.tricks_won, play.completed
        key = (-2, *self.active)
        followers = self._orders.get(key)
        if followers is None:  # for each leader, the positions that follow it
            followers = self._orders[key] = [rest[1:] for rest in self._play_orders()]
        leader = play.turn
        for _ in range(self.tricks_left):
            # The lead: any card of the hand.
            hand = hands[leader]
            n = int(rand() * hand.bit_count())
            legal = hand
            while n:
                legal &= legal - 1
                n -= 1
            bit = legal & -legal
            hands[leader] = hand ^ bit
            mask = bit
            c = bit.bit_length() - 1
            led = c >> 4
            best = (200 if led == trump else 100) + (c & 15)
            winner = leader
            plays = [(leader, c)]
            follow = suits[led]
            for pos in followers[leader]:
                hand = hands[pos]
                legal = hand & follow or hand  # "Players must follow suit if able to"
                n = int(rand() * legal.bit_count())
                while n:
                    legal &= legal - 1
                    n -= 1
                bit = legal & -legal
                hands[pos] = hand ^ bit
                mask |= bit
                c = bit.bit_length() - 1
                s = c >> 4
                if s == trump:
                    key = 200 + (c & 15)
                    if key > best:
                        best, winner = key, pos
                elif s == led:
                    key = 100 + (c & 15)
                    if key > best:
                        best, winner = key, pos
                plays.append((pos, c))
            taken[winner] |= mask
            tricks_won[winner] += 1
            completed.append((leader, plays, winner))
            leader = winner
        play.leader = play.turn = leader
        self.tricks_left = 0
        self._score()

    def _next_positions(self) -> list[int]:
        """For each active position, the next active one in the order of play (cached like the orders)."""
        key = (-1, *self.active)
        nexts = self._orders.get(key)
        if nexts is None:
            nexts = self._orders[key] = [o[1] if len(o) > 1 else p for p, o in enumerate(self._play_orders())]
        return nexts

    def _play_orders(self) -> list[tuple[int, ...]]:
        """For each leader, the active positions in order of play."""
        key = tuple(self.active)
        orders = self._orders.get(key)
        if orders is None:
            live = [p for p in range(len(key)) if key[p]]
            orders = [tuple(live[live.index(q) :] + live[: live.index(q)]) if key[q] else () for q in range(len(key))]
            self._orders[key] = orders
        return orders

    def _take_from_stack(self, pos: int, c: int) -> None:
        for i, stack in enumerate(self.stacks[pos - 2]):
            if stack and stack[-1] == c:
                stack.pop()
                self.turned_pending[(pos - 2) * SILENT_STACKS + i] = True
                return
