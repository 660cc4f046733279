"""The double-dummy solver (rules/ai/solver.py): time and nodes to solve positions of n tricks left, per game.

    .venv/bin/python bench/bench_solver.py                           # 3 positions per size, default sizes
    .venv/bin/python bench/bench_solver.py --games belote --tricks 4,6,8 --positions 10
    .venv/bin/python bench/bench_solver.py --max-nodes 2000000       # let the big ones run

With ``--root-moves``: every move at the position is solved (what the master does for its candidates in one
world, with one shared table), each by bisection of the point range, then each by MTD(f) from the previous move's
value (``Solver.value(guess)``, the master's way since issue 21's second session).

With ``--contract-test P``: instead of the exact value, one null-window test "do the counted positions take at
least P?" (what valuing a contract needs: Belote's 82 of 162 to make an 80 at least), the cheapest question the
solver can answer about a whole deal.

Positions: deals bid by the heuristic and played by it to a trick boundary with n cards left in each hand (n = the
hand size: the whole deal from its first lead).  Times are the process's CPU time (the machine is shared: wall
time would measure the other jobs too).  A solve stopped at ``--max-nodes`` is counted as not solved (the master
never waits for one: it gives such a position to the heuristic).  Figures are printed; nothing here is an
assertion.  They are the imported solver's: the mypyc-compiled one when ``pip install -e .`` built it (setup.py),
else the .py (``rules.ai.compiled.is_compiled``; the first line printed says which).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.actions import Action  # noqa: E402
from rules.ai import dd_worlds  # noqa: E402
from rules.ai import solver as solver_module  # noqa: E402
from rules.ai.compiled import is_compiled  # noqa: E402
from rules.ai.heuristic import HeuristicPlayer  # noqa: E402
from rules.ai.solver import SearchLimit, Solver  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import PLAY  # noqa: E402
from rules.registry import new_match  # noqa: E402

SIZES = {
    "belote": (4, 5, 6, 8),
    "five_hundred": (4, 6, 8, 10),
    "two_hundred": (4, 6, 8, 10),
    "da_bai_fen": (4, 6, 8, 12),
}


def position_at(game: str, seed: int, tricks: int):
    """A position with ``tricks`` tricks left, at a trick boundary (None: the deal did not get there)."""
    rng = random.Random(seed)
    m = new_match(game, {})
    m.start_deal(m.random_deal(rng))
    history: list[Action] = []
    h = HeuristicPlayer()
    while m.to_move is not None:
        seat = m.to_move
        if m.phase == PLAY:
            pos = dd_worlds.position(m, seat)
            if pos is not None and not pos.trick and pos.hands[pos.leader].bit_count() == tricks:
                return pos
        a = h.choose_view(build_view(m, seat, history), rng)
        m.apply(a)
        history.append(a)
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(SIZES))
    ap.add_argument("--tricks", default="", help="sizes to time, e.g. 4,6,8 (default: per game)")
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--max-nodes", type=int, default=300_000)
    ap.add_argument("--root-moves", action="store_true", help="solve every root move: bisection against MTD(f)")
    ap.add_argument("--contract-test", type=int, default=0, help="one null-window test at these points instead")
    args = ap.parse_args()
    print(f"solver: {'compiled' if is_compiled(solver_module) else 'Python'} ({solver_module.__file__})", flush=True)
    if args.root_moves:
        root_moves(args)
        return
    for game in args.games.split(","):
        sizes = [int(x) for x in args.tricks.split(",")] if args.tricks else SIZES[game]
        for tricks in sizes:
            times, nodes, stopped = [], [], 0
            seed = 0
            while len(times) + stopped < args.positions and seed < 200:
                pos = position_at(game, seed, tricks)
                seed += 1
                if pos is None:
                    continue
                solver = Solver(pos, args.max_nodes)
                t0 = time.process_time()
                try:
                    if args.contract_test:
                        solver.search(args.contract_test - 1, args.contract_test)
                    else:
                        solver.value()
                except SearchLimit:
                    stopped += 1
                    continue
                times.append(time.process_time() - t0)
                nodes.append(solver.nodes)
            if times:
                times.sort()
                nodes.sort()
                text = (f"median {1000 * _median(times):.1f} ms, p95 {1000 * _p95(times):.1f} ms, "
                        f"max {1000 * times[-1]:.1f} ms; nodes median {_median(nodes):.0f}, "
                        f"p95 {_p95(nodes):.0f}")  # fmt: skip
            else:
                text = "none solved"
            print(f"{game:13} {tricks:2} tricks: {len(times)} solved, {stopped} stopped at {args.max_nodes} nodes; "
                  f"{text}", flush=True)  # fmt: skip


def _median(xs: list) -> float:
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def _p95(xs: list) -> float:
    """The 95th percentile of sorted ``xs`` (nearest rank)."""
    return xs[min(len(xs) - 1, max(0, -(-95 * len(xs) // 100) - 1))]


def solve_moves(pos, chained: bool) -> tuple[float, int]:
    """(seconds, nodes) to value every move at ``pos`` with one shared table; ``chained``: MTD(f) from the last
    value, else bisection each time."""
    tt: dict = {}
    probe = Solver(pos.copy())
    moves = probe.moves(probe.turn())
    t0 = time.perf_counter()
    nodes = 0
    last = None
    for m in moves:
        solver = Solver(pos.copy(), None, tt)
        solver.play(m)
        last = solver.value(last if chained else None)
        nodes += solver.nodes
    return time.perf_counter() - t0, nodes


def root_moves(args) -> None:
    for game in args.games.split(","):
        sizes = [int(x) for x in args.tricks.split(",")] if args.tricks else SIZES[game][:2]
        for tricks in sizes:
            rows = {False: [], True: []}
            seed = 0
            while len(rows[True]) < args.positions and seed < 200:
                pos = position_at(game, seed, tricks)
                seed += 1
                if pos is None:
                    continue
                for chained in (False, True):
                    rows[chained].append(solve_moves(pos, chained))
            text = []
            for chained, name in ((False, "bisection"), (True, "MTD(f) chained")):
                r = rows[chained]
                if r:
                    t = sum(x[0] for x in r) / len(r)
                    n = sum(x[1] for x in r) // len(r)
                    text.append(f"{name} {1000 * t:.1f} ms, {n} nodes")
            print(f"{game:13} {tricks:2} tricks, every root move ({len(rows[True])} positions): "
                  + "; ".join(text), flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
