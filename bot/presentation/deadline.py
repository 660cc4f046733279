"""An interaction's first answer reaches Discord within its 3 seconds, even when Discord answers with errors.

discord.py's webhook adapter, which sends every interaction callback, retries a 5xx after sleeping 1 s, then 3 s,
5 s and 7 s: two errors in a row push the answer past Discord's deadline, and the player sees "interaction failed"
for a move that was made.  ``DeadlineAdapter`` sends callbacks itself with short, bounded retries that stop at the
deadline (counted from the interaction's creation, which its id says); every other webhook request (follow-ups and
edits, which have 15 minutes) goes through discord.py's own retries.

A retried callback may find that the first attempt did reach Discord after all (its answer was lost): Discord then
says "already acknowledged" (40060), which is the success it looks like.  ``install`` puts the adapter in the
context that the client's tasks inherit; ``errors.py`` turns a callback that could not be delivered into one log
line, without a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord
from discord.http import Route, json_or_text
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot.presentation.overload import DISCORD_DEADLINE
from bot.presentation.uploads import one_buffer

log = logging.getLogger(__name__)

CALLBACK_PATH = "/interactions/{webhook_id}/{webhook_token}/callback"
RETRY_PAUSES = (0.05, 0.15, 0.3, 0.5)  # then the last, again, while the deadline allows
ATTEMPT_FLOOR = 0.5  # the shortest time one attempt is given, even right at the deadline
ALREADY_ACKNOWLEDGED = 40060


def seconds_left(interaction_id: int, now: float | None = None) -> float:
    """What is left of Discord's deadline for the first answer to this interaction (its id holds its creation)."""
    created = discord.utils.snowflake_time(interaction_id).timestamp()
    now = discord.utils.utcnow().timestamp() if now is None else now
    return DISCORD_DEADLINE - (now - created)


def _acknowledged(interaction_id: int) -> dict[str, Any]:
    """What Discord would have answered the attempt whose answer was lost (the message it made is not known)."""
    return {"interaction": {"id": str(interaction_id), "type": 0, "response_message_id": None}}


class DeadlineAdapter(AsyncWebhookAdapter):
    """discord.py's adapter, with interaction callbacks retried only as long as Discord's deadline allows."""

    def __init__(self) -> None:
        super().__init__()
        self.retries = 0  # callback attempts repeated after an error (bench and tests read it)

    async def request(self, route: Route, session: aiohttp.ClientSession, **kwargs: Any) -> Any:
        if route.path != CALLBACK_PATH:
            return await super().request(route, session, **kwargs)
        return await self._callback(route, session, **kwargs)

    async def _callback(
        self,
        route: Route,
        session: aiohttp.ClientSession,
        *,
        payload: dict[str, Any] | None = None,
        multipart: list[dict[str, Any]] | None = None,
        files: list[discord.File] | None = None,
        params: dict[str, Any] | None = None,
        proxy: str | None = None,
        proxy_auth: aiohttp.BasicAuth | None = None,
        **_ignored: Any,
    ) -> Any:
        interaction_id = int(route.webhook_id or 0)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds_left(interaction_id)
        headers = {"Content-Type": "application/json"} if payload is not None else {}
        reached_discord = False  # an earlier attempt may have been carried out though its answer was lost
        attempt = 0
        # A picture's form, built once in one buffer (bot/presentation/uploads.py); else per try, as discord.py does
        prepared = one_buffer({"form": multipart}).get("data") if multipart else None
        while True:
            for file in files or []:
                file.reset(seek=attempt)
            body: Any = discord.utils._to_json(payload) if payload is not None else prepared
            if multipart and prepared is None:
                body = aiohttp.FormData(quote_fields=False)
                for part in multipart:
                    body.add_field(**part)
            timeout = aiohttp.ClientTimeout(total=max(deadline - loop.time(), ATTEMPT_FLOOR))
            error: BaseException
            try:
                async with session.request(
                    route.method, route.url, data=body, headers=headers, params=params, proxy=proxy,
                    proxy_auth=proxy_auth, timeout=timeout,
                ) as response:  # fmt: skip
                    data = await json_or_text(response)
                    if 200 <= response.status < 300:
                        return data
                    code = data.get("code") if isinstance(data, dict) else None
                    if response.status == 400 and code == ALREADY_ACKNOWLEDGED and reached_discord:
                        return _acknowledged(interaction_id)
                    if response.status == 429 and isinstance(data, dict):
                        pause, error = float(data.get("retry_after", 1.0)), discord.HTTPException(response, data)
                    elif response.status >= 500:
                        reached_discord = True
                        pause, error = (
                            RETRY_PAUSES[min(attempt, len(RETRY_PAUSES) - 1)],
                            discord.DiscordServerError(response, data),
                        )
                    elif response.status == 404:
                        raise discord.NotFound(response, data)
                    elif response.status == 403:
                        raise discord.Forbidden(response, data)
                    else:
                        raise discord.HTTPException(response, data)
            except (TimeoutError, aiohttp.ClientError) as failure:
                reached_discord, error = True, failure
                pause = RETRY_PAUSES[min(attempt, len(RETRY_PAUSES) - 1)]
            if loop.time() + pause >= deadline:
                raise error
            attempt += 1
            self.retries += 1
            log.debug("interaction %s: Discord answered the callback with %s; retrying in %.2f s", interaction_id,
                      error, pause)  # fmt: skip
            await asyncio.sleep(pause)


def install() -> DeadlineAdapter:
    """Send this task's (and the tasks it starts') interaction callbacks through a ``DeadlineAdapter``."""
    adapter = DeadlineAdapter()
    async_context.set(adapter)
    return adapter


def undelivered(error: BaseException) -> bool:
    """Whether ``error`` says that Discord could not be reached with an answer (errors, time-outs), not a bug."""
    return isinstance(error, discord.DiscordServerError | TimeoutError | aiohttp.ClientError) or (
        isinstance(error, discord.HTTPException) and error.status == 429
    )
