"""Two lanes on the event loop: answers first, work that may wait after, a slice at a time.

asyncio runs every ready callback in the order it became ready, and a tap's answer takes a dozen of them (the
gateway read, the component's dispatch, the save, the picture, the reply's HTTP call), each queued behind whatever
else was ready then.  With hundreds of tables the loop is busy: computer players' moves, table-message edits and
their pictures, each listener's task.  Every hop of the answer then waits for a whole round of that work, and the
answer takes ten rounds.

``install`` makes the loop's ``call_soon`` (which tasks and futures use to schedule each step) put the steps of work
that may wait (``bot/tables/urgency.py``: tasks whose context holds ``LATER``) in a lane of their own, which one
callback of the ordinary lane runs for at most ``SLICE`` seconds per round of the loop; the rest waits for the next
round.  So a round is the answers' steps plus one slice, however much waiting work there is, and the waiting work
still runs in every round: it is slowed, never starved.  Timers and I/O are not touched (a waiting task's wake-up,
which they cause, is a ``call_soon`` with the task's context, and goes to its lane).

Within the waiting lane, the steps of work that has waited long enough (``AHEAD``: a table message seconds behind
the game) go first.  A table edit takes a dozen steps, and in one line each step waited behind all the waiting work
queued since the step before: at 500 tables the table message lagged 7 s behind the game although each edit
cost a millisecond or two.  The slice is the same, so the answers' lane does not notice.
"""

from __future__ import annotations

import asyncio
import collections
import contextvars
import time
from collections.abc import Callable
from typing import Any

from bot.tables.urgency import AHEAD, LATER

SLICE = 0.002  # seconds of waiting work run per round of the loop (one callback at least)


class Lanes:
    """The waiting lane of one event loop (``install``)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, slice_seconds: float = SLICE):
        self.loop = loop
        self.slice = slice_seconds
        # (when it became ready, its handle), oldest first: how long the waiting work waits shows at the head
        self.waiting: collections.deque[tuple[float, asyncio.Handle]] = collections.deque()
        self.ahead: collections.deque[asyncio.Handle] = collections.deque()  # waiting work that goes first
        self._scheduled = False
        self._call_soon = type(loop).call_soon.__get__(loop)  # the loop's own, unwrapped
        self._context = contextvars.Context()  # the pump's: entering it costs nothing, copying one would
        self.slices = 0  # rounds that ran waiting work, and ended it with some left (for benchmarks)
        self.cut = 0

    def call_soon(
        self, callback: Callable[..., Any], *args: Any, context: contextvars.Context | None = None
    ) -> asyncio.Handle:
        may_wait = context.get(LATER, False) if context is not None else LATER.get()
        if not may_wait:
            return self._call_soon(callback, *args, context=context)
        handle = asyncio.Handle(callback, args, self.loop, context)
        if context.get(AHEAD, False) if context is not None else AHEAD.get():
            self.ahead.append(handle)
        else:
            self.waiting.append((time.perf_counter(), handle))
        if not self._scheduled:
            self._scheduled = True
            self._call_soon(self._pump, context=self._context)
        return handle

    def _pump(self) -> None:
        """One slice of the waiting lane, what goes ahead first but one other step at least (never starved), then
        again next round if any is left."""
        waiting, ahead = self.waiting, self.ahead
        clock = time.perf_counter
        end = clock() + self.slice
        self.slices += 1
        other = False  # a step of the rest ran
        while True:
            if ahead:
                handle = ahead.popleft()
            elif waiting:
                _, handle = waiting.popleft()
                other = True
            else:
                break
            if not handle.cancelled():
                handle._run()
            if clock() >= end:
                break
        if waiting and not other:
            _, handle = waiting.popleft()
            if not handle.cancelled():
                handle._run()
        if waiting or ahead:
            self.cut += 1
            self._call_soon(self._pump, context=self._context)
        else:
            self._scheduled = False


def install(loop: asyncio.AbstractEventLoop | None = None, slice_seconds: float = SLICE) -> Lanes:
    """Give the loop (the running one by default) its two lanes; once per loop."""
    loop = loop or asyncio.get_running_loop()
    lanes = getattr(loop, "_cardtable_lanes", None)
    if lanes is None:
        lanes = Lanes(loop, slice_seconds)
        loop.call_soon = lanes.call_soon  # type: ignore[method-assign, assignment]
        loop._cardtable_lanes = lanes  # type: ignore[attr-defined]
    return lanes
