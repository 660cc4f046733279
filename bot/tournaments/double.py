"""A standard double elimination (docs/tournaments.md): a winners' bracket seeded as a single elimination (the top
seeds' byes when the field is not a power of two), a losers' bracket fed by the winners' bracket's losers, and a
grand final between the two brackets' winners, replayed once (the bracket reset) if the losers' bracket winner wins
the first, so that nobody is out before a second lost match.  Pure.

Each tournament round plays the winners' bracket's next round and the losers' bracket's next round side by side.
The state of both brackets is stored in the round's plan (``double``), so the next round follows from the last
stored round and its winners alone, after a restart too.  Losers' bracket order, as brackets do it: the teams
dropping from the winners' bracket meet the losers' bracket's survivors one to one, their order reversed every
other round (whichever of the two orders repeats fewer meetings), so that a team does not meet at once the team
that beat it; what is left over plays among itself, and an odd one out has the bye (never the same team twice in
a row while others have not had one).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from bot.tournaments.pairing import advance, bracket

STAGE = "double_elimination"


@dataclass(frozen=True)
class DoubleState:
    """One round of a double elimination: the winners' bracket's slots (pairs in order, None a bye), the losers'
    bracket in pairing order (adjacent pairs, a last odd one the bye), and the grand final when it is reached."""

    winners: tuple[int | None, ...]
    losers: tuple[int, ...]
    final: tuple[int, ...] = ()
    reset: bool = False

    def to_json(self) -> dict:
        return {"winners": list(self.winners), "losers": list(self.losers), "final": list(self.final),
                "reset": self.reset}  # fmt: skip

    @classmethod
    def from_json(cls, data: dict) -> DoubleState:
        return cls(
            tuple(None if e is None else int(e) for e in data["winners"]),
            tuple(int(e) for e in data["losers"]),
            tuple(int(e) for e in data.get("final", ())),
            bool(data.get("reset", False)),
        )

    def winners_tables(self) -> list[tuple[int, int]]:
        if self.final:
            return []
        pairs = [(self.winners[i], self.winners[i + 1]) for i in range(0, len(self.winners), 2)]
        return [(a, b) for a, b in pairs if a is not None and b is not None]

    def losers_tables(self) -> list[tuple[int, int]]:
        if self.final:
            return []
        return [(self.losers[i], self.losers[i + 1]) for i in range(0, len(self.losers) - 1, 2)]

    def tables(self) -> list[tuple[int, int]]:
        if self.final:
            return [(self.final[0], self.final[1])]
        return self.winners_tables() + self.losers_tables()

    def table_kinds(self) -> list[str]:
        """Which bracket each of ``tables()`` belongs to: winners, losers, final or reset (the final replayed)."""
        if self.final:
            return ["reset" if self.reset else "final"]
        return ["winners"] * len(self.winners_tables()) + ["losers"] * len(self.losers_tables())

    def byes(self) -> list[int]:
        if self.final:
            return []
        playing = {e for t in self.tables() for e in t}
        return [e for e in (*self.winners, *self.losers) if e is not None and e not in playing]

    def plan(self) -> dict:
        """The round's stored plan: tables (one team a side), byes, and the brackets' state."""
        return {"tables": [[[a], [b]] for a, b in self.tables()], "byes": self.byes(), "stage": STAGE,
                "double": self.to_json()}  # fmt: skip


def first_round(entrants_by_seed: Sequence[int]) -> DoubleState:
    return DoubleState(tuple(bracket(list(entrants_by_seed))), ())


@dataclass(frozen=True)
class Outcome:
    """What follows a round: the next round's state, or the champion."""

    next: DoubleState | None
    champion: int | None


def _winner(pair: tuple[int, int], won: Collection[int]) -> int:
    hit = [e for e in pair if e in won]
    if len(hit) != 1:
        raise ValueError(f"the match between {pair[0]} and {pair[1]} needs exactly one winner")
    return hit[0]


def _meetings(pairs: Iterable[tuple[int, int]], met: Collection[frozenset[int]]) -> int:
    return sum(1 for a, b in pairs if frozenset((a, b)) in met)


def _losers_order(
    survivors: list[int], droppers: list[int], flip: bool, met: Collection[frozenset[int]]
) -> tuple[int, ...]:
    """The losers' bracket's next pairing order: droppers against survivors one to one, then the rest among
    themselves."""
    straight, reverse = droppers, droppers[::-1]
    orders = [reverse, straight] if flip else [straight, reverse]
    best = min(orders, key=lambda d: _meetings(zip(survivors, d, strict=False), met))
    k = min(len(survivors), len(best))
    out: list[int] = []
    for s, d in zip(survivors[:k], best[:k], strict=True):
        out += [s, d]
    return tuple(out + survivors[k:] + best[k:])


def advance_round(
    state: DoubleState,
    won: Collection[int],
    field: Collection[int],
    round_no: int,
    met: Collection[frozenset[int]] = (),
) -> Outcome:
    """The round after ``state`` once its matches are won by ``won``.  ``field`` is who may still be paired
    (an entrant dropped by the organiser leaves both brackets); ``met`` the pairs that have played already."""
    if state.final:
        top, bottom = state.final
        present = [e for e in state.final if e in field]
        if len(present) == 1 and not set(state.final) & set(won):  # a finalist dropped before the final was won
            return Outcome(None, present[0])
        winner = _winner((top, bottom), won)
        if winner == top or state.reset:
            return Outcome(None, winner)
        # The losers' bracket winner took the first final: both now have one loss, so one more decides.
        return Outcome(DoubleState((), (), (top, bottom), True), None)
    wb_losers = [b if _winner((a, b), won) == a else a for a, b in state.winners_tables()]
    if len([e for e in state.winners if e is not None]) >= 2:
        winners = advance(state.winners, set(won))
    else:
        winners = list(state.winners)
    winners = [e if e in field else None for e in winners]
    lb_winners = [_winner(p, won) for p in state.losers_tables()]
    lb_byes = [e for e in state.losers if e not in {x for p in state.losers_tables() for x in p}]
    # The team that had the bye goes first, so the next odd one out is someone else.
    survivors = [e for e in lb_byes + lb_winners if e in field]
    droppers = [e for e in wb_losers if e in field]
    pool = _losers_order(survivors, droppers, round_no % 2 == 1, met)
    alive = [e for e in winners if e is not None]
    if len(alive) <= 1 and len(pool) <= 1:
        if alive and pool:
            return Outcome(DoubleState((), (), (alive[0], pool[0])), None)
        left = alive + list(pool)
        return Outcome(None, left[0] if left else None)
    if len(alive) == 1:
        winners = [alive[0], None]
    return Outcome(DoubleState(tuple(winners), pool), None)


def losses_of(rounds: Sequence[tuple[DoubleState, Collection[int]]]) -> dict[int, int]:
    """Each entrant's lost matches over played rounds (state, winners)."""
    out: dict[int, int] = {}
    for state, won in rounds:
        for a, b in state.tables():
            loser = b if _winner((a, b), won) == a else a
            out[loser] = out.get(loser, 0) + 1
    return out
