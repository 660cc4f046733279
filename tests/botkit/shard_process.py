"""One bot process of a multi-process test: the real bot on one shard, against a test's offline Discord, with a
PostgreSQL database; prints READY when discord.py is ready, runs until it is killed.

    python -m tests.botkit.shard_process API_BASE GATEWAY_URL TOKEN DATABASE_URL SHARD_ID SHARDS DEV_GUILD SEED

What the clock tests change, from the environment: ``CARDTABLE_TEST_CUSTOM_MIN`` (the shortest custom clock, so a
turn can run out within seconds), ``CARDTABLE_TEST_FIRING_LEASE`` (``bot.clocks.service.FIRING_LEASE``), and
``CARDTABLE_TEST_HANG_AFTER_CLAIM`` (a directory): the first process, of all those sharing the directory, to win a
claim on a firing of each kind prints ``CLAIMED <kind>`` and goes no further with it, as if it died right then (the
test kills it).  ``CARDTABLE_TEST_ANSWER_LEASE`` (``bot.presentation.forwarding.ANSWER_LEASE``), and
``CARDTABLE_TEST_FREEZE_AFTER_ACT`` (a directory): once the test has made a file ``armed`` there, the process, having
stored a player's move, prints ``ACTED <table>`` and stops dead before answering it (its event loop blocked, as a
process killed at that instant would be; the test kills it).
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import time

import tests.botkit.toy  # noqa: F401  (the toy game)
from bot.clocks import service as clock_service
from bot.presentation import forwarding, images
from bot.process.client import CardTableBot
from bot.process.settings import Settings
from bot.storage import clocks as clock_store
from bot.tables import guild_settings
from bot.tables.service import TableManager
from tests.fakediscord.patch import point_discord_at


def test_hooks() -> None:
    if os.environ.get("CARDTABLE_TEST_CUSTOM_MIN"):
        guild_settings.CUSTOM_MIN = int(os.environ["CARDTABLE_TEST_CUSTOM_MIN"])
    if os.environ.get("CARDTABLE_TEST_FIRING_LEASE"):
        clock_service.FIRING_LEASE = float(os.environ["CARDTABLE_TEST_FIRING_LEASE"])
    if os.environ.get("CARDTABLE_TEST_ANSWER_LEASE"):
        forwarding.ANSWER_LEASE = float(os.environ["CARDTABLE_TEST_ANSWER_LEASE"])
    freeze_in = os.environ.get("CARDTABLE_TEST_FREEZE_AFTER_ACT")
    if freeze_in:
        act = TableManager.act

        async def act_then_freeze(self, table_id, *args, **kwargs):
            outcome = await act(self, table_id, *args, **kwargs)
            if os.path.exists(os.path.join(freeze_in, "armed")):
                print(f"ACTED {table_id}", flush=True)
                time.sleep(3600)  # stored, not answered, nothing else done: the test kills the process now
            return outcome

        TableManager.act = act_then_freeze  # type: ignore[method-assign]
    directory = os.environ.get("CARDTABLE_TEST_HANG_AFTER_CLAIM")
    if not directory:
        return
    claim = clock_store.claim_firing

    async def claim_then_hang(store, table_id, kind, *args, **kwargs):
        won = await claim(store, table_id, kind, *args, **kwargs)
        if won.won:
            try:
                os.close(os.open(os.path.join(directory, f"claimed-{kind}"), os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return won
            print(f"CLAIMED {kind}", flush=True)
            await asyncio.Event().wait()
        return won

    clock_store.claim_firing = claim_then_hang


async def main(api: str, gateway: str, token: str, url: str, shard: int, shards: int, guild: int, seed: int) -> None:
    images.enabled = False
    test_hooks()
    settings = Settings(
        token=token,
        database_url=url,
        dev_guild_id=guild,
        ai_delay=0.0,
        edit_interval=0.0,
        draw_interval=0.0,
        kitty_pause=0.0,
        channel_window=0.0,
        lease_seconds=float(os.environ.get("CARDTABLE_LEASE_SECONDS", "30")),
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
