"""Running the real bot against the offline fake Discord, and acting as its users.

``BotWorld`` holds one FakeDiscord with a guild, a channel and a few users; ``world.bot()`` makes a bot on the
world's database (call it again after stopping the first one to simulate a restart).  Helpers find components by
their verb, so tests read like a player's clicks: ``await world.click(alice, message, "join")``.
"""

from __future__ import annotations

import asyncio
import random
import re
from contextlib import asynccontextmanager
from typing import Any

import discord

import tests.botkit.toy  # noqa: F401  (the toy game, for fast tests)
from bot import images
from bot.client import CardTableBot
from bot.settings import Settings
from tests.fakediscord import FakeDiscord
from tests.fakediscord.models import Message, User

TIMEOUT = 10.0


def component_ids(message: Message) -> list[str]:
    return list(message.custom_ids())


def find_id(message: Message, verb: str, arg: str | None = None) -> str:
    """The custom id of the component with this verb (and argument prefix) on the message."""
    pattern = re.compile(rf"^c[ts]:\d+:{verb}(?::|$)")
    for cid in component_ids(message):
        if pattern.match(cid) and (arg is None or cid.split(":", 4)[-1].startswith(arg) or arg in cid):
            return cid
    raise AssertionError(f"no {verb!r} component on message {message.id}: {component_ids(message)}")


def select_options(message: Message, custom_id: str) -> list[dict]:
    component = message.find_component(custom_id)
    assert component is not None, custom_id
    return component.get("options", [])


class BotWorld:
    def __init__(self, fake: FakeDiscord, db_path: str, *, images_on: bool = False):
        self.fake = fake
        self.db_path = db_path
        self.guild = fake.add_guild("Card Club")
        self.channel = fake.add_text_channel(self.guild, "tables")
        self.alice = self._member("alice")
        self.bob = self._member("bob")
        self.carol = self._member("carol")
        self.dan = self._member("dan")
        self.closed = self._member("closed", dms_closed=True)
        self.stranger = self._member("stranger")
        images.enabled = images_on

    def _member(self, name: str, **kw: Any) -> User:
        user = self.fake.add_user(name, **kw)
        self.fake.add_member(self.guild, user)
        return user

    def bot(self, seed: int = 7, **overrides: Any) -> CardTableBot:
        settings = Settings(
            token=self.fake.token,
            db_path=self.db_path,
            dev_guild_id=self.guild.id,
            ai_delay=overrides.pop("ai_delay", 0.0),
        )
        return CardTableBot(settings, rng=random.Random(seed), guild_ready_timeout=0.05, **overrides)

    @asynccontextmanager
    async def running(self, seed: int = 7, **overrides: Any):
        client = self.bot(seed, **overrides)
        async with self.fake.running(client, timeout=TIMEOUT):
            yield client

    # --- acting --------------------------------------------------------------------------------------------

    async def slash(self, user: User, name: str, options: dict | None = None, *, subcommand: str | None = None):
        result = await self.fake.slash(user, self.channel, name, options or {}, subcommand=subcommand)
        await result.wait(TIMEOUT)
        return result

    async def click(self, user: User, message: Message, verb: str, arg: str | None = None):
        result = await self.fake.click(user, message, find_id(message, verb, arg))
        await result.wait(TIMEOUT)
        return result

    async def select(self, user: User, message: Message, verb: str, values: list[str], arg: str | None = None):
        result = await self.fake.select(user, message, find_id(message, verb, arg), values)
        await result.wait(TIMEOUT)
        return result

    async def new_table(self, host: User, game: str = "toy", options: str | None = None, preset: str | None = None):
        args: dict[str, Any] = {"game": game}
        if options:
            args["options"] = options
        if preset:
            args["preset"] = preset
        result = await self.slash(host, "table", args, subcommand="new")
        assert result.message is not None and not result.ephemeral, result.content
        return result.message

    def dms(self, user: User) -> list[Message]:
        return self.fake.messages(self.fake.dm_channel(user))

    async def settle(self, client: CardTableBot, rounds: int = 3) -> None:
        """Let computer players and queued Discord output finish."""
        for _ in range(rounds):
            await asyncio.sleep(0.01)
            for table in list(client.manager.tables.values()):
                task = table.computer_task
                if task is not None and not task.done():
                    await asyncio.wait_for(asyncio.shield(task), TIMEOUT)
                await asyncio.wait_for(client.presenter.drain(table), TIMEOUT)


@asynccontextmanager
async def bot_world(tmp_path, **kw: Any):
    async with FakeDiscord() as fake:
        with fake.patched():
            yield BotWorld(fake, str(tmp_path / "cardtable.db"), **kw)


def is_ephemeral(result) -> bool:
    return bool(result.message is not None and result.message.flags & discord.MessageFlags.ephemeral.flag)
