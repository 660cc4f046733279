"""One bot process of a multi-process test: the real bot on one shard, against a test's offline Discord, with a
PostgreSQL database; prints READY when discord.py is ready, runs until it is killed.

    python -m tests.botkit.shard_process API_BASE GATEWAY_URL TOKEN DATABASE_URL SHARD_ID SHARDS DEV_GUILD SEED
"""

from __future__ import annotations

import asyncio
import random
import sys

import tests.botkit.toy  # noqa: F401  (the toy game)
from bot.presentation import images
from bot.process.client import CardTableBot
from bot.process.settings import Settings
from tests.fakediscord.patch import point_discord_at


async def main(api: str, gateway: str, token: str, url: str, shard: int, shards: int, guild: int, seed: int) -> None:
    images.enabled = False
    settings = Settings(
        token=token,
        database_url=url,
        dev_guild_id=guild,
        ai_delay=0.0,
        edit_interval=0.0,
        draw_interval=0.0,
        kitty_pause=0.0,
        channel_window=0.0,
    )
    bot = CardTableBot(settings, rng=random.Random(seed), guild_ready_timeout=0.05, shard_id=shard, shard_count=shards)

    async def on_ready() -> None:
        print("READY", flush=True)

    bot.add_listener(on_ready)
    with point_discord_at(api, gateway):
        async with bot:
            await bot.start(token)


if __name__ == "__main__":
    api, gateway, token, url, shard, shards, guild, seed = sys.argv[1:9]
    asyncio.run(main(api, gateway, token, url, int(shard), int(shards), int(guild), int(seed)))
