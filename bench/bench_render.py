"""Render timings: CPU median and p95 milliseconds, wall median, and PNG size per image kind and game (targets:
table <= 2.5 ms and hand <= 1.5 ms median CPU, PNG <= 150 KB).

"table" and "hand" are what the bot draws after each action: every state of ``--tables`` seeded random games of
the game, the tables' states interleaved (as one render worker gets pictures of many tables in turn), each picture
drawn once, as the bot draws it (the clock's label, the last trick while no trick is in progress); the hand is the
hand of the player to move, with its legal cards, drawn for the first time (render keeps the last few hundred hand
images; a hand shown again costs nothing).  Before the timed pass, the same kind of pass over other games warms
the caches a running worker has (card faces, fonts, labels).  The deal summary, score sheet and leaderboard are one
picture drawn ``--runs`` times.

    .venv/bin/python bench/bench_render.py [--tables 6] [--runs 30]

The same script measures another checkout's render (to compare before and after):
``PYTHONPATH=/path/to/checkout .venv/bin/python bench/bench_render.py``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from render import render_deal_summary, render_hand, render_leaderboard, render_score_sheet, render_table
from render.hand import _hand_png
from render.state import trump_rank

GAMES = {"two_hundred": 4, "five_hundred": 3, "belote": 4, "da_bai_fen": 4}
NAMES = ["Alice", "Bruno", "Chloé", "王芳", "Émile", "Zoë"]
CLOCK = "30 s / turn"
MAX_STATES = 80  # per table: a deal or two


def game_states(game: str, seed: int) -> list[tuple[dict, list[str], int]]:
    """Each state of a seeded random game before an action (state, the mover's hand, the mover): the first
    MAX_STATES (random players can bid a game out forever)."""
    from rules.players import RandomPlayer
    from rules.registry import new_match

    m = new_match(game, {})
    rng, player = random.Random(seed), RandomPlayer()
    m.start_deal(m.random_deal(rng))
    seen: list[tuple[dict, list[str], int]] = []
    while m.phase != "game_over" and len(seen) < MAX_STATES:
        if m.phase == "between_deals":
            m.start_deal(m.random_deal(rng))
            continue
        seen.append((m.output(), m.hand_mask_names(m.to_move), m.to_move))
        m.apply(player.choose(m, rng))
    return seen


def final_state(game: str, seed: int = 1) -> dict:
    """The state at the end of a seeded random game (seed 1 ends in every game)."""
    from rules.players import RandomPlayer
    from rules.registry import new_match

    m = new_match(game, {})
    rng, player = random.Random(seed), RandomPlayer()
    m.start_deal(m.random_deal(rng))
    while m.phase != "game_over":
        if m.phase == "between_deals":
            m.start_deal(m.random_deal(rng))
            continue
        m.apply(player.choose(m, rng))
    return m.output()


def interleaved(game: str, tables: int, first_seed: int) -> list[tuple[dict, list[str], int]]:
    """The states of ``tables`` games, round-robin: table 1's first state, table 2's first, ..."""
    runs = [game_states(game, first_seed + i) for i in range(tables)]
    return [run[i] for i in range(max(map(len, runs))) for run in runs if i < len(run)]


def draw_table(game: str, state: dict, seat: int) -> bytes:
    names = NAMES[: GAMES[game]]
    last = state.get("last_trick") or []
    return render_table(state, names, to_move=seat, title=f"{game} · table #7", clock=CLOCK,
                        show_last_trick=bool(last) and not state.get("trick"), last_trick=last)  # fmt: skip


def draw_hand(game: str, state: dict, hand: list[str], seat: int) -> bytes:
    _hand_png.cache_clear()  # drawn for the first time
    legal = {c for a in state.get("legal") or [] if a["type"] == "play" for c in a.get("cards", [])}
    return render_hand(game, hand, trump=state.get("trump"), trump_rank=trump_rank(state), legal=legal or None,
                       title=NAMES[seat])  # fmt: skip


def measure(calls: list[Callable[[], bytes]]) -> tuple[float, float, float, float]:
    """CPU median and p95 (this process only: steadier on a shared machine), wall median (milliseconds), and the
    median PNG size (KB) of one pass over ``calls``."""
    cpu, wall, size = [], [], []
    for fn in calls:
        t0, c0 = time.perf_counter(), time.process_time()
        data = fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        size.append(len(data) / 1000)
    cpu.sort()
    return statistics.median(cpu), cpu[max(int(len(cpu) * 0.95) - 1, 0)], statistics.median(wall), statistics.median(
        size)  # fmt: skip


def repeated(fn: Callable[[], bytes], runs: int) -> list[Callable[[], bytes]]:
    fn()  # warm the fonts, as a running bot has them
    return [fn] * runs


def line(kind: str, game: str, figures: tuple[float, float, float, float]) -> str:
    cpu, p95, wall, size = figures
    return f"{kind:<14}{game:<14}{cpu:>8.2f}{p95:>8.2f}{wall:>9.2f}{size:>8.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=6, help="games whose states interleave, per game")
    ap.add_argument("--runs", type=int, default=30, help="repeats of the one-picture kinds")
    args = ap.parse_args()
    one, five, _ = os.getloadavg()
    print(f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} CPUs")
    print(f"{'image':<14}{'game':<14}{'CPU ms':>8}{'p95':>8}{'wall ms':>9}{'PNG KB':>8}")
    for game in GAMES:  # warm-up: the caches a worker that has drawn other tables has
        for state, hand, seat in interleaved(game, 1, 1000)[::3]:
            draw_table(game, state, seat)
            draw_hand(game, state, hand, seat)
    totals: dict[str, list[float]] = {"table": [], "hand": []}
    for game, players in GAMES.items():
        states = interleaved(game, args.tables, 1)
        tables = measure([lambda g=game, s=s, seat=seat: draw_table(g, s, seat) for s, _, seat in states])
        hands = measure([lambda g=game, s=s, h=h, seat=seat: draw_hand(g, s, h, seat) for s, h, seat in states])
        print(line("table", game, tables))
        print(line("hand", game, hands))
        totals["table"].append(tables[0])
        totals["hand"].append(hands[0])
        final = final_state(game)
        names = NAMES[:players]
        print(line("deal summary", game, measure(repeated(partial(render_deal_summary, final, names), args.runs))))
        print(line("score sheet", game, measure(repeated(partial(render_score_sheet, final, names), args.runs))))
    rows = [{"rank": i + 1, "name": f"P{i + 1}", "rating": 30 - i, "games": 20, "win_rate": 0.5} for i in range(10)]
    board = measure(repeated(lambda: render_leaderboard(rows, title="Leaderboard", page=1, pages=3), args.runs))
    print(line("leaderboard", "-", board))
    print(" ".join(f"{kind}: {statistics.median(v):.2f} ms CPU (median of the games' medians);" for kind, v in
                   totals.items()))  # fmt: skip


if __name__ == "__main__":
    main()
