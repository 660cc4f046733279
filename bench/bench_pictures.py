"""What a picture costs on its way through the render pool: CPU milliseconds per picture in the bot's process (the
call pickled to a worker, the PNG read back, the futures) and in the workers, beside the drawing alone in this
process.  CPU time, not wall time: steadier than bench_bot.py's figures on a shared machine.  Every picture is a new
one (its title differs), so the bot's picture cache never answers.

    .venv/bin/python bench/bench_pictures.py [--pictures 300] [--render processes|threads]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.presentation import images  # noqa: E402
from render import render_hand, render_table  # noqa: E402
from render.hand import _hand_png  # noqa: E402
from rules.players import RandomPlayer  # noqa: E402
from rules.registry import new_match  # noqa: E402

NAMES = ["Alice", "Bruno", "Chloé", "王芳"]


def play_states(count: int = 12) -> list[tuple[dict, list[str], int]]:
    """The last ``count`` moments of play of a seeded Two Hundred game: public view, hand to move, seat."""
    match, rng, player = new_match("two_hundred", {}), random.Random(1), RandomPlayer()
    match.start_deal(match.random_deal(rng))
    seen = []
    while match.phase != "game_over" and len(seen) < 40:
        if match.phase == "between_deals":
            match.start_deal(match.random_deal(rng))
            continue
        if match.phase == "play":
            seen.append((match.public_view(), match.seat_view(match.to_move)["hand"], match.to_move))
        match.apply(player.choose(match, rng))
    return seen[-count:]


def cpu() -> float:
    times = os.times()
    return times.user + times.system  # every thread of this process


async def through_the_pool(kind: str, pictures: int, states: list) -> tuple[float, float]:
    async def one(i: int) -> bytes | None:
        public, hand, seat = states[i % len(states)]
        if kind == "table":
            return await images.table_image(public, NAMES, to_move=seat, title=f"Two Hundred · table #{i}")
        return await images.hand_image("two_hundred", hand, public, None, f"Alice · table #{i}")

    for i in range(20):  # the workers' caches warm, as a running bot's are
        await one(-1 - i)
    bot, workers = cpu(), images.pool.worker_cpu_seconds()
    for i in range(pictures):
        assert await one(i)
    return (cpu() - bot) * 1000 / pictures, (images.pool.worker_cpu_seconds() - workers) * 1000 / pictures


def drawn_here(kind: str, pictures: int, states: list) -> float:
    started = time.process_time()
    for i in range(pictures):
        public, hand, seat = states[i % len(states)]
        if kind == "table":
            render_table(public, NAMES, to_move=seat, title=f"Two Hundred · table #{i}")
        else:
            _hand_png.cache_clear()
            render_hand("two_hundred", hand, trump=public.get("trump"), title=f"Alice · table #{i}")
    return (time.process_time() - started) * 1000 / pictures


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=300)
    parser.add_argument("--render", choices=("processes", "threads"), default="processes")
    args = parser.parse_args()
    states = play_states()
    images.enabled = True
    images.start(args.render)
    try:
        await asyncio.sleep(1.0)  # the workers start and warm up
        print(f"{'picture':<8}{'bot ms':>8}{'workers ms':>12}{'drawn here ms':>15}   ({args.render})")
        for kind in ("table", "hand"):
            bot, workers = await through_the_pool(kind, args.pictures, states)
            print(f"{kind:<8}{bot:>8.2f}{workers:>12.2f}{drawn_here(kind, args.pictures, states):>15.2f}")
    finally:
        images.stop()
    one, five, _ = os.getloadavg()
    print(f"machine load average {one:.1f} (1 min) / {five:.1f} (5 min) on {os.cpu_count()} cores")


if __name__ == "__main__":  # the workers import this module's parent package, never run it
    asyncio.run(main())
