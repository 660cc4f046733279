"""Benchmark: pairing a round for 512 entrants (issue 18), Swiss of teams and mêlée of individuals; and the standings
image (render/standings.py) for 16, 64 and 512 entrants: ranking the results and drawing the card (its top rows).

Plays ``--rounds`` rounds with random results and prints each round's CPU time: the matching (networkx's blossom
algorithm on the complete graph of the field) is the whole cost.

    .venv/bin/python bench/bench_pairing.py [--entrants 512] [--rounds 3] [--images 16,64,512]
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
from bot.tournaments.standings import CUMULATIVE, TableResult, standings  # noqa: E402
from render.standings import render_standings  # noqa: E402


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


def standings_image(entrants: int, repeats: int = 5) -> None:
    """Three rounds of random mêlée results, then the standings ranked and drawn, ``repeats`` times (median)."""
    rng = random.Random(2)
    field = list(range(1, entrants + 1))
    results = []
    for r in range(3):
        rng.shuffle(field)
        for k in range(0, entrants - entrants % 4, 4):
            a, b, c, d = field[k : k + 4]
            results.append(TableResult(r, ((a, c), (b, d)), (rng.randrange(0, 163), rng.randrange(0, 163))))
    names = {e: f"player{e}" for e in field}
    took_rank, took_draw = [], []
    for _ in range(repeats):
        start = time.process_time()
        lines = standings(field, results, [], CUMULATIVE)
        rows = [(ln.place, names[ln.entrant], ln.score, ln.won, ln.played) for ln in lines]
        middle = time.process_time()
        png = render_standings(rows, title="Mêlée du jeudi", columns=["st_cumulative", "st_won", "st_played"],
                               subtitle="Belote · cumulative", total=len(rows))  # fmt: skip
        took_rank.append(middle - start)
        took_draw.append(time.process_time() - middle)
    took_rank.sort()
    took_draw.sort()
    print(f"standings image, {entrants} entrants: ranking {took_rank[repeats // 2] * 1000:.1f} ms, drawing "
          f"{took_draw[repeats // 2] * 1000:.1f} ms CPU (median of {repeats}), {len(png) // 1024} KiB")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=512)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--images", default="16,64,512", help="field sizes for the standings image ('' for none)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    for size in filter(None, args.images.split(",")):
        standings_image(int(size))
    for kind in ("swiss", "melee"):
        run(kind, args.entrants, args.rounds)


if __name__ == "__main__":
    main()
