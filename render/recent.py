"""A small least-recently-used cache, by count or by weight (the render caches of parts kept drawn)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """A small least-recently-used cache, of at most ``limit`` items, or items weighing ``limit`` in all.  Safe to
    share between threads (the bot draws in threads when it has no worker processes): the cache's own steps hold a
    lock, the making of an item does not (two threads may make the same item; the second one is kept)."""

    def __init__(self, limit: int, weight: Callable[[V], int] = lambda _: 1) -> None:
        self.limit = limit
        self.weight = weight
        self.total = 0
        self.items: OrderedDict[K, V] = OrderedDict()
        self.hits = self.misses = 0  # for benchmarks
        self._lock = threading.Lock()

    def get(self, key: K, make: Callable[[], V]) -> V:
        with self._lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
                self.hits += 1
                return found
            self.misses += 1
        made = make()
        with self._lock:
            replaced = self.items.pop(key, None)
            if replaced is not None:
                self.total -= self.weight(replaced)
            self.items[key] = made
            self.total += self.weight(made)
            while self.total > self.limit and len(self.items) > 1:
                self.total -= self.weight(self.items.popitem(last=False)[1])
        return made
