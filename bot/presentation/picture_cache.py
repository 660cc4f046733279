"""Pictures kept by what they are drawn from, in the bot's process.

A player's hand picture is asked for after each of their moves, each look ("My hand", ``/hand``) and each refresh
of their messages; a table's picture when its message is edited, shown again or answered with.  Drawing one costs
milliseconds of a worker's CPU, and sending its input to a worker and its PNG back costs the bot some more; keeping
the PNG here makes a repeat free whichever worker drew it.  Two asks for the same picture while it is being drawn
share that drawing.

The key is a digest of the render function's name and arguments (``picture_key``): equal keys, equal pictures, so
the presenter can also tell that a message already shows the picture it would send.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import pickle
from collections.abc import Awaitable, Callable
from typing import Any

# Hand PNGs are ~15 KB, table PNGs ~45 KB: this keeps a few hundred of each, the hands of every player who is
# looking, at a cost the bot's memory does not notice.
BUDGET_BYTES = 24 * 1024 * 1024


def _plain(value: Any) -> Any:
    """A set in a fixed order (its order depends on how it was built, not on what it holds)."""
    if isinstance(value, set | frozenset):
        return ("<set>", tuple(sorted(value, key=repr)))
    return value


def picture_key(name: str, args: tuple, kwargs: dict[str, Any]) -> bytes:
    """A digest of what ``render.<name>(*args, **kwargs)`` draws from.  The views drawn are JSON-like (no sets
    inside: pickled alike whenever equal); a keyword argument may be a set (a hand's legal cards)."""
    named = sorted((k, _plain(v)) for k, v in kwargs.items())
    payload = pickle.dumps((name, args, named), protocol=pickle.HIGHEST_PROTOCOL)
    return hashlib.blake2b(payload, digest_size=16).digest()


class PictureCache:
    """PNG bytes by key, least recently used dropped first once they pass ``budget`` bytes."""

    def __init__(self, budget: int = BUDGET_BYTES):
        self.budget = budget
        self.size = 0
        self._kept: collections.OrderedDict[bytes, bytes] = collections.OrderedDict()
        self._drawing: dict[bytes, tuple[asyncio.Task[bytes | None], list[int]]] = {}  # key → (drawing, askers)
        self.hits = self.draws = 0

    def clear(self) -> None:
        self._kept.clear()
        self.size = 0

    def peek(self, key: bytes) -> bytes | None:
        return self._kept.get(key)

    async def get(self, key: bytes, draw: Callable[[], Awaitable[bytes | None]]) -> bytes | None:
        """The picture for ``key``: kept, being drawn (its drawing is awaited), or drawn now by ``draw`` (None, a
        failed drawing, is not kept: the next ask tries again)."""
        png = self._kept.get(key)
        if png is not None:
            self._kept.move_to_end(key)
            self.hits += 1
            return png
        drawing = self._drawing.get(key)
        if drawing is None:
            self.draws += 1
            drawing = self._drawing[key] = (asyncio.ensure_future(draw()), [0])
            drawing[0].add_done_callback(lambda task: self._drawn(key, task))
        else:
            self.hits += 1
        task, askers = drawing
        askers[0] += 1
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done() and askers[0] == 1:  # nobody else wants it: the drawing is shed with its asker
                task.cancel()
            raise
        finally:
            askers[0] -= 1

    def _drawn(self, key: bytes, task: asyncio.Task[bytes | None]) -> None:
        self._drawing.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        png = task.result()
        if png is None or len(png) > self.budget:
            return
        old = self._kept.pop(key, None)
        if old is not None:
            self.size -= len(old)
        self._kept[key] = png
        self.size += len(png)
        while self.size > self.budget:
            _, dropped = self._kept.popitem(last=False)
            self.size -= len(dropped)
