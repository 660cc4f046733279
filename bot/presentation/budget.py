"""Request budgets: at most ``requests`` calls to one channel in any ``window`` seconds, and at most
``global_requests`` calls in all in any ``global_window`` seconds.

Discord lets one channel take about 5 new messages per 5 s, and the tables sharing a channel share that; and it lets
a bot make about 50 requests a second in all (its global limit), which many tables starting together would pass.
Every REST request the bot makes through ``bot.http`` (messages sent, edited or deleted, DMs opened, from the
presenter, the cogs or the clocks) waits here: one under ``/channels/{id}/…`` for room in that channel's budget, then
every one for room in the global budget.  Interaction answers and follow-ups go through their own webhook routes
(discord.py's webhook adapter, not ``bot.http``), which Discord does not count against the global limit, so they
never wait here.  When several requests wait, the most urgent goes first: turn pings and live hands, then new
messages, then table-message edits, deletions last; but a request that has waited long enough goes before a more
urgent one that has just come, so that none waits for ever.  A request counts from the moment it is let through until
``window`` seconds after it was answered, so that the requests Discord receives, whenever they arrive, never exceed
the budget.
"""

from __future__ import annotations

import asyncio
import collections
import heapq
import itertools
import logging
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.presentation.uploads import one_buffer

# The order in which waiting requests go: a turn ping or a live hand first (someone is waiting to act), then new
# messages, then table-message edits (a later edit shows the same moves), deletions whenever there is room.
PING, NORMAL, EDIT, DELETE = 0, 1, 2, 3
HAND = PING

# A waiting request's level counts as this many seconds of waiting: a table-message edit that has waited 2 s goes
# before a live hand asked for just now, so that a bot at its budget (a hand edit at every card, at many tables)
# still updates its tables, later rather than never.
LEVEL_SECONDS = 2.0

# Rounds of discord.py's five tries a request refused with 429 gets before its caller hears of it.
REFUSED_ROUNDS = 3

log = logging.getLogger(__name__)

_priority: ContextVar[int] = ContextVar("channel_request_priority", default=NORMAL)

# Routes that carry an interaction's token rather than the bot's: Discord does not count them globally.
_EXEMPT = ("/interactions/", "/webhooks/")


@dataclass
class Window:
    """One budget: ``requests`` per ``window`` seconds, with the requests waiting for room: a heap by when they
    came plus ``LEVEL_SECONDS`` per priority level (the most urgent first, and none waits for ever)."""

    requests: int
    window: float
    answered: collections.deque[float] = field(default_factory=collections.deque)  # when recent requests ended
    in_flight: int = 0
    waiting: list[tuple[float, int, asyncio.Future[None]]] = field(default_factory=list)
    timer: asyncio.TimerHandle | None = None
    _order: Iterator[int] = field(default_factory=itertools.count)

    @asynccontextmanager
    async def slot(self, priority: int) -> AsyncIterator[None]:
        await self.acquire(priority)
        try:
            yield
        finally:
            self.in_flight -= 1
            self.answered.append(_now())
            self.grant()

    async def acquire(self, priority: int) -> None:
        if not self.waiting and self.free():
            self.in_flight += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self.waiting, (_now() + priority * LEVEL_SECONDS, next(self._order), waiter))
        self.grant()
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # granted, then cancelled: give the room back
                self.in_flight -= 1
                self.grant()
            raise

    def give_back(self) -> None:
        """An acquired room not used after all (``room``)."""
        self.in_flight -= 1
        self.grant()

    def free(self) -> bool:
        since = _now() - self.window
        while self.answered and self.answered[0] <= since:
            self.answered.popleft()
        return len(self.answered) + self.in_flight < self.requests

    def grant(self) -> None:
        """Let the most urgent waiters go while there is room; else look again when the oldest request expires."""
        while self.waiting and self.free():
            _, _, waiter = heapq.heappop(self.waiting)
            if not waiter.done():
                waiter.set_result(None)
                self.in_flight += 1
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if self.waiting and self.answered:
            self.timer = asyncio.get_running_loop().call_at(self.answered[0] + self.window, self.grant)


def _retry_after(refused: discord.HTTPException) -> float:
    """The wait a 429 asked for (its ``Retry-After`` header), at least a little so the waiting requests go first."""
    try:
        return min(60.0, max(0.05, float(refused.response.headers.get("Retry-After", 1.0))))
    except (ValueError, AttributeError, TypeError):
        return 1.0


def _now() -> float:
    return asyncio.get_running_loop().time()


class ChannelBudget:
    """The per-channel budgets and the global one (``global_window`` 0: no global budget)."""

    def __init__(
        self, requests: int = 5, window: float = 5.0, *, global_requests: int = 45, global_window: float = 1.0
    ):
        self.requests = requests
        self.window = window
        self._channels: dict[int, Window] = collections.defaultdict(lambda: Window(self.requests, self.window))
        self.everything = Window(global_requests, global_window) if global_window > 0 else None

    def install(self, http: discord.http.HTTPClient) -> None:
        """Make every request of this client wait for the budgets (discord.py's HTTP client calls its own
        ``request`` for each REST call, so this sees them all)."""
        send = http.request

        async def request(route: discord.http.Route, **kwargs: Any) -> Any:
            kwargs = one_buffer(kwargs)  # a picture's form built once, in one buffer (bot/presentation/uploads.py)
            if route.path.startswith(_EXEMPT):
                return await send(route, **kwargs)
            priority = _priority.get()
            for round_ in itertools.count(1):
                try:
                    async with self._channel_slot(route, priority), self._global_slot(priority):
                        return await send(route, **kwargs)
                except discord.HTTPException as refused:
                    # discord.py sends a request refused with 429 five times, then gives up.  A busy channel can
                    # refuse all five (the requests that wait there take the room first), yet a 429 means Discord
                    # did nothing: sending again is safe, and a message like "Board 1 played" must not be lost.
                    if refused.status != 429 or round_ > REFUSED_ROUNDS:
                        raise
                    wait = _retry_after(refused)
                    log.info("%s %s refused with 429 five times; sending again in %.2f s", route.method, route.path,
                             wait)  # fmt: skip
                    await asyncio.sleep(wait)
                    for file in kwargs.get("files") or ():
                        file.reset(seek=True)  # discord.py rewinds a file only from its second try of a round
            raise AssertionError("unreachable")

        http.request = request  # type: ignore[method-assign]

    @staticmethod
    @contextmanager
    def priority(level: int) -> Iterator[None]:
        """Requests made inside (by this task and what it awaits) wait with this priority."""
        token = _priority.set(level)
        try:
            yield
        finally:
            _priority.reset(token)

    @asynccontextmanager
    async def slot(self, channel_id: int) -> AsyncIterator[None]:
        """Room for one request to the channel (the global budget is the request's own, in ``install``)."""
        async with self._channels[channel_id].slot(_priority.get()):
            yield

    async def room(self, channel_id: int) -> None:
        """Wait until a request to the channel could go now, without making one: a table-message edit waits here
        before it reads the table, so that the moves made meanwhile show in one edit (the states between are
        skipped)."""
        channel = self._channels[channel_id]
        await channel.acquire(EDIT)
        channel.give_back()

    @asynccontextmanager
    async def _channel_slot(self, route: discord.http.Route, priority: int) -> AsyncIterator[None]:
        if route.channel_id is None or not route.path.startswith("/channels/"):
            yield
            return
        async with self._channels[int(route.channel_id)].slot(priority):
            yield

    @asynccontextmanager
    async def _global_slot(self, priority: int) -> AsyncIterator[None]:
        if self.everything is None:
            yield
            return
        async with self.everything.slot(priority):
            yield
