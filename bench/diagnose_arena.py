"""Where does level A gain or lose against level B in duplicate deals: in the contract reached, or in the play?

    nice -n 19 .venv/bin/python bench/diagnose_arena.py --game belote --a master --b expert --deals 60 --seed 1001
    ... --set rules.ai.master_bids.BID_CAUTION=0.5     (a variant: a module constant set for the run)
    ... --calls     (each sitting's calls as seat:level-initial:call, its points, made and score change)

The arena's duplicate deals (``rules/ai/arena.py``: one deal a match, the same cards, first dealer and per-sitting
seeds), played once with A at side 0 and once at side 1.  For each deal the two sittings' contracts are compared
(the taking side, Belote's suit and level and counter, Two Hundred's bid): where both sittings end in the same
contract, A's margin comes from the play (and the defence); where they differ, from the calls.  Prints A's summed
margin and won-lost-tied per kind, then each deal's line.  Figures only, nothing here is an assertion.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchkit import arena_options, set_constants  # noqa: E402

from rules.actions import Action  # noqa: E402
from rules.ai.arena import _sides, arena_deals, deal_score  # noqa: E402
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


def sitting(game, first_dealer, cards, levels, players, seed, timing, calls=None) -> tuple[list[float], dict]:
    """One sitting of a deal; ``calls`` (a list) receives the auction's calls as (seat, level, type, "call")."""
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
        if calls is not None and action.type in ("bid", "pass", "counter", "recounter"):
            suit = "" if action.suit is None else action.suit
            what = action.type if action.value is None else f"{suit}{action.value}"
            calls.append((seat, levels[seat], action.type, what))
        match.apply(action)
        history.append(action)
    return deal_score(match.deal_results[-1]), match.deal_results[-1]


def taking_side(contract: str) -> int | None:
    return int(contract.split(":")[0].split()[1]) if contract.startswith("side ") else None


def who_took(contracts: list[str]) -> str:
    """Which level's side took the contract in each sitting (A sits at side 0 in the first, side 1 in the second)."""
    t0, t1 = taking_side(contracts[0]), taking_side(contracts[1])
    if t0 is None or t1 is None:
        return "thrown in in a sitting"
    if t0 == t1:
        return "the same cards took both"
    return "A's side took both" if t0 == 0 else "B's side took both"


def contract_kind(calls: list[tuple], sides: list[int]) -> str:
    """How the auction's last bid was made: raising its own side's bid, over the other side's, or alone."""
    bids = [c for c in calls if c[2] == "bid"]
    last = bids[-1]
    if len(bids) > 1 and sides[bids[-2][0]] == sides[last[0]]:
        return "raise of own side"
    return "contested" if any(sides[c[0]] != sides[last[0]] for c in bids) else "uncontested"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arena_options(ap, game="belote", seed=1001)
    ap.add_argument("--calls", action="store_true", help="print each sitting's calls, points and made")
    args = ap.parse_args()
    set_constants(args.set)
    game = args.game
    players = {lv: make_ai_player(lv, args.budget) for lv in {args.a, args.b}}
    timing: dict[str, list[float]] = defaultdict(list)
    margin: dict[str, float] = defaultdict(float)
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    took: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])  # who took: deals, A's summed margin
    taken: dict[tuple, list[float]] = defaultdict(lambda: [0, 0, 0.0])  # (level, kind): contracts, made, margin
    for i in range(args.deals):
        seed = args.seed + i
        probe = new_match(game, {})
        sides = _sides(probe)
        first_dealer, (cards,) = arena_deals(game, {}, seed)
        total, contracts = 0.0, []
        for r in range(2):
            levels = [args.a if sides[s] == r else args.b for s in range(probe.players)]
            calls: list[tuple] = []
            change, result = sitting(game, first_dealer, cards, levels, players, seed * 7919 + r, timing, calls)
            total += change[r] - change[1 - r]
            contracts.append(contract_of(result))
            taker = taking_side(contracts[-1])
            if taker is not None and any(c[2] == "bid" for c in calls):
                t = taken[(args.a if taker == r else args.b, contract_kind(calls, sides))]
                t[0] += 1
                t[1] += bool(result.get("made"))
                t[2] += change[taker] - change[1 - taker]
            if args.calls:
                said = " ".join(f"{c[0]}:{c[1][0]}:{c[3]}" for c in calls)
                print(f"  seed {seed} A at side {r}: {said} -> {contracts[-1]} made {result.get('made')}"
                      f" points {result.get('points')} change {change}", flush=True)  # fmt: skip
        kind = "same contract" if contracts[0] == contracts[1] else "different contract"
        margin[kind] += total
        tally[kind][0 if total > 0 else 1 if total < 0 else 2] += 1
        took[who_took(contracts)][0] += 1
        took[who_took(contracts)][1] += total
        print(f"seed {seed}: {kind:18} A at side 0: {contracts[0]:10} A at side 1: {contracts[1]:10} A {total:+.0f}",
              flush=True)  # fmt: skip
    for kind in sorted(margin):
        w, lo, t = tally[kind]
        print(f"{kind}: {w + lo + t} deals, A won-lost-tied {w}-{lo}-{t}, A's summed margin {margin[kind]:+.0f}")
    for who, (n, m) in sorted(took.items()):
        print(f"{who}: {n} deals, A's summed margin {m:+.0f}")
    for (lv, kind), (n, made, m) in sorted(taken.items()):
        print(f"contracts taken by {lv}'s side, {kind}: {n}, made {made}, the takers' margin {m / n:+.1f} a contract")
    for lv, ts in timing.items():
        s = sorted(ts)
        print(f"{lv}: decision p50 {s[len(s) // 2] * 1000:.0f} ms, p95 {s[int(0.95 * len(s))] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
