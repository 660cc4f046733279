"""Where images are drawn: worker processes (one per core), a thread, or nowhere.

Drawing is CPU work in Pillow; a thread (``asyncio.to_thread``) keeps it off the event loop but not off the bot's
core, and Pillow holds the GIL for part of it.  Worker processes spread it over the machine's cores.  They start
from a fork server that has imported ``render`` once (so a new worker is ready in milliseconds), are warmed at
start-up (fonts and card faces loaded), and are shut down with the bot.

Each worker is one process at the end of a pipe: the bot writes the pickled call, the worker answers with the
pickled result, and the event loop reads the answers when the pipe has them (``add_reader``).  No thread of the bot
takes part: ``concurrent.futures.ProcessPoolExecutor`` moves every call and answer through two threads of its own
(a manager and a queue feeder) that contend for the GIL with the event loop, which cost the bot about as much CPU
per image as the pickling itself (bench_bot with images on: about 0.8 ms of the bot's CPU per image).

A worker that dies (killed, out of memory, a crash in C) fails the images it had: the pool logs it once, starts a
fresh worker for the next image and draws the image at hand in a thread meanwhile, so a dead worker costs one slower
image, never the bot.

At most ``PIPELINE`` images per worker are handed to the workers at a time; the others wait in line here, where an
image that answers a player (a hand) goes before table, deal and score images: under load those are shed first.  The
last free lane is kept for answers' images.  An answer's image takes no lane at all: it is sent at once to the
worker that owes the fewest, since a lane may be held by a table picture whose task is waiting its turn on a busy
event loop (``bot/process/lanes.py``: work that may wait runs a slice at a time) and has not sent its image yet.
The others are sent when their task next runs, at the event loop's pace: under load, the first images shed.

The pool also knows how busy it is (``backlog_seconds``): how long a new image would wait for a worker, from the
images in flight and the recent time per image.  The overload policy (``bot/presentation/overload.py``) reads it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ctypes
import ctypes.util
import heapq
import itertools
import logging
import multiprocessing
import os
import pickle
import struct
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any, Literal

from bot.tables.urgency import AHEAD

log = logging.getLogger(__name__)

Mode = Literal["processes", "threads", "off"]
MODES: tuple[Mode, ...] = ("processes", "threads", "off")
# What a worker imports before it forks (the fork server's preload): the drawing code and its fonts' loader.
PRELOAD = ["render", "bot.presentation.images"]
MAX_RESTARTS = 3  # workers replaced within RESTART_WINDOW seconds before the pool gives up on processes
RESTART_WINDOW = 60
# Images handed to each worker process at a time: the next waits in the worker's pipe while the last one's PNG
# travels back and waits for the bot's event loop, so a busy loop does not leave the workers idle (bench_bot at 500
# tables: with one at a time the workers drew ~120 images/s at a third of their CPU, and table images starved).
PIPELINE = 2
FIRST_GUESS = 0.01  # seconds per image before any is measured (bench/bench_render.py: 3-8 ms)
STOP = b""  # a worker told this exits
READ_SIZE = 1 << 20  # bytes read from a worker's pipe at a time
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
HEAP_MMAP_THRESHOLD = 16 << 20  # at most 32 MB on 64-bit glibc
HEAP_TRIM_THRESHOLD = 128 << 20


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


def _steady_heap() -> bool:
    """Keep the memory a picture frees for the next one (glibc): a table's canvas and its rows are buffers of about
    1 MB, which glibc hands back to the system when freed and takes again, zeroed page by page, for the next
    picture.  A page fault costs ~2 µs on this machine's virtual CPUs and a table picture touched ~140-530 new
    pages (bench notes in docs/running.md); with these limits ~20.  Elsewhere (musl, macOS) nothing changes.
    True when the C library took the settings."""
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError, TypeError):
        return False
    # Blocks below the first come from the heap, not fresh mappings; free memory up to the second stays at its top.
    return bool(mallopt(M_MMAP_THRESHOLD, HEAP_MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, HEAP_TRIM_THRESHOLD))


def _serve(conn: Connection) -> None:
    """A worker's life: read a call, run it, answer (the result, or the exception it raised), until told to stop."""
    _steady_heap()
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):  # the bot is gone
            return
        if data == STOP:
            return
        try:
            function, args = pickle.loads(data)
            answer: tuple[bool, Any] = (True, function(*args))
        except BaseException as error:
            answer = (False, error)
        try:
            payload = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an exception that cannot travel: its words do
            payload = pickle.dumps((False, RuntimeError(f"{answer[1]!r} ({error})")), pickle.HIGHEST_PROTOCOL)
        conn.send_bytes(payload)


class _Worker:
    """One worker process, its end of the pipe, and the answers it owes in order (None: nobody waits for it)."""

    def __init__(self, context: multiprocessing.context.BaseContext):
        self.conn, child = context.Pipe()
        process = context.Process  # type: ignore[attr-defined]
        self.process = process(target=_serve, args=(child,), name="render-worker", daemon=True)
        self.process.start()
        child.close()
        self.owed: collections.deque[asyncio.Future[Any] | None] = collections.deque()
        self.loop: asyncio.AbstractEventLoop | None = None  # whose reader watches the pipe
        self.dead = False
        self.unread = bytearray()  # read from the pipe, not yet a whole answer

    def answers(self) -> list[tuple[bool, Any]]:
        """The whole answers in ``unread`` (``Connection.send_bytes``'s frames: a length, then the pickle)."""
        found: list[tuple[bool, Any]] = []
        while True:
            if len(self.unread) < 4:
                return found
            (size,) = struct.unpack_from("!i", self.unread)
            start = 4
            if size == -1:  # a frame over 2 GiB: its length follows in 8 bytes
                if len(self.unread) < 12:
                    return found
                (size,) = struct.unpack_from("!Q", self.unread, 4)
                start = 12
            if len(self.unread) < start + size:
                return found
            found.append(pickle.loads(memoryview(self.unread)[start : start + size]))
            del self.unread[: start + size]

    def send(self, function: Callable[..., Any], args: tuple, answer: asyncio.Future[Any] | None) -> None:
        # A call is small (a public view: ~1 KB) and a worker has at most PIPELINE unread: the pipe never blocks.
        self.conn.send_bytes(pickle.dumps((function, args), pickle.HIGHEST_PROTOCOL))
        self.owed.append(answer)

    def stop(self) -> None:
        """Tell the worker to exit and forget its pipe (from any thread: the reader is removed on its loop's)."""
        self.dead = True
        with contextlib.suppress(OSError):  # it is dead already
            self.conn.send_bytes(STOP)
        loop = self.loop
        if loop is not None and not loop.is_closed():
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is loop:
                self._forget()
            else:
                loop.call_soon_threadsafe(self._forget)
        else:
            self.conn.close()
        for answer in self.owed:
            if answer is not None and not answer.done():
                with contextlib.suppress(RuntimeError):  # its loop is closed: nobody waits any more
                    answer.get_loop().call_soon_threadsafe(answer.cancel)
        self.owed.clear()

    def _forget(self) -> None:
        if self.loop is not None and not self.conn.closed:
            self.loop.remove_reader(self.conn.fileno())
        self.conn.close()


@dataclass(eq=False)
class _Job:
    """An image for a worker process: what to call, and the future its asker awaits."""

    function: Callable[..., Any]
    args: tuple
    affinity: int | None
    answer: asyncio.Future[Any]
    worker: _Worker | None = None  # the one it was sent to


class RenderPool:
    """Runs ``function(*args)`` (a module-level function: it is pickled to a worker) where ``mode`` says."""

    def __init__(self, mode: Mode, workers: int | None = None):
        if mode not in MODES:
            raise ValueError(f"render mode must be one of {', '.join(MODES)}, not {mode!r}")
        self.mode = mode
        self.workers = workers or usable_cores()
        self._processes: list[_Worker] = []
        self._warm: Callable[[], Any] | None = None
        self.in_flight = 0
        self.seconds_per_image = FIRST_GUESS  # a moving average of the drawing time (wall, in the worker's queue)
        self.restarts = 0
        self.strays = 0  # pictures with an affinity drawn by another worker (its own was full): for benchmarks
        self._buffer = bytearray(READ_SIZE)  # what a read from a worker's pipe lands in
        self._deaths: list[float] = []  # when workers died lately (monotonic seconds)
        self._free_lanes = self._lanes()
        # (priority, order, a job for a worker or a thread's turn): a heap
        self._waiting: list[tuple[int, int, _Job | asyncio.Future[None]]] = []
        self._urgent_waiting = 0  # of them, images that answer a player (priority 0)
        self._laneless: set[asyncio.Future[Any]] = set()  # answers owed for images sent without a lane (urgent ones)
        self._order = itertools.count()
        self._lock = threading.Lock()  # close() may come from another thread (the client closes in one)

    def start(self, warm: Callable[[], Any] | None = None) -> None:
        """Start the workers (processes mode) and have each run ``warm`` once, without waiting for them."""
        if self.mode != "processes":
            return
        self._warm = warm or self._warm
        with self._lock:
            context = _context()
            while len(self._processes) < self.workers:
                worker = _Worker(context)
                if self._warm is not None:
                    worker.send(self._warm, (), None)
                self._processes.append(worker)

    def close(self) -> None:
        with self._lock:
            workers, self._processes = self._processes, []
        for worker in workers:
            worker.stop()
        for worker in workers:
            worker.process.join(timeout=5)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join(timeout=5)

    def backlog_seconds(self, urgent: bool = False) -> float:
        """How long a new image would wait before a worker starts it (0 when one is free).  ``urgent``: an image that
        answers a player, which goes before the others: only the urgent images waiting count, and one lane's turn."""
        lanes = self._lanes()
        if urgent and self.mode == "processes":  # sent at once: it waits behind what the least busy worker owes
            live = [w for w in self._processes if not w.dead]  # but the picture it draws, as behind a free lane
            return max(0, min((len(w.owed) for w in live), default=0) - 1) * self.seconds_per_image
        if urgent:
            if self._free_lanes > 0 and not self._urgent_waiting:
                return 0.0
            waiting = self._urgent_waiting + 1
        else:
            waiting = max(0, self.in_flight - lanes + 1)
        return waiting * self.seconds_per_image / lanes

    def worker_cpu_seconds(self) -> float:
        """CPU time used so far by the live workers (Linux; 0 elsewhere): benchmarks count it with the bot's."""
        total = 0.0
        for worker in list(self._processes):
            try:
                with open(f"/proc/{worker.process.pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
        return total

    async def run(
        self, function: Callable[..., Any], *args: Any, urgent: bool = False, affinity: int | None = None
    ) -> Any:
        """``function(*args)`` once a lane is free; ``urgent`` work (an image that answers a player) goes before the
        rest (table images, which the next table edit redraws anyway).  Work of one ``affinity`` (a table's
        pictures) goes to the same worker while it has room, so that the parts that worker keeps drawn (the table's
        header and scores, its plates) are there for the next picture."""
        if self.mode == "off":
            return None
        queued = self.in_flight >= self._lanes()
        self.in_flight += 1
        started = time.perf_counter()
        try:
            if self.mode == "processes":
                return await self._in_process(function, args, affinity, urgent)
            await self._take_lane(urgent)
            try:
                return await asyncio.to_thread(function, *args)
            finally:
                self._free_lane()
        finally:
            self.in_flight -= 1
            if not queued:  # a lane was free: the wall time is the drawing time (plus the trip to the worker)
                spent = min(time.perf_counter() - started, 1.0)
                self.seconds_per_image += (spent - self.seconds_per_image) * 0.1

    def _lanes(self) -> int:
        return self.workers * (PIPELINE if self.mode == "processes" else 1)

    def _kept_free(self) -> int:
        """Lanes that only an urgent image may take: one, when the workers have several, so that an answer's picture
        goes to a worker at once (behind at most the picture it is drawing) however many table pictures wait."""
        return 1 if self.mode == "processes" and self._lanes() > 1 else 0

    async def _take_lane(self, urgent: bool) -> None:
        """A lane for a drawing in a thread, or a worker's lane for an image that is not urgent (an urgent one is
        sent by ``_dispatch``)."""
        if self._free_lanes > (0 if urgent else self._kept_free()) and not self._waiting:
            self._free_lanes -= 1
            return
        turn = asyncio.get_running_loop().create_future()
        self._push(urgent, turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # handed a lane just as it was cancelled: pass it on
                self._free_lane()
            raise

    def _free_lane(self) -> None:
        """A lane is free: it goes straight to the most urgent image waiting (a thread's turn is handed over here;
        a table picture for a worker is sent when its task next runs: its pace is the loop's, so under load they are
        the images shed; an answer's picture for a worker needs no lane)."""
        self._free_lanes += 1
        self._dispatch()

    def _push(self, urgent: bool, item: _Job | asyncio.Future[None]) -> None:
        # After the answers', the pictures of work that has waited long enough (a table message seconds behind the
        # game: bot/tables/urgency.py), whose tasks, ahead in the waiting lane, soon send them.
        priority = 0 if urgent else 1 if AHEAD.get() else 2
        heapq.heappush(self._waiting, (priority, next(self._order), item))
        self._urgent_waiting += urgent

    def _dispatch(self) -> None:
        """Free lanes to the images waiting, most urgent first."""
        while self._free_lanes > 0 and self._waiting:
            if self._waiting[0][0] and self._free_lanes <= self._kept_free():
                return  # only images that are not urgent wait: the last free lane is kept for an answer's
            priority, _, item = heapq.heappop(self._waiting)
            self._urgent_waiting -= priority == 0
            if isinstance(item, _Job):
                if item.answer.done():  # its asker was cancelled while it waited
                    continue
                self._free_lanes -= 1
                if not self._send(item):  # the workers are gone: its task replaces them (_died), which dispatches
                    self._free_lanes += 1
                    return
            elif not item.done():
                self._free_lanes -= 1
                item.set_result(None)  # a thread's turn

    def _worker_for(self, affinity: int | None) -> _Worker:
        live = [w for w in self._processes if not w.dead] or self._processes
        if affinity is not None:
            preferred = live[affinity % len(live)]
            # One picture more than its share of the lanes: a burst of one worker's tables mostly stays with it
            # (replaying a bench_bot run at 200 tables, 7% of the table pictures still went to the other worker),
            # and a picture waits behind at most PIPELINE others.
            if len(preferred.owed) <= PIPELINE:
                return preferred
            self.strays += 1
        return min(live, key=lambda w: len(w.owed))  # the least busy

    async def _in_process(self, function: Callable[..., Any], args: tuple, affinity: int | None, urgent: bool) -> Any:
        if not self._processes:
            self.start()
        job = _Job(function, args, affinity, asyncio.get_running_loop().create_future())
        if urgent:  # at once, without a lane: every lane may be held by a table picture whose task waits its turn
            self._send(job, lane=False)
        else:  # sent when its task next runs, at the pace of the loop: under load, the first images shed
            await self._take_lane(False)
            if not self._send(job):
                self._free_lane()
        try:
            return await job.answer
        except (BrokenProcessPool, BrokenPipeError, ConnectionResetError):
            if job.worker is not None:
                self._died(job.worker)
            if self.mode == "off":
                return None
            return await asyncio.to_thread(function, *args)

    def _send(self, job: _Job, *, lane: bool = True) -> bool:
        """Hand ``job`` to a worker with the lane it holds (``lane``; else it holds none); False (its answer failed,
        for its task to draw it in a thread) when the workers are gone."""
        try:
            if self.mode != "processes" or not self._processes:
                raise BrokenProcessPool("the render workers are stopped")
            worker = job.worker = self._worker_for(job.affinity)
            if worker.dead:
                raise BrokenProcessPool("a render worker died")
            self._watch(worker, job.answer.get_loop())
            worker.send(job.function, job.args, job.answer)
            if not lane:
                self._laneless.add(job.answer)
            return True
        except (BrokenProcessPool, BrokenPipeError, ConnectionResetError) as error:
            job.answer.set_exception(error)
            return False

    def _watch(self, worker: _Worker, loop: asyncio.AbstractEventLoop) -> None:
        if worker.loop is None:
            worker.loop = loop
            loop.add_reader(worker.conn.fileno(), self._answered, worker)

    def _answered(self, worker: _Worker) -> None:
        """The worker's pipe is readable: what it holds now (one read, which never blocks the event loop even when
        a large picture is still being written), then each whole answer in it, in the order of the calls (or the
        pipe's end: the worker died)."""
        try:  # into a buffer kept for it: os.read would allocate READ_SIZE for each read (~40 µs a picture)
            size = os.readv(worker.conn.fileno(), [self._buffer])
        except BlockingIOError:
            return
        except OSError:
            size = 0
        if not size:
            self._fail(worker)
            return
        worker.unread += memoryview(self._buffer)[:size]
        for ok, value in worker.answers():
            answer = worker.owed.popleft() if worker.owed else None
            if answer is None:  # a warm-up: it held no lane
                continue
            if not answer.done():  # (done: its asker was cancelled)
                if ok:
                    answer.set_result(value)
                else:
                    answer.set_exception(value)
            self._lane_back(answer)

    def _lane_back(self, answer: asyncio.Future[Any]) -> None:
        """An answer came (or failed): the lane its image held is free, if it held one."""
        if answer in self._laneless:
            self._laneless.discard(answer)
        else:
            self._free_lane()

    def _fail(self, worker: _Worker) -> None:
        """The worker is gone: the images it owed fail (their callers draw them in a thread, and the first of them
        replaces it; when it owed none, the next image sent to it does)."""
        worker.dead = True
        if worker.loop is not None and not worker.conn.closed:
            worker.loop.remove_reader(worker.conn.fileno())
        owed, worker.owed = list(worker.owed), collections.deque()
        for answer in owed:
            if answer is not None and not answer.done():
                answer.set_exception(BrokenProcessPool("a render worker died"))
        for answer in owed:
            if answer is not None:  # its lane goes on (to the other worker, or to a thread)
                self._lane_back(answer)

    def _died(self, dead: _Worker) -> None:
        """A worker died.  Start a fresh one once; when workers keep dying (they cannot start at all, say), draw in
        threads from then on rather than loop."""
        with self._lock:
            if dead not in self._processes:  # another image already replaced it
                return
            self._processes.remove(dead)
        self._fail(dead)
        dead.stop()
        dead.process.join(timeout=1)
        now = time.monotonic()
        self._deaths = [t for t in self._deaths if now - t < RESTART_WINDOW] + [now]
        if len(self._deaths) > MAX_RESTARTS:
            self.close()
            self.mode = "threads"
            jobs = [item for _, _, item in self._waiting if isinstance(item, _Job)]
            self._waiting = [entry for entry in self._waiting if not isinstance(entry[2], _Job)]
            self._urgent_waiting = sum(priority == 0 for priority, _, _ in self._waiting)
            heapq.heapify(self._waiting)
            for job in jobs:  # their tasks draw them in threads
                if not job.answer.done():
                    job.answer.set_exception(BrokenProcessPool("the render workers are stopped"))
            log.error("render workers died %d times in %d s; drawing in threads from now on", len(self._deaths),
                      RESTART_WINDOW)  # fmt: skip
            return
        self.restarts += 1
        log.warning("a render worker died; starting new workers (restart %d); this image is drawn in a thread",
                    self.restarts)  # fmt: skip
        self.start()
        self._dispatch()  # the images that waited for the dead worker's lanes
