"""What makes the offline Discord as unkind as Discord: its clock, its rate limits, and faults a test turns on.

* ``DiscordClock``: Discord's own time, the loop's monotonic time plus whatever a test ``advance``s it by, so that a
  15-minute interaction token can expire in a test that lasts a second.
* ``RateLimits``: Discord's limits (a global one per bot, one per route and major parameter, and one shared by all
  the writes to a channel), answering 429 with ``Retry-After`` as Discord does.  Their windows are scaled by
  ``time_scale`` (1.0 = Discord's real seconds) so that the suite exercises the same counts without waiting real
  seconds; ``bench/bench_bot.py`` runs them at Discord's scale.
* ``Faults``: opt-in failures for chosen routes: a 5xx, a 429, a slow answer, or a 5xx after the request was carried
  out (Discord did it, but the answer got lost).  Each rule fires a given number of times and counts what it did.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

# Interaction lifetimes (Discord's): the first answer within 3 s of the interaction's creation, then the token
# works for follow-ups and edits for 15 minutes.
FIRST_ANSWER_SECONDS = 3.0
TOKEN_SECONDS = 15 * 60.0


class DiscordClock:
    """Discord's time: the loop's monotonic clock, moved on by ``advance`` (a test's way of letting minutes pass)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def now(self) -> float:
        return time.monotonic() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass
class Window:
    """At most ``limit`` requests per ``seconds``: the times of the recent ones."""

    limit: int
    seconds: float
    times: deque[float] = field(default_factory=deque)

    def _forget(self, now: float) -> None:
        while self.times and now - self.times[0] >= self.seconds:
            self.times.popleft()

    def retry_after(self, now: float) -> float:
        """0 if a request may go now, else how long until one may."""
        self._forget(now)
        return 0.0 if len(self.times) < self.limit else self.times[0] + self.seconds - now

    def take(self, now: float) -> None:
        self.times.append(now)

    def remaining(self, now: float) -> int:
        self._forget(now)
        return max(0, self.limit - len(self.times))

    def reset_after(self, now: float) -> float:
        self._forget(now)
        return self.times[0] + self.seconds - now if self.times else self.seconds


# Writes to a channel (create, edit, delete a message) share its limit, whichever route they take.
_CHANNEL_WRITES = ("POST", "PATCH", "DELETE")


@dataclass
class Verdict:
    """A rate limiter's answer: ``retry_after`` > 0 means refused (429) in ``scope``; else the headers to send."""

    retry_after: float
    scope: str
    headers: dict[str, str]


@dataclass
class RateLimits:
    """Discord's limits, in its own numbers; ``time_scale`` shrinks every window alike (0.02: 5 s becomes 0.1 s).

    ``global_per_second``: every bot-authenticated request (interaction callbacks and webhooks are exempt, as on
    Discord).  ``route``: per route and major parameter (a channel, a guild, a webhook token); a route without one
    is held by the global limit only.  ``channel``: the
    writes to one channel together."""

    time_scale: float = 1.0
    global_per_second: int = 50
    route: tuple[int, float] = (5, 5.0)
    channel: tuple[int, float] = (5, 5.0)
    enabled: bool = True
    refused: int = 0  # 429s answered
    refused_by: dict[str, int] = field(default_factory=dict)  # per scope and route: "shared POST /channels/…"
    _windows: dict[tuple[str, ...], Window] = field(default_factory=dict)

    def _window(self, key: tuple[str, ...], limit: int, seconds: float) -> Window:
        window = self._windows.get(key)
        if window is None:
            window = self._windows[key] = Window(limit, seconds * self.time_scale)
        return window

    def check(self, method: str, route: str, major: str, bot_auth: bool, now: float) -> Verdict:
        if not self.enabled or route.endswith("/callback") or route in ("/gateway", "/gateway/bot"):
            return Verdict(0.0, "", {})
        windows: list[tuple[str, Window]] = []
        if bot_auth:
            windows.append(("global", self._window(("global",), self.global_per_second, 1.0)))
        # A route without a major parameter (e.g. opening a DM) is held by the global limit only, as on Discord.
        bucket = self._window(("route", method, route, major), *self.route) if major else None
        if bucket is not None:
            windows.append(("user", bucket))
        if route.startswith("/channels/{channel_id}/messages") and method in _CHANNEL_WRITES:
            windows.append(("shared", self._window(("channel", major), *self.channel)))
        for scope, window in windows:
            wait = window.retry_after(now)
            if wait > 0:
                self.refused += 1
                key = f"{scope} {method} {route}"
                self.refused_by[key] = self.refused_by.get(key, 0) + 1
                return Verdict(wait, scope, {})
        for _scope, window in windows:
            window.take(now)
        if bucket is None:
            return Verdict(0.0, "", {})
        headers = {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(bucket.remaining(now)),
            "X-RateLimit-Reset-After": f"{bucket.reset_after(now):.3f}",
            "X-RateLimit-Reset": f"{time.time() + bucket.reset_after(now):.3f}",
            "X-RateLimit-Bucket": f"{method}:{route}",
        }
        return Verdict(0.0, "", headers)


# Kinds of fault.
SERVER_ERROR, TOO_MANY, SLOW, LOST_ANSWER = "5xx", "429", "slow", "lost answer"


@dataclass
class Fault:
    """One injected failure, for requests whose method and route template match (None: any).  ``times``: how many
    requests it hits (None: every one until removed).  ``status``: the 5xx to answer; ``seconds``: the 429's
    Retry-After or the slow answer's delay.  ``LOST_ANSWER`` carries the request out, then answers 5xx."""

    kind: str
    method: str | None = None
    route: str | None = None
    times: int | None = 1
    status: int = 500
    seconds: float = 0.0
    when: Callable[[str, str, str], bool] | None = None  # (method, route, path) -> whether this request is hit
    hits: int = 0

    def matches(self, method: str, route: str, path: str) -> bool:
        if self.times is not None and self.hits >= self.times:
            return False
        if self.method is not None and self.method != method:
            return False
        if self.route is not None and self.route != route:
            return False
        return self.when is None or self.when(method, route, path)


class Faults:
    """The faults a test has turned on (none by default), and what they did: ``fake.faults.add(Fault(...))``."""

    def __init__(self) -> None:
        self.rules: list[Fault] = []
        self.injected: list[tuple[str, str, str]] = []  # (kind, method, route) of every request a fault hit

    def add(self, fault: Fault) -> Fault:
        self.rules.append(fault)
        return fault

    def clear(self) -> None:
        self.rules.clear()

    def pick(self, method: str, route: str, path: str) -> Fault | None:
        for fault in self.rules:
            if fault.matches(method, route, path):
                fault.hits += 1
                self.injected.append((fault.kind, method, route))
                return fault
        return None

    def count(self, kind: str | None = None) -> int:
        return sum(1 for k, _m, _p in self.injected if kind is None or k == kind)


async def slow_down(fault: Fault) -> None:
    await asyncio.sleep(fault.seconds)
