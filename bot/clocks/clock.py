"""Time for the bot: a ``Clock`` to read and wait on, and a ``Timers`` scheduler of named callbacks.

Everything that depends on time (turn deadlines, reminders, closing abandoned tables) reads ``clock.now()`` (epoch
seconds) and waits with ``clock.sleep_until(when)``, never ``time.time()`` or ``asyncio.sleep`` directly, so that
tests can pass a ``FakeClock`` and move time forward with ``await clock.advance(seconds)`` without real waiting.

``Timers`` runs one callback per key at a given time; arming a key again replaces its timer.  Callbacks run as
their own tasks; ``FakeClock.advance`` waits for the callbacks it set off (and for what they arm in the window).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from typing import Protocol

log = logging.getLogger(__name__)


class Clock(Protocol):
    def now(self) -> float: ...

    async def sleep_until(self, when: float) -> None: ...

    def track(self, task: asyncio.Task) -> None: ...


class SystemClock:
    """The real time.  Long waits are cut into slices so that a suspended machine does not oversleep a deadline."""

    SLICE = 60.0

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while True:
            left = when - self.now()
            if left <= 0:
                return
            await asyncio.sleep(min(left, self.SLICE))

    def track(self, task: asyncio.Task) -> None:
        pass


class FakeClock:
    """A clock for tests: time stands still until ``advance`` moves it, firing every wait that falls due in order."""

    def __init__(self, start: float = 1_800_000_000.0):
        self._now = start
        self._waiters: list[tuple[float, int, asyncio.Future]] = []
        self._order = itertools.count()
        self._busy: set[asyncio.Task] = set()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiters, (when, next(self._order), future))
        await future

    def track(self, task: asyncio.Task) -> None:
        self._busy.add(task)
        task.add_done_callback(self._busy.discard)

    async def settle(self) -> None:
        """Let woken tasks run, and wait for the timer callbacks they started."""
        for _ in range(50):
            for _ in range(5):
                await asyncio.sleep(0)
            busy = [t for t in self._busy if not t.done()]
            if not busy:
                return
            await asyncio.wait(busy, timeout=10)

    async def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, waking every waiter on the way at its own time, in order."""
        target = self._now + seconds
        await self.settle()
        while self._waiters and self._waiters[0][0] <= target:
            when, _, future = heapq.heappop(self._waiters)
            self._now = max(self._now, when)
            if not future.done():
                future.set_result(None)
            await self.settle()
        self._now = target
        await self.settle()

    def pending(self) -> list[float]:
        """The times still waited on (tests: is a deadline armed?)."""
        return sorted(w for w, _, f in self._waiters if not f.done())


Callback = Callable[[], Awaitable[None]]


class Timers:
    """Named one-shot timers on a clock: ``at(key, when, callback)`` replaces any timer of that key."""

    def __init__(self, clock: Clock):
        self.clock = clock
        self._tasks: dict[Hashable, tuple[float, asyncio.Task]] = {}
        self._closed = False

    def at(self, key: Hashable, when: float, callback: Callback) -> None:
        if self._closed:
            return
        self.cancel(key)
        task = asyncio.create_task(self._run(key, when, callback), name=f"timer-{key}")
        self._tasks[key] = (when, task)

    def when(self, key: Hashable) -> float | None:
        entry = self._tasks.get(key)
        return entry[0] if entry else None

    def cancel(self, key: Hashable) -> None:
        entry = self._tasks.pop(key, None)
        if entry is not None and entry[1] is not asyncio.current_task():
            entry[1].cancel()

    def cancel_prefix(self, prefix: tuple) -> None:
        for key in [k for k in self._tasks if isinstance(k, tuple) and k[: len(prefix)] == prefix]:
            self.cancel(key)

    async def _run(self, key: Hashable, when: float, callback: Callback) -> None:
        try:
            await self.clock.sleep_until(when)
            task = asyncio.current_task()
            if task is not None:
                self.clock.track(task)  # a FakeClock's advance waits for the callback, not for the sleep
            entry = self._tasks.get(key)
            if entry is not None and entry[1] is asyncio.current_task():
                del self._tasks[key]
            await callback()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("timer %s failed", key)

    async def close(self) -> None:
        self._closed = True
        tasks = [t for _, t in self._tasks.values()]
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
