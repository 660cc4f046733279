"""Where does level A gain or lose against level B in duplicate deals: in the contract reached, or in the play?

    nice -n 19 .venv/bin/python bench/diagnose_arena.py --game belote --a master --b expert --deals 60 --seed 1001
    ... --set rules.ai.master_bids.BID_CAUTION=0.5     (a variant: a module constant set for the run)

The arena's duplicate deals (``rules/ai/arena.py``: one deal a match, the same cards, first dealer and per-sitting
seeds), played once with A at side 0 and once at side 1.  For each deal the two sittings' contracts are compared
(the taking side, Belote's suit and level and counter, Two Hundred's bid): where both sittings end in the same
contract, A's margin comes from the play (and the defence); where they differ, from the calls.  Prints A's summed
margin and won-lost-tied per kind, then each deal's line.  Figures only, nothing here is an assertion.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import random
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.actions import Action  # noqa: E402
from rules.ai.arena import _sides, deal_score  # noqa: E402
from rules.ai.players import make_ai_player  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import BETWEEN_DEALS, GAME_OVER  # noqa: E402
from rules.registry import new_match  # noqa: E402


def contract_of(result: dict) -> str:
    """The deal's contract: the taking side (the same cards in both sittings) and what it took."""
    c = result.get("contract")
    if not c or result.get("thrown_in"):
        return "thrown in"
    extra = "x" * (c.get("multiplier", 1) // 2) if c.get("multiplier", 1) > 1 else ""
    return f"side {c.get('team')}:{c.get('suit', '')}{c.get('value', c.get('bid', ''))}{extra}"


def sitting(game, first_dealer, cards, levels, players, seed, timing) -> tuple[list[float], dict]:
    match = new_match(game, {}, first_dealer)
    rng = random.Random(seed)
    match.start_deal(cards)
    history: list[Action] = []
    while match.phase not in (BETWEEN_DEALS, GAME_OVER):
        seat = match.to_move
        assert seat is not None
        view = build_view(match, seat, history)
        t0 = time.perf_counter()
        action = players[levels[seat]].choose_view(view, rng)
        timing[levels[seat]].append(time.perf_counter() - t0)
        match.apply(action)
        history.append(action)
    return deal_score(match.deal_results[-1]), match.deal_results[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="belote")
    ap.add_argument("--a", default="master")
    ap.add_argument("--b", default="expert")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1001)
    ap.add_argument("--budget", type=float, default=0.1)
    ap.add_argument("--set", action="append", default=[], metavar="MODULE.NAME=VALUE", help="a module constant")
    args = ap.parse_args()
    for assignment in args.set:
        target, value = assignment.split("=", 1)
        module, name = target.rsplit(".", 1)
        setattr(importlib.import_module(module), name, ast.literal_eval(value))
    game = args.game
    players = {lv: make_ai_player(lv, args.budget) for lv in {args.a, args.b}}
    timing: dict[str, list[float]] = defaultdict(list)
    margin: dict[str, float] = defaultdict(float)
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for i in range(args.deals):
        seed = args.seed + i
        rng = random.Random(f"arena:{game}:{seed}")  # the arena's deal for this seed
        probe = new_match(game, {})
        sides = _sides(probe)
        first_dealer = rng.randrange(probe.players)
        cards = probe.random_deal(rng)
        total, contracts = 0.0, []
        for r in range(2):
            levels = [args.a if sides[s] == r else args.b for s in range(probe.players)]
            change, result = sitting(game, first_dealer, cards, levels, players, seed * 7919 + r, timing)
            total += change[r] - change[1 - r]
            contracts.append(contract_of(result))
        kind = "same contract" if contracts[0] == contracts[1] else "different contract"
        margin[kind] += total
        tally[kind][0 if total > 0 else 1 if total < 0 else 2] += 1
        print(f"seed {seed}: {kind:18} A at side 0: {contracts[0]:10} A at side 1: {contracts[1]:10} A {total:+.0f}",
              flush=True)  # fmt: skip
    for kind in sorted(margin):
        w, lo, t = tally[kind]
        print(f"{kind}: {w + lo + t} deals, A won-lost-tied {w}-{lo}-{t}, A's summed margin {margin[kind]:+.0f}")
    for lv, ts in timing.items():
        s = sorted(ts)
        print(f"{lv}: decision p50 {s[len(s) // 2] * 1000:.0f} ms, p95 {s[int(0.95 * len(s))] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
