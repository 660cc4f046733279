"""Work that may wait a few milliseconds while players are answered.

A player who taps waits for the answer; nobody waits, to the millisecond, for a computer player's card, a table
message's edit or an answered turn ping's deletion.  Tasks started with ``start_later`` (or whose context holds
``LATER``) are such work: the event loop runs their steps after those of the other tasks, a slice at a time
(``bot/process/lanes.py``), so a tap's answer does not queue behind a burst of them.  Tasks they start inherit it.
Without the lanes installed (a script, a test of the service alone) it changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

LATER: contextvars.ContextVar[bool] = contextvars.ContextVar("may_wait", default=False)
AHEAD: contextvars.ContextVar[bool] = contextvars.ContextVar("ahead", default=False)  # of the other waiting work


def later_context(may_wait: bool = True) -> contextvars.Context:
    """A copy of the current context in which work may wait (or, ``may_wait`` False, may not)."""
    context = contextvars.copy_context()
    context.run(LATER.set, may_wait)
    return context


def start_later(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """``asyncio.create_task`` for work that may wait while players are answered."""
    return asyncio.get_running_loop().create_task(coro, name=name, context=later_context())


def start_now(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """``asyncio.create_task`` for work a player waits for (their hand showing their turn), even when work that may
    wait starts it (a computer's move gives the turn to a player)."""
    return asyncio.get_running_loop().create_task(coro, name=name, context=later_context(False))


@contextlib.contextmanager
def ahead_if(due: bool) -> Iterator[None]:
    """Within a task of work that may wait: its next steps, until the block ends, go before the rest of that work
    (still after the players' answers) when ``due``: it has waited long enough (a table message seconds behind the
    game).  One pass through the waiting lane, not one per step: a table edit takes a dozen steps."""
    if not due:
        yield
        return
    token = AHEAD.set(True)
    try:
        yield
    finally:
        AHEAD.reset(token)
