"""Benchmark: pairing a round for 512 entrants (issue 18), Swiss of teams and mêlée of individuals.

Plays ``--rounds`` rounds with random results and prints each round's CPU time: the matching (networkx's blossom
algorithm on the complete graph of the field) is the whole cost.

    .venv/bin/python bench/bench_pairing.py [--entrants 512] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.tournaments.pairing import melee_round, swiss_round  # noqa: E402
from bot.tournaments.plan import History, RoundPlan  # noqa: E402


def run(kind: str, entrants: int, rounds: int) -> None:
    field = list(range(1, entrants + 1))
    rng = random.Random(1)
    scores: Counter = Counter()
    history: list[RoundPlan] = []
    for r in range(rounds):
        past = History.of(history)
        start = time.process_time()
        if kind == "swiss":
            plan = swiss_round(field, scores, past, 1, r)
        else:
            plan = melee_round(field, past, 1, r, scores=None)
        took = time.process_time() - start
        print(f"{kind:6} {entrants} entrants, round {r + 1}: {len(plan.tables)} tables, {took:.2f} s CPU")
        for table in plan.tables:
            for e in table.sides[rng.randrange(2)]:
                scores[e] += 2
        history.append(plan)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    for kind in ("swiss", "melee"):
        run(kind, args.entrants, args.rounds)


if __name__ == "__main__":
    main()
