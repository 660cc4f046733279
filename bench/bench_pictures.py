"""What a picture costs on its way through the render pool: CPU milliseconds per picture in the bot's process (the
call pickled to a worker, the PNG read back, the futures) and in the workers, beside the drawing alone in this
process.  CPU time, not wall time: steadier than bench_bot.py's figures on a shared machine.  Every picture is a new
one (its title differs), so the bot's picture cache never answers.

    .venv/bin/python bench/bench_pictures.py [--pictures 300] [--render processes|threads]

``--replay FILE`` draws instead the pictures a ``bench/bench_bot.py --dump-pictures FILE`` run asked for, at the
moments it asked for them (its tables, its states, its languages, at its pace), through the bot's own entry points
(``images.table_image``, ``images.hand_image``): the render workers' CPU per picture of the real mix, without the
bot's other work or the benchmark's players.  The same file replays on another checkout, to compare before and
after: ``cd OTHER && PYTHONPATH=OTHER .venv/bin/python /path/to/bench_pictures.py --replay FILE``.
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


async def replay(path: str, pace: float = 1.0) -> None:
    """The dumped pictures at their moments, each through the entry point the bot used (first a tenth of them to
    warm the workers' caches), then CPU per picture in this process and in the workers.  ``pace``: the moments' time
    scaled (0: as many asked for at a time as the workers have lanes, so that they never wait for the next)."""
    import collections
    import pickle

    from bot.i18n import current_language

    calls = pickle.loads(Path(path).read_bytes())
    kinds = collections.Counter(name for name, *_ in calls)

    async def one(name: str, args: tuple, kwargs: dict) -> None:
        kwargs = {k: v for k, v in kwargs.items() if k not in ("urgent", "affinity")}
        current_language.set(kwargs.pop("lang", "en"))
        if name == "render_table":
            await images.table_image(*args, **kwargs)
        elif name == "render_hand":
            view = {"trump": kwargs["trump"], "trump_rank": kwargs["trump_rank"]}
            await images.hand_image(*args, view, kwargs["legal"], kwargs["title"], four_colour=kwargs["four_colour"])
        else:
            await images.render(name, *args, **kwargs)

    room = asyncio.Semaphore(images.pool.workers * 2)

    async def at_their_moments(part: list) -> float:
        start, first = time.monotonic(), part[0][3]
        tasks = []
        for name, args, kwargs, moment in part:
            if pace:
                await asyncio.sleep(max(0.0, (moment - first) * pace - (time.monotonic() - start)))
                tasks.append(asyncio.create_task(one(name, args, kwargs)))
            else:  # as many in flight as the workers have lanes
                await room.acquire()
                task = asyncio.create_task(one(name, args, kwargs))
                task.add_done_callback(lambda _: room.release())
                tasks.append(task)
        await asyncio.gather(*tasks)
        return time.monotonic() - start

    cut = len(calls) // 10
    await at_their_moments(calls[:cut])
    bot, workers, strays = cpu(), images.pool.worker_cpu_seconds(), getattr(images.pool, "strays", 0)
    wall = await at_their_moments(calls[cut:])
    drawn = len(calls) - cut
    print(
        f"{drawn} pictures replayed in {wall:.1f} s ({drawn / wall:.0f}/s; {dict(kinds)} in the file): "
        f"CPU per picture: {(cpu() - bot) * 1000 / drawn:.2f} ms here (the bot's side), "
        f"{(images.pool.worker_cpu_seconds() - workers) * 1000 / drawn:.2f} ms in the render workers; "
        f"{getattr(images.pool, 'strays', 0) - strays} table pictures drawn by another worker than their table's; "
        f"{load_text()}"
    )


def load_text() -> str:
    one, five, _ = os.getloadavg()
    return f"machine load average {one:.1f} (1 min) / {five:.1f} (5 min) on {os.cpu_count()} cores"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=300)
    parser.add_argument("--render", choices=("processes", "threads"), default="processes")
    parser.add_argument("--replay", metavar="FILE", help="the pictures of a bench_bot.py --dump-pictures run")
    parser.add_argument(
        "--pace", type=float, default=1.0, help="with --replay: the run's time scaled by this (0: back to back)"
    )
    args = parser.parse_args()
    states = play_states()
    images.enabled = True
    images.start(args.render)
    try:
        await asyncio.sleep(1.0)  # the workers start and warm up
        if args.replay:
            await replay(args.replay, args.pace)
            return
        print(f"{'picture':<8}{'bot ms':>8}{'workers ms':>12}{'drawn here ms':>15}   ({args.render})")
        for kind in ("table", "hand"):
            bot, workers = await through_the_pool(kind, args.pictures, states)
            print(f"{kind:<8}{bot:>8.2f}{workers:>12.2f}{drawn_here(kind, args.pictures, states):>15.2f}")
    finally:
        images.stop()
    print(load_text())


if __name__ == "__main__":  # the workers import this module's parent package, never run it
    asyncio.run(main())
