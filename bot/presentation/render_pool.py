"""Where images are drawn: worker processes (one per core), a thread, or nowhere.

Drawing is CPU work in Pillow; a thread (``asyncio.to_thread``) keeps it off the event loop but not off the bot's
core, and Pillow holds the GIL for part of it.  Worker processes spread it over the machine's cores.  They start
from a fork server that has imported ``render`` once (so a new worker is ready in milliseconds), are warmed at
start-up (fonts and card faces loaded), and are shut down with the bot.

A worker that dies (killed, out of memory, a crash in C) breaks the whole ``ProcessPoolExecutor``: the pool logs it
once, starts a fresh executor for the next image and draws the image at hand in a thread meanwhile, so a dead worker
costs one slower image, never the bot.

At most ``PIPELINE`` images per worker are handed to the executor at a time; the others wait in line here, where an
image that answers a player (a hand) goes before table, deal and score images: under load those are shed first.

The pool also knows how busy it is (``backlog_seconds``): how long a new image would wait for a worker, from the
images in flight and the recent time per image.  The overload policy (``bot/presentation/overload.py``) reads it.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Literal

log = logging.getLogger(__name__)

Mode = Literal["processes", "threads", "off"]
MODES: tuple[Mode, ...] = ("processes", "threads", "off")
# What a worker imports before it forks (the fork server's preload): the drawing code and its fonts' loader.
PRELOAD = ["render", "bot.presentation.images"]
MAX_RESTARTS = 3  # workers replaced within RESTART_WINDOW seconds before the pool gives up on processes
RESTART_WINDOW = 60
# Images handed to each worker process at a time: the next waits in the worker's queue while the last one's PNG
# travels back and waits for the bot's event loop, so a busy loop does not leave the workers idle (bench_bot at 500
# tables: with one at a time the workers drew ~120 images/s at a third of their CPU, and table images starved).
PIPELINE = 2
FIRST_GUESS = 0.01  # seconds per image before any is measured (bench/bench_render.py: 3-8 ms)


def usable_cores() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer than the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def default_mode() -> Mode:
    return "processes" if usable_cores() > 1 else "threads"


def _context() -> multiprocessing.context.BaseContext:
    # Never fork the bot itself (its event loop, sockets and threads would be copied into every worker).
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


class RenderPool:
    """Runs ``function(*args)`` (a module-level function: it is pickled to a worker) where ``mode`` says."""

    def __init__(self, mode: Mode, workers: int | None = None):
        if mode not in MODES:
            raise ValueError(f"render mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.workers = workers or usable_cores()
        self._executor: ProcessPoolExecutor | None = None
        self.in_flight = 0
        self.seconds_per_image = FIRST_GUESS  # a moving average of the drawing time (wall, in the worker's queue)
        self.restarts = 0
        self._deaths: list[float] = []  # when workers died lately (monotonic seconds)
        self._free_lanes = self._lanes()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []  # (priority, order, turn): a heap
        self._order = itertools.count()

    def start(self, warm: Callable[[], Any] | None = None) -> None:
        """Start the workers (processes mode) and have each run ``warm`` once, without waiting for them."""
        if self.mode != "processes" or self._executor is not None:
            return
        self._executor = ProcessPoolExecutor(self.workers, mp_context=_context())
        if warm is not None:
            for _ in range(self.workers):
                self._executor.submit(warm)

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def backlog_seconds(self) -> float:
        """How long a new image would wait before a worker starts it (0 when one is free)."""
        lanes = self._lanes()
        waiting = max(0, self.in_flight - lanes + 1)
        return waiting * self.seconds_per_image / lanes

    def worker_cpu_seconds(self) -> float:
        """CPU time used so far by the live workers (Linux; 0 elsewhere): benchmarks count it with the bot's."""
        executor = self._executor
        processes = getattr(executor, "_processes", None) or {}  # the executor keeps its workers by pid (private)
        total = 0.0
        for pid in list(processes):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
        return total

    async def run(self, function: Callable[..., Any], *args: Any, urgent: bool = False) -> Any:
        """``function(*args)`` once a lane is free; ``urgent`` work (an image that answers a player) goes before the
        rest (table images, which the next table edit redraws anyway)."""
        if self.mode == "off":
            return None
        queued = self.in_flight >= self._lanes()
        self.in_flight += 1
        started = time.perf_counter()
        try:
            await self._take_lane(urgent)
            try:
                if self.mode == "threads":
                    return await asyncio.to_thread(function, *args)
                return await self._in_process(function, *args)
            finally:
                self._free_lane()
        finally:
            self.in_flight -= 1
            if not queued:  # a lane was free: the wall time is the drawing time (plus the trip to the worker)
                spent = min(time.perf_counter() - started, 1.0)
                self.seconds_per_image += (spent - self.seconds_per_image) * 0.1

    def _lanes(self) -> int:
        return self.workers * (PIPELINE if self.mode == "processes" else 1)

    async def _take_lane(self, urgent: bool) -> None:
        if self._free_lanes > 0 and not self._waiting:
            self._free_lanes -= 1
            return
        turn = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (0 if urgent else 1, next(self._order), turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # handed a lane just as it was cancelled: pass it on
                self._free_lane()
            raise

    def _free_lane(self) -> None:
        while self._waiting:
            turn = heapq.heappop(self._waiting)[2]
            if not turn.done():
                turn.set_result(None)  # the lane goes straight to the next in line
                return
        self._free_lanes += 1

    async def _in_process(self, function: Callable[..., Any], *args: Any) -> Any:
        executor = self._executor
        if executor is None:
            self.start()
            executor = self._executor
        assert executor is not None
        try:
            return await asyncio.wrap_future(executor.submit(function, *args))
        except BrokenProcessPool:
            self._replace(executor)
            return await asyncio.to_thread(function, *args)

    def _replace(self, broken: Executor) -> None:
        """A worker died: every image in flight fails with BrokenProcessPool.  Start a fresh executor once; when
        workers keep dying (they cannot start at all, say), draw in threads from then on rather than loop."""
        if self._executor is not broken:  # another image already replaced it
            return
        broken.shutdown(wait=False, cancel_futures=True)
        self._executor = None
        now = time.monotonic()
        self._deaths = [t for t in self._deaths if now - t < RESTART_WINDOW] + [now]
        if len(self._deaths) > MAX_RESTARTS:
            self.mode = "threads"
            log.error("render workers died %d times in %d s; drawing in threads from now on", len(self._deaths),
                      RESTART_WINDOW)  # fmt: skip
            return
        self.restarts += 1
        log.warning("a render worker died; starting new workers (restart %d); this image is drawn in a thread",
                    self.restarts)  # fmt: skip
        self.start()
