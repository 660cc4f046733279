"""A request budget per channel: at most ``requests`` calls to one channel in any ``window`` seconds.

Discord lets one channel take about 5 new messages per 5 s, and the tables sharing a channel share that.  Every
request the bot makes under ``/channels/{id}/…`` (messages sent, edited or deleted, from the presenter, the cogs
or the clocks) waits here for room, so the budget is kept whoever sends; interaction answers go through their own
webhook routes and are not counted.  When several requests wait, the most urgent goes first: a turn ping before
the rest, deletions last.  A request counts from the moment it is let through until ``window`` seconds after it
was answered, so that the requests Discord receives, whenever they arrive, never exceed the budget.
"""

from __future__ import annotations

import asyncio
import collections
import heapq
import itertools
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import discord

PING, NORMAL, DELETE = 0, 1, 2  # the order in which waiting requests go (a turn ping first, deletions may wait)

_priority: ContextVar[int] = ContextVar("channel_request_priority", default=NORMAL)


@dataclass
class _Channel:
    answered: collections.deque[float] = field(default_factory=collections.deque)  # when recent requests ended
    in_flight: int = 0
    waiting: list[tuple[int, int, asyncio.Future[None]]] = field(default_factory=list)  # a heap by priority
    timer: asyncio.TimerHandle | None = None


class ChannelBudget:
    def __init__(self, requests: int = 5, window: float = 5.0):
        self.requests = requests
        self.window = window
        self._channels: dict[int, _Channel] = collections.defaultdict(_Channel)
        self._order = itertools.count()

    def install(self, http: discord.http.HTTPClient) -> None:
        """Make every channel request of this client wait for the budget (discord.py's HTTP client calls its own
        ``request`` for each REST call, so this sees them all)."""
        send = http.request

        async def request(route: discord.http.Route, **kwargs: Any) -> Any:
            if route.channel_id is None or not route.path.startswith("/channels/"):
                return await send(route, **kwargs)
            async with self.slot(int(route.channel_id)):
                return await send(route, **kwargs)

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
        channel = self._channels[channel_id]
        await self._acquire(channel, _priority.get())
        try:
            yield
        finally:
            channel.in_flight -= 1
            channel.answered.append(self._now())
            self._grant(channel)

    async def room(self, channel_id: int) -> None:
        """Wait until a request to the channel could go now, without making one: a table-message edit waits here
        before it reads the table, so that the moves made meanwhile show in one edit (the states between are
        skipped)."""
        channel = self._channels[channel_id]
        await self._acquire(channel, NORMAL)
        channel.in_flight -= 1
        self._grant(channel)

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    async def _acquire(self, channel: _Channel, priority: int) -> None:
        if not channel.waiting and self._free(channel):
            channel.in_flight += 1
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(channel.waiting, (priority, next(self._order), waiter))
        self._grant(channel)
        try:
            await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # granted, then cancelled: give the room back
                channel.in_flight -= 1
                self._grant(channel)
            raise

    def _free(self, channel: _Channel) -> bool:
        since = self._now() - self.window
        while channel.answered and channel.answered[0] <= since:
            channel.answered.popleft()
        return len(channel.answered) + channel.in_flight < self.requests

    def _grant(self, channel: _Channel) -> None:
        """Let the most urgent waiters go while there is room; else look again when the oldest request expires."""
        while channel.waiting and self._free(channel):
            _, _, waiter = heapq.heappop(channel.waiting)
            if not waiter.done():
                waiter.set_result(None)
                channel.in_flight += 1
        if channel.timer is not None:
            channel.timer.cancel()
            channel.timer = None
        if channel.waiting and channel.answered:
            loop = asyncio.get_running_loop()
            channel.timer = loop.call_at(channel.answered[0] + self.window, self._grant, channel)
