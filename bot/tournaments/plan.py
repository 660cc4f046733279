"""What a round is: its tables (each a list of sides, each side the entrants sitting there) and who has a bye.

Pure data, shared by the pairing, the standings and the service; an entrant is an int id (a team or a player,
whichever the tournament's entry is).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Side = tuple[int, ...]


@dataclass(frozen=True)
class Pairing:
    """One table of a round: its sides in seat order (side 0 sits at seats 0 and 2 in a partnership game)."""

    sides: tuple[Side, ...]

    def entrants(self) -> tuple[int, ...]:
        return tuple(e for side in self.sides for e in side)

    def to_json(self) -> list[list[int]]:
        return [list(side) for side in self.sides]

    @classmethod
    def from_json(cls, data: Sequence[Sequence[int]]) -> Pairing:
        return cls(tuple(tuple(int(e) for e in side) for side in data))


@dataclass(frozen=True)
class RoundPlan:
    tables: tuple[Pairing, ...]
    byes: tuple[int, ...] = ()

    def entrants(self) -> set[int]:
        return {e for t in self.tables for e in t.entrants()} | set(self.byes)

    def to_json(self) -> dict:
        return {"tables": [t.to_json() for t in self.tables], "byes": list(self.byes)}

    @classmethod
    def from_json(cls, data: dict) -> RoundPlan:
        return cls(tuple(Pairing.from_json(t) for t in data["tables"]), tuple(int(e) for e in data.get("byes", ())))


def round_rng(seed: int, round_no: int, purpose: str = "pairing") -> random.Random:
    """The generator for one round's draw: the same stored seed always gives the same pairings."""
    return random.Random(f"cardtable-tournament:{seed}:{round_no}:{purpose}")


def seed_commitment(seed: int) -> str:
    """What is posted before a round (the seed itself is revealed after): anyone can check the two match."""
    return hashlib.sha256(f"cardtable-seed:{seed}".encode()).hexdigest()


def pair_key(a: int, b: int) -> frozenset[int]:
    return frozenset((a, b))


@dataclass
class History:
    """Who met whom so far: opponents, partners and byes, counted over past rounds."""

    opponents: Counter[frozenset[int]]
    partners: Counter[frozenset[int]]
    byes: Counter[int]

    @classmethod
    def of(cls, rounds: Iterable[RoundPlan]) -> History:
        opponents: Counter[frozenset[int]] = Counter()
        partners: Counter[frozenset[int]] = Counter()
        byes: Counter[int] = Counter()
        for plan in rounds:
            byes.update(plan.byes)
            for table in plan.tables:
                for i, side in enumerate(table.sides):
                    for j, a in enumerate(side):
                        for b in side[j + 1 :]:
                            partners[pair_key(a, b)] += 1
                    for other in table.sides[i + 1 :]:
                        for a in side:
                            for b in other:
                                opponents[pair_key(a, b)] += 1
        return cls(opponents, partners, byes)
