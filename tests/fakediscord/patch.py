"""The only changes made to discord.py: its two base URLs.

discord.py 2.7.1 builds every REST URL (bot HTTP client *and* the webhook adapter used for
interaction callbacks/follow-ups) from the class attribute `discord.http.Route.BASE`, and a
`discord.Client` connects to the class attribute `DiscordWebSocket.DEFAULT_GATEWAY` (it does not
call GET /gateway/bot; after READY it uses `resume_gateway_url`, which the fake points at itself).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


@contextmanager
def point_discord_at(api_base: str, gateway_url: str) -> Iterator[None]:
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway
