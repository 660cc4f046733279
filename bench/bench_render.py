"""Render timings: median and p95 milliseconds and PNG size per image kind and game (targets: hand <= 10 ms,
table <= 15 ms, PNG <= 150 KB).  States come from seeded random games played by the engines.  "hand" is a hand
drawn for the first time; "hand (again)" the same hand once more, as the bot shows it again and again (render keeps
the last few hundred hand images).

    .venv/bin/python bench/bench_render.py [--runs 60]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from render import render_deal_summary, render_hand, render_leaderboard, render_score_sheet, render_table
from render.hand import _hand_png
from render.state import trump_rank

GAMES = {"two_hundred": 4, "five_hundred": 3, "belote": 4, "da_bai_fen": 4}
NAMES = ["Alice", "Bruno", "Chloé", "王芳", "Émile", "Zoë"]


def states(game: str, seed: int = 1):
    """A mid-trick play state (with its match) and the final state of one random game."""
    from rules.players import RandomPlayer
    from rules.registry import new_match

    m = new_match(game, {})
    rng, player = random.Random(seed), RandomPlayer()
    m.start_deal(m.random_deal(rng))
    mid = None
    while m.phase != "game_over":
        if m.phase == "between_deals":
            m.start_deal(m.random_deal(rng))
            continue
        if mid is None and m.phase == "play" and len(m.output()["trick"]) == 2:
            mid = (m.output(), m.hand_mask_names(m.to_move), m.to_move)
        m.apply(player.choose(m, rng))
    return mid, m.output()


def timed(fn, runs: int) -> tuple[float, float, float, int]:
    """Median and p95 wall milliseconds, median CPU milliseconds (this process only: steadier on a shared machine),
    and the PNG size."""
    data = fn()  # warm the card-face and font caches, as a running bot has them
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        data = fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    wall.sort()
    return statistics.median(wall), wall[int(len(wall) * 0.95) - 1], statistics.median(cpu), len(data)


def bench_game(game: str, players: int, runs: int) -> None:
    (state, hand, seat), final = states(game)
    names = NAMES[:players]
    legal = {c for a in state["legal"] if a["type"] == "play" for c in a.get("cards", [])}
    rank = trump_rank(state)

    def draw_hand(fresh: bool) -> bytes:
        if fresh:
            _hand_png.cache_clear()
        return render_hand(game, hand, trump=state["trump"], trump_rank=rank, legal=legal, title=names[seat])

    kinds = {
        "hand": lambda: draw_hand(True),
        "hand (again)": lambda: draw_hand(False),
        "table": lambda: render_table(state, names, to_move=seat, show_last_trick=True, clock="0:30"),
        "deal summary": lambda: render_deal_summary(final, names),
        "score sheet": lambda: render_score_sheet(final, names),
    }
    for kind, fn in kinds.items():
        med, p95, cpu, size = timed(fn, runs)
        print(f"{kind:<16}{game:<14}{med:>10.1f}{p95:>9.1f}{cpu:>9.1f}{size / 1000:>9.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=60)
    runs = ap.parse_args().runs
    print(f"{'image':<16}{'game':<14}{'median ms':>10}{'p95 ms':>9}{'CPU ms':>9}{'PNG KB':>9}")
    for game, n in GAMES.items():
        bench_game(game, n, runs)
    rows = [{"rank": i + 1, "name": f"P{i + 1}", "rating": 30 - i, "games": 20, "win_rate": 0.5} for i in range(10)]
    med, p95, cpu, size = timed(lambda: render_leaderboard(rows, title="Leaderboard", page=1, pages=3), runs)
    print(f"{'leaderboard':<16}{'-':<14}{med:>10.1f}{p95:>9.1f}{cpu:>9.1f}{size / 1000:>9.1f}")


if __name__ == "__main__":
    main()
