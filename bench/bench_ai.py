"""Computer players: decision time per game and level (p50/p95), and arena win rates with 95% intervals.

    .venv/bin/python bench/bench_ai.py                      # decision times + a short arena per game
    .venv/bin/python bench/bench_ai.py --decisions 40 --matches 30 --budget 0.5 --games belote
    .venv/bin/python bench/bench_ai.py --no-arena            # decision times only
    .venv/bin/python bench/bench_ai.py --no-arena --levels heuristic --decisions 400   # the bot's level
    .venv/bin/python bench/bench_ai.py --no-arena --levels heuristic --decisions 2000 --bot-form

Decision times are measured on positions from heuristic self-play (every phase: bidding, exchange, play), the
expert at its default budget unless --budget is given.  Arena: heuristic vs random and expert vs heuristic, in
duplicate matches (see rules/ai/arena.py).  ``--bot-form``: every decision of whole deals in order, the history given
as the bot gives it (the record's action dicts, one more at each move; forced moves included).  Figures are
printed; nothing here is an assertion.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.ai.arena import run_arena  # noqa: E402
from rules.ai.players import DEFAULT_BUDGET_S, make_ai_player  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import BETWEEN_DEALS, GAME_OVER  # noqa: E402
from rules.registry import new_match  # noqa: E402

GAMES = ("two_hundred", "five_hundred", "belote", "da_bai_fen")


def positions(game: str, n: int, seed: int) -> list:
    """``n`` decision points (match copy, history) spread over heuristic self-play deals, all phases."""
    rng = random.Random(seed)
    player = make_ai_player("heuristic")
    states = []
    match = new_match(game)
    while len(states) < 6 * n:
        if match.phase == GAME_OVER:
            match = new_match(game)
        match.start_deal(match.random_deal(rng))
        history = []
        while match.phase not in (BETWEEN_DEALS, GAME_OVER):
            legal = match.legal_actions()
            if len([a for a in legal if a.seat == match.to_move]) > 1:
                states.append((match.clone(), list(history)))
            action = player.choose(match, rng, history)
            match.apply(action)
            history.append(action)
    rng.shuffle(states)
    return states[:n]


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def time_decisions(game: str, level: str, states, budget: float | None) -> tuple[list[float], list[float]]:
    """Per decision: the whole time (view + choice) and the view's share."""
    player = make_ai_player(level, budget)
    rng = random.Random(1)
    times, views = [], []
    for match, history in states:
        t0 = time.perf_counter()
        view = build_view(match, match.to_move, history)
        t1 = time.perf_counter()
        player.choose_view(view, rng)
        times.append(time.perf_counter() - t0)
        views.append(t1 - t0)
    return times, views


def time_as_the_bot(game: str, level: str, n: int, seed: int) -> tuple[list[float], list[float]]:
    """The bot's way: whole deals in order, the history given as the record's action dicts (one more each move)."""
    rng = random.Random(seed)
    player = make_ai_player(level)
    times, views = [], []
    match = new_match(game)
    while len(times) < n:
        if match.phase == GAME_OVER:
            match = new_match(game)
        match.start_deal(match.random_deal(rng))
        record: list[dict] = []
        while match.phase not in (BETWEEN_DEALS, GAME_OVER):
            t0 = time.perf_counter()
            view = build_view(match, match.to_move, list(record))
            t1 = time.perf_counter()
            action = player.choose_view(view, rng)
            times.append(time.perf_counter() - t0)
            views.append(t1 - t0)
            match.apply(action)
            record.append(action.to_json())
    return times, views


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--decisions", type=int, default=20, help="decisions timed per game and level")
    ap.add_argument("--budget", type=float, default=None, help=f"expert seconds per decision ({DEFAULT_BUDGET_S})")
    ap.add_argument("--matches", type=int, default=6, help="duplicate matches per arena pairing")
    ap.add_argument("--deals-per-match", type=int, default=2)
    ap.add_argument("--arena-budget", type=float, default=0.1, help="expert budget in the arena (default 0.1 s)")
    ap.add_argument("--levels", default="random,heuristic,expert", help="levels timed (comma-separated)")
    ap.add_argument("--bot-form", action="store_true", help="decisions along whole deals, record dicts as history")
    ap.add_argument("--no-arena", action="store_true")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g]
    print("decision time per game and level (view built inside the timing)")
    print(f"{'game':14} {'level':10} {'n':>4} {'p50 ms':>9} {'p95 ms':>9} {'max ms':>9} {'mean ms':>9}"
          f" {'view mean ms':>13}")  # fmt: skip
    for game in games:
        states = [] if args.bot_form else positions(game, args.decisions, args.seed)
        for level in [lv for lv in args.levels.split(",") if lv]:
            if args.bot_form:
                ts, vs = time_as_the_bot(game, level, args.decisions, args.seed)
            else:
                ts, vs = time_decisions(game, level, states, args.budget)
            print(f"{game:14} {level:10} {len(ts):4d} {percentile(ts, 0.5) * 1000:9.3f} "
                  f"{percentile(ts, 0.95) * 1000:9.3f} {max(ts) * 1000:9.3f} {sum(ts) / len(ts) * 1000:9.3f}"
                  f" {sum(vs) / len(vs) * 1000:13.3f}", flush=True)  # fmt: skip
    if args.no_arena:
        return
    print()
    print(f"arena: duplicate matches of {args.deals_per_match} deals; expert budget {args.arena_budget} s")
    for game in games:
        for a, b in (("heuristic", "random"), ("expert", "heuristic")):
            r = run_arena(game, {}, a, b, args.matches, args.seed, args.deals_per_match, args.arena_budget)
            d = r.as_dict()
            lo, hi = d["ci95"]
            print(f"{game:14} {a:>9} vs {b:9}: {d['wins']:3d}-{d['losses']:3d}-{d['ties']:3d}  win rate "
                  f"{d['win_rate']:.3f}  95% CI [{lo:.3f}, {hi:.3f}]  mean margin {d['mean_margin']:+.1f}  "
                  f"({d['seconds']:.0f} s)", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
