"""The shared trick bookkeeping, specialised for speed: computer players play thousands of deals per decision.

Same fields and meaning as ``rules.tricks.TrickPlay`` (hands, trick, led suit, current winner, completed tricks,
tricks won, cards taken); only the constructor (the suit masks come cached per trump) and ``play`` (one function,
no per-card calls) differ.  Rules stay in the game: this class only records who played what and who won.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.tricks import TrickPlay


class FastTricks(TrickPlay):
    __slots__ = ("seats_in_play",)

    def __init__(
        self,
        hands: list[int],
        leader: int,
        trump: int,
        effective_suit: Sequence[int],
        strength: Sequence[int],
        suit_cards: Sequence[int],
        active: Sequence[bool],
    ):
        self.players = len(hands)
        self.hands = list(hands)
        self.trump = trump
        self.effective_suit = effective_suit
        self.strength = strength
        self.suit_cards = suit_cards
        self.active = list(active)
        self.seats_in_play = self.active.count(True)
        self.leader = self.turn = leader
        self.trick: list[tuple[int, int]] = []
        self.led_suit = self.best_seat = self.best_key = -1
        self.completed: list[tuple[int, list[tuple[int, int]], int]] = []
        self.tricks_won = [0] * self.players
        self.taken = [0] * self.players

    def play(self, c: int, led_suit: int | None = None) -> int:
        seat = self.turn
        self.hands[seat] &= ~(1 << c)
        trick = self.trick
        suit = self.effective_suit[c]
        if not trick:
            self.led_suit = suit if led_suit is None else led_suit
        trick.append((seat, c))
        if suit == self.trump:
            key = 200 + self.strength[c]
        elif suit == self.led_suit:
            key = 100 + self.strength[c]
        else:
            key = 0
        if key > self.best_key:  # equal cards cannot occur in one pack; the first played keeps the trick anyway
            self.best_key = key
            self.best_seat = seat
        if len(trick) < self.seats_in_play:
            nxt = seat + 1 if seat + 1 < self.players else 0
            while not self.active[nxt]:
                nxt = nxt + 1 if nxt + 1 < self.players else 0
            self.turn = nxt
            return -1
        winner = self.best_seat
        taken = 0
        for _, card in trick:
            taken |= 1 << card
        self.taken[winner] |= taken
        self.tricks_won[winner] += 1
        self.completed.append((self.leader, trick, winner))
        self.trick = []
        self.led_suit = self.best_seat = self.best_key = -1
        self.leader = self.turn = winner
        return winner

    def copy(self) -> FastTricks:
        other = FastTricks.__new__(FastTricks)
        for name in TrickPlay.__slots__ + FastTricks.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.trick = list(self.trick)
        other.completed = list(self.completed)
        other.tricks_won = list(self.tricks_won)
        other.taken = list(self.taken)
        other.active = list(self.active)
        return other
