"""Tricks of one card per player: following, the trick's current winner, and who took what.

Each game gives two tables indexed by card id: the card's *effective suit* (a left bower counts as trump, a joker
as the trump suit...) and its *strength* within that suit (higher beats lower).  Legality stays with the game (the
obligations differ a lot); this class keeps the bookkeeping every game shares and does it fast.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import NUM_CARD_IDS


def suit_masks(effective_suit: Sequence[int], suits: int = 5) -> list[int]:
    masks = [0] * suits
    for c, s in enumerate(effective_suit):
        if 0 <= s < suits:
            masks[s] |= 1 << c
    return masks


class TrickPlay:
    """The play of a deal: hands as bitmasks, the trick in progress and the tricks taken.

    ``trump`` is an effective-suit index, or -1 when nothing trumps.  Among the cards of a trick, a trump beats
    any non-trump, a card of the led suit beats the off-suit cards, and equal strength is won by the first played.
    """

    __slots__ = (
        "players", "hands", "trump", "effective_suit", "strength", "suit_cards", "leader", "turn", "trick",
        "led_suit", "best_seat", "best_key", "completed", "tricks_won", "taken", "active",
    )  # fmt: skip

    def __init__(
        self,
        hands: list[int],
        leader: int,
        trump: int,
        effective_suit: Sequence[int],
        strength: Sequence[int],
        active: Sequence[bool] | None = None,
        suit_cards: Sequence[int] | None = None,
    ):
        self.players = len(hands)
        self.hands = list(hands)
        self.trump = trump
        self.effective_suit = effective_suit
        self.strength = strength
        # ``suit_cards``: the masks of ``suit_masks(effective_suit)``, when the game keeps them cached per trump.
        self.suit_cards = suit_masks(effective_suit) if suit_cards is None else suit_cards
        # Seats that sit out (a two-player game's silent partners, a dropped-out team) have active False.
        self.active = list(active) if active is not None else [True] * self.players
        self.leader = leader
        self.turn = leader
        self.trick: list[tuple[int, int]] = []
        self.led_suit = -1
        self.best_seat = -1
        self.best_key = -1
        self.completed: list[tuple[int, list[tuple[int, int]], int]] = []  # (leader, plays, winner)
        self.tricks_won = [0] * self.players
        self.taken = [0] * self.players  # bitmask of the cards each seat took in tricks

    def follow_mask(self, seat: int) -> int:
        """The cards ``seat`` may play if following suit is the only obligation."""
        hand = self.hands[seat]
        if not self.trick:
            return hand
        same = hand & self.suit_cards[self.led_suit]
        return same or hand

    def key(self, c: int) -> int:
        s = self.effective_suit[c]
        if s == self.trump:
            return 200 + self.strength[c]
        if s == self.led_suit:
            return 100 + self.strength[c]
        return 0

    def play(self, c: int, led_suit: int | None = None) -> int:
        """Play ``c`` for the seat to move; returns the trick's winner when the trick completes, else -1.

        ``led_suit`` overrides the led suit (Five Hundred's Joker led at no trumps names one).  Computer players call
        this thousands of times per decision, so ``key`` is inlined and the trick is complete when the turn would
        come back to its leader (``active`` may be replaced between deals, so nothing about it is cached).
        """
        seat = self.turn
        self.hands[seat] &= ~(1 << c)
        trick = self.trick
        suit = self.effective_suit[c]
        if trick:
            led = self.led_suit
        else:
            self.led_suit = led = suit if led_suit is None else led_suit
        trick.append((seat, c))
        if suit == self.trump:  # the same order as key()
            key = 200 + self.strength[c]
        elif suit == led:
            key = 100 + self.strength[c]
        else:
            key = 0
        if key > self.best_key:  # equal keys: the first played keeps the trick
            self.best_key = key
            self.best_seat = seat
        active = self.active
        nxt = seat + 1 if seat + 1 < self.players else 0
        while not active[nxt]:
            nxt = nxt + 1 if nxt + 1 < self.players else 0
        if nxt != self.leader:
            self.turn = nxt
            return -1
        return self.close_trick()

    def close_trick(self) -> int:
        """The complete trick goes to the seat whose card is winning it, who leads to the next; returns that seat."""
        winner = self.best_seat
        trick = self.trick
        cards_mask = 0
        for _, card in trick:
            cards_mask |= 1 << card
        self.taken[winner] |= cards_mask
        self.tricks_won[winner] += 1
        self.completed.append((self.leader, trick, winner))
        self.trick = []
        self.led_suit = self.best_seat = self.best_key = -1
        self.leader = self.turn = winner
        return winner

    @property
    def current_winner(self) -> int:
        """The seat whose card is winning the trick so far (-1 before the lead)."""
        return self.best_seat

    def trick_json(self) -> list[dict]:
        from rules.cards import CARD_NAMES

        return [{"seat": s, "cards": [CARD_NAMES[c]]} for s, c in self.trick]

    def copy(self) -> TrickPlay:
        other = TrickPlay.__new__(TrickPlay)
        for name in TrickPlay.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.trick = list(self.trick)
        other.completed = list(self.completed)
        other.tricks_won = list(self.tricks_won)
        other.taken = list(self.taken)
        other.active = list(self.active)
        return other


def points_table(values: dict[int, int]) -> list[int]:
    """A per-card-id list of points from ``{card_id: points}`` (missing cards are worth nothing)."""
    table = [0] * NUM_CARD_IDS
    for c, v in values.items():
        table[c] = v
    return table


def mask_points(mask: int, table: Sequence[int]) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += table[low.bit_length() - 1]
        mask ^= low
    return total
