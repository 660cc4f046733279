"""A small least-recently-used cache, by count or by weight (the render caches of parts kept drawn)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Generic[K, V]):
    """A small least-recently-used cache, of at most ``limit`` items, or items weighing ``limit`` in all."""

    def __init__(self, limit: int, weight: Callable[[V], int] = lambda _: 1) -> None:
        self.limit = limit
        self.weight = weight
        self.total = 0
        self.items: OrderedDict[K, V] = OrderedDict()
        self.hits = self.misses = 0  # for benchmarks

    def get(self, key: K, make: Callable[[], V]) -> V:
        found = self.items.get(key)
        if found is not None:
            self.items.move_to_end(key)
            self.hits += 1
            return found
        self.misses += 1
        found = self.items[key] = make()
        self.total += self.weight(found)
        while self.total > self.limit and len(self.items) > 1:
            self.total -= self.weight(self.items.popitem(last=False)[1])
        return found
