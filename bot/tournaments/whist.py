"""Balanced whist tournaments Wh(n): over their rounds every player partners every other exactly once and opposes
every other exactly twice.  Each is a cyclic schedule: one base round developed by adding 1 (mod n - 1, the last
player staying put, when n = 4k; mod n, player 0 sitting out the base round, when n = 4k + 1).  The base rounds are
cyclic ones for these sizes, found by a search over base rounds and checked in tests/test_tournament_pairing.py; a field
of another size is paired by matching instead."""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.plan import Pairing, RoundPlan, round_rng

Table = tuple[tuple[int, int], tuple[int, int]]

BASE_ROUNDS: dict[int, tuple[Table, ...]] = {
    4: (((2, 0), (3, 1)),),
    5: (((2, 3), (4, 1)),),
    8: (((7, 4), (2, 1)), ((5, 0), (3, 6))),
    12: (((10, 11), (6, 4)), ((0, 7), (8, 5)), ((2, 1), (3, 9))),
    13: (((9, 10), (11, 5)), ((6, 8), (3, 12)), ((1, 4), (7, 2))),
    16: (((7, 5), (12, 11)), ((4, 13), (10, 0)), ((2, 15), (14, 3)), ((8, 1), (9, 6))),
}


def schedule_length(n: int) -> int:
    return n - 1 if n % 4 == 0 else n


def schedule(n: int) -> list[tuple[tuple[Table, ...], tuple[int, ...]]] | None:
    """Wh(n) as rounds of (tables, players sitting out) over players 0..n-1, or None for a size without one here."""
    base = BASE_ROUNDS.get(n)
    if base is None:
        return None
    modulus, fixed = (n - 1, n - 1) if n % 4 == 0 else (n, None)
    rounds: list[tuple[tuple[Table, ...], tuple[int, ...]]] = []
    for shift in range(schedule_length(n)):

        def moved(p: int, shift: int = shift) -> int:
            return p if p == fixed else (p + shift) % modulus

        tables = tuple(((moved(a), moved(b)), (moved(c), moved(d))) for (a, b), (c, d) in base)
        rounds.append((tables, () if fixed is not None else (shift % modulus,)))
    return rounds


def whist_round(field: Sequence[int], seed: int, round_no: int) -> RoundPlan | None:
    """Round ``round_no`` of the field's whist schedule, players placed on its points by the tournament's seed (the
    same placement every round); None when the size has no schedule here or the schedule is used up."""
    rounds = schedule(len(field))
    if rounds is None or round_no >= len(rounds):
        return None
    placed = sorted(field)
    round_rng(seed, 0, "whist placement").shuffle(placed)
    tables, out = rounds[round_no]
    return RoundPlan(
        tuple(Pairing(((placed[a], placed[b]), (placed[c], placed[d]))) for (a, b), (c, d) in tables),
        tuple(sorted(placed[p] for p in out)),
    )
