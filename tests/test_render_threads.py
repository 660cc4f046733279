"""The render caches shared by drawing threads (the bot draws in threads when it has no worker processes, or has
lost them): no step of one thread's lookup breaks another's, the weights add up, and pictures drawn by several
threads at once are the pictures drawn one at a time."""

from __future__ import annotations

import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

from render import render_hand, render_table
from render.hand import _hand_png
from render.recent import Recent
from rules.players import RandomPlayer
from rules.registry import new_match


def test_a_cache_shared_by_threads_keeps_its_weights_and_its_limit():
    cache: Recent[int, bytes] = Recent(2_000, len)
    errors: list[BaseException] = []
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns between almost every two steps

    def hammer(seed: int) -> None:
        rng = random.Random(seed)
        try:
            for _ in range(3_000):
                key = rng.randrange(60)
                assert cache.get(key, lambda k=key: bytes(10 + k)) == bytes(10 + key)
        except BaseException as error:  # noqa: BLE001 - reported below, with the thread's others
            errors.append(error)

    try:
        threads = [threading.Thread(target=hammer, args=(seed,)) for seed in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert errors == []
    assert cache.total == sum(len(v) for v in cache.items.values()) <= 2_000


def _moments(count: int) -> list[tuple[dict, list[str], list[str]]]:
    match, rng, player = new_match("belote", {}), random.Random(4), RandomPlayer()
    match.start_deal(match.random_deal(rng))
    seen = []
    while len(seen) < count and match.phase not in ("between_deals", "game_over"):
        seen.append((match.public_view(), ["Léa", "Hugo", "王芳", "Zoë"], match.seat_view(match.to_move)["hand"]))
        match.apply(player.choose(match, rng))
    return seen


def test_pictures_drawn_by_several_threads_at_once_are_the_pictures_drawn_one_by_one():
    moments = _moments(24)

    def draw(i: int) -> tuple[bytes, bytes]:
        public, names, hand = moments[i]
        return (render_table(public, names, to_move=i % 4, title=f"T{i % 3}"),
                render_hand("belote", hand, trump=public.get("trump"), title=f"P{i % 4}"))  # fmt: skip

    alone = [draw(i) for i in range(len(moments))]
    _hand_png.cache_clear()
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    try:
        with ThreadPoolExecutor(4) as pool:
            together = list(pool.map(draw, [i for _ in range(3) for i in range(len(moments))]))
    finally:
        sys.setswitchinterval(switch)
    assert together == alone * 3
