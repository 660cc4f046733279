"""Shuffling with a seeded generator, and checking that a record's cards are the pack the options call for."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.cards import CARD_NAMES, mask_of
from rules.errors import RecordError


@dataclass
class DealCards:
    """The cards of one deal: hands in seat order and the kitty, or (Da Bai Fen) a stock drawn top first."""

    hands: list[list[int]] | None = None
    kitty: list[int] = field(default_factory=list)
    stock: list[int] | None = None

    def masks(self) -> list[int]:
        return [mask_of(h) for h in self.hands or []]


def deal_rng(seed: int, deal_index: int) -> random.Random:
    """The generator for deal ``deal_index`` of a seeded record: each deal independent of the others' play."""
    return random.Random(f"cardtable:{seed}:{deal_index}")


def shuffled(pack: Sequence[int], rng: random.Random) -> list[int]:
    cards = list(pack)
    rng.shuffle(cards)
    return cards


def deal_hands(pack: Sequence[int], rng: random.Random, hand_sizes: Sequence[int], kitty_size: int) -> DealCards:
    cards = shuffled(pack, rng)
    hands, i = [], 0
    for n in hand_sizes:
        hands.append(cards[i : i + n])
        i += n
    return DealCards(hands=hands, kitty=cards[i : i + kitty_size])


def check_pack(cards: Sequence[int], pack: Sequence[int], what: str = "the deal") -> None:
    """The cards must be exactly ``pack`` (as a multiset); the message names what is wrong."""
    have, want = Counter(cards), Counter(pack)
    dupes = [CARD_NAMES[c] for c, n in have.items() if n > want.get(c, 0) and c in want]
    foreign = [CARD_NAMES[c] for c in have if c not in want]
    missing = [CARD_NAMES[c] for c, n in want.items() if have.get(c, 0) < n]
    problems = []
    if foreign:
        problems.append(f"{', '.join(foreign)} not in this game's pack")
    if dupes:
        problems.append(f"{', '.join(dupes)} dealt more than once")
    if missing:
        problems.append(f"{', '.join(missing)} missing")
    if problems:
        raise RecordError(f"{what} is not the right pack: " + "; ".join(problems))


def check_hands(cards: DealCards, pack: Sequence[int], hand_sizes: Sequence[int], kitty_size: int) -> None:
    if cards.hands is None:
        raise RecordError("a deal needs 'hands' (one list of cards per seat)")
    if len(cards.hands) != len(hand_sizes):
        raise RecordError(f"a deal needs {len(hand_sizes)} hands, one per seat; got {len(cards.hands)}")
    for seat, (hand, n) in enumerate(zip(cards.hands, hand_sizes, strict=True)):
        if len(hand) != n:
            raise RecordError(f"seat {seat} must be dealt {n} cards, not {len(hand)}")
    if len(cards.kitty) != kitty_size:
        raise RecordError(f"the kitty must hold {kitty_size} cards, not {len(cards.kitty)}")
    check_pack([c for h in cards.hands for c in h] + list(cards.kitty), pack)
