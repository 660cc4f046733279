"""FakeDiscord: an offline Discord API (REST + gateway) on loopback, plus a user-simulation API."""

from __future__ import annotations

import asyncio
import os
import socket
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager, suppress
from typing import Any, TypeVar

import discord
from aiohttp import web

from . import patch
from .faults import FIRST_ANSWER_SECONDS, DiscordClock, Faults, RateLimits
from .gateway import Gateway, Session
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    InteractionResult,
    base_payload,
    command_data,
    modal_submit_components,
)
from .models import Channel, Guild, Member, Message, Role, User, snowflake
from .rest import RestApi, RestCall
from .world import Notification, UploadedFile, World

T = TypeVar("T")

# Component types a user can select values in (string, user, role, mentionable, channel selects).
_SELECT_TYPES = (3, 5, 6, 7, 8)


# Shaped like a bot token (three base64url parts, the first a user id), as the bot's settings require.
FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.ZmFrZQ.ZmFrZS1ib3QtdG9rZW4"


class FakeDiscord:
    """A fake Discord for one test: `async with FakeDiscord() as fake:` then `with fake.patched():`.

    The world (guilds, users, messages, registered commands) survives bot restarts; every new
    IDENTIFY starts a new gateway session that tests then talk to.
    """

    def __init__(
        self,
        *,
        token: str = FAKE_TOKEN,
        bot_name: str = "CardTable",
        interaction_deadline: float | None = FIRST_ANSWER_SECONDS,
        slack: float | None = None,
        rate_limits: RateLimits | None = None,
    ) -> None:
        self.token = token
        bot = User(id=snowflake(), username=bot_name, bot=True)
        owner = User(id=snowflake(), username="app-owner")
        # The application id equals the bot user's id, as for every modern Discord app.
        self.world = World(bot=bot, application_id=bot.id, owner=owner)
        self.gateway = Gateway(self)
        self.rest = RestApi(self)
        self.interactions_by_token: dict[str, InteractionResult] = {}
        # Discord's time, which a test may move on (``clock.advance``): interaction tokens expire on it.
        self.clock = DiscordClock()
        # Discord's 3 s for an interaction's first answer (None: no deadline), measured from when the interaction
        # was sent to when the answer reached the fake.  ``deadline_slack`` stretches it for a loaded test machine
        # (FAKEDISCORD_DEADLINE_SLACK, 2 by default: an answer is refused after 6 s); answers later than 3 s but
        # within the slack are still counted in ``late_answers``.  Benchmarks set the slack to 1.
        self.interaction_deadline: float | None = interaction_deadline
        self.deadline_slack = float(os.environ.get("FAKEDISCORD_DEADLINE_SLACK", "2")) if slack is None else slack
        self.expired_interactions = 0  # first answers refused as too late (10062)
        self.expired_tokens = 0  # follow-ups and edits refused after the token's 15 minutes (50027)
        # Discord's rate limits (tests/fakediscord/faults.py); the suite runs them fifty times faster than Discord.
        self.rate_limits = RateLimits(time_scale=0.02) if rate_limits is None else rate_limits
        self.faults = Faults()  # none unless a test or benchmark adds them
        self._changed = asyncio.Event()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/", self.gateway.handle)
        self.rest.install(app)
        # Binding the socket ourselves gives a random free port without racing for it.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    @asynccontextmanager
    async def running(self, client: discord.Client, *, timeout: float = 10.0) -> AsyncIterator[discord.Client]:
        """Start `client` against this fake, wait for its `ready`, and close it on exit.

        Must be used inside `patched()`. Give the client a small `guild_ready_timeout` (e.g. 0.05):
        discord.py waits that long after the last GUILD_CREATE before it is ready (default 2 s).
        """
        task = asyncio.create_task(client.start(self.token), name="fakediscord-client")
        ready = asyncio.create_task(client.wait_until_ready())
        try:
            done, _ = await asyncio.wait({ready, task}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if task in done:
                task.result()  # surfaces login/connect errors
                raise RuntimeError("the client stopped before becoming ready")
            if ready not in done:
                raise TimeoutError(f"the client was not ready after {timeout}s")
            yield client
        finally:
            ready.cancel()
            await client.close()
            await asyncio.wait_for(task, timeout)

    @contextmanager
    def patched(self) -> Iterator[None]:
        """Point discord.py's REST base URL and default gateway URL at this server."""
        with patch.point_discord_at(self.api_base, self.gateway_url):
            yield

    # -- world building --------------------------------------------------------------------------

    @property
    def bot_user(self) -> User:
        return self.world.bot

    @property
    def application_id(self) -> int:
        return self.world.application_id

    def add_user(self, username: str, *, dms_closed: bool = False) -> User:
        return self.world.add_user(username, dms_closed=dms_closed)

    def add_guild(self, name: str = "Card Club", *, owner: User | None = None) -> Guild:
        """Guilds must exist before the bot connects (they are announced in READY/GUILD_CREATE)."""
        return self.world.add_guild(name, owner=owner)

    def add_text_channel(self, guild: Guild, name: str = "general") -> Channel:
        return self.world.add_text_channel(guild, name)

    def add_member(self, guild: Guild, user: User, *, permissions: int = 0, nick: str | None = None) -> Member:
        """`permissions`: extra bits, e.g. `discord.Permissions(manage_guild=True).value`."""
        return self.world.add_member(guild, user, permissions=permissions, nick=nick)

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        return self.world.add_role(guild, name, permissions=permissions)

    def dm_channel(self, user: User) -> Channel:
        return self.world.dm_channel(user)

    # -- waiting ---------------------------------------------------------------------------------

    def notify_changed(self) -> None:
        """Wake every `wait_until`; called after each REST request and gateway identify."""
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_until(self, predicate: Callable[[], T], timeout: float = 10.0, what: str = "a condition") -> T:
        """Re-check `predicate` after every change until it returns something truthy."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                hint = f"; unknown routes hit: {self.rest.unknown_routes}" if self.rest.unknown_routes else ""
                raise TimeoutError(f"timed out after {timeout}s waiting for {what}{hint}")
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def wait_for_identify(self, timeout: float = 10.0, *, after: int = 0) -> Session:
        """Wait until more than `after` bots identified (see `identify_count`) and got their guilds.

        discord.py fires its own `ready` later (after `guild_ready_timeout`); prefer
        `client.wait_until_ready()` when you hold the client.
        """

        def connected() -> Session | None:
            current = self.gateway.current
            ok = self.gateway.identify_count > after and current is not None and current.connection is not None
            return current if ok else None

        return await self.wait_until(connected, timeout, f"IDENTIFY number {after + 1}")

    async def request_reconnect(self, timeout: float = 10.0) -> None:
        """Send op 7 RECONNECT and wait until the client has RESUMEd its session."""
        resumes = self.gateway.resume_count
        await self.gateway.reconnect_request()
        await self.wait_until(lambda: self.gateway.resume_count > resumes, timeout, "a RESUME")

    async def drop_connection(self, *, down_for: float = 0.0, timeout: float = 10.0) -> None:
        """The bot's gateway connection breaks (no op 7, as when a network path fails); what is dispatched while it
        is down (interactions too) waits in the session, and is replayed when the client RESUMEs.  ``down_for``:
        seconds during which reconnecting fails.  Returns when the client has RESUMEd."""
        resumes = self.gateway.resume_count
        await self.gateway.drop(down_for)
        await self.wait_until(lambda: self.gateway.resume_count > resumes, timeout + down_for, "a RESUME")

    def late_answers(self, seconds: float = FIRST_ANSWER_SECONDS) -> list[InteractionResult]:
        """Interactions whose first answer reached the fake more than ``seconds`` after they were sent."""
        return [
            r
            for r in self.interactions_by_token.values()
            if r.answered_after is not None and r.answered_after > seconds
        ]

    def unanswered(self) -> list[InteractionResult]:
        """Interactions (not autocompletes) that never got a first answer."""
        return [r for r in self.interactions_by_token.values() if r.callback_type is None and r.type != AUTOCOMPLETE]

    @property
    def identify_count(self) -> int:
        return self.gateway.identify_count

    @property
    def connected(self) -> bool:
        current = self.gateway.current
        return current is not None and current.connection is not None

    def mark(self) -> int:
        """A point in time for `wait_for_message(since=...)` / `calls(since=...)`."""
        return self.world.revision

    async def wait_for_message(
        self,
        channel: Channel | None = None,
        predicate: Callable[[Message], bool] | None = None,
        *,
        since: int | None = None,
        timeout: float = 10.0,
        include_ephemeral: bool = False,
    ) -> Message:
        """Wait for a bot message created or edited (after the `since` mark) that matches."""

        def find() -> Message | None:
            candidates = channel.messages if channel else list(self.world.messages.values())
            for message in sorted(candidates, key=lambda m: m.revision, reverse=True):
                if message.deleted or message.author is not self.world.bot:
                    continue
                if since is not None and message.revision <= since:
                    break
                if message.ephemeral and not include_ephemeral:
                    continue
                if predicate is None or predicate(message):
                    return message
            return None

        where = f"channel {channel.name!r}" if channel else "any channel"
        return await self.wait_until(find, timeout, f"a bot message in {where} matching {predicate}")

    # -- observation -------------------------------------------------------------------------------

    def messages(self, channel: Channel, *, include_ephemeral: bool = False) -> list[Message]:
        return channel.visible_messages(include_ephemeral=include_ephemeral)

    def last_message(self, channel: Channel, *, include_ephemeral: bool = False) -> Message | None:
        messages = channel.visible_messages(include_ephemeral=include_ephemeral)
        return messages[-1] if messages else None

    @property
    def rest_log(self) -> list[RestCall]:
        return self.rest.log

    def rest_mark(self) -> int:
        return len(self.rest.log)

    def calls(self, method: str | None = None, route: str | None = None, *, since: int = 0) -> list[RestCall]:
        """REST calls after index `since` (see `rest_mark`), filtered by method / route template."""
        return [
            call
            for call in self.rest.log[since:]
            if (method is None or call.method == method) and (route is None or call.route == route)
        ]

    def channel_calls(self, channel: Channel, *, since: int = 0) -> list[RestCall]:
        """The bot's REST calls to one channel (everything under ``/channels/{id}/``, the routes that share its
        rate limits), after index ``since`` (see ``rest_mark``)."""
        prefix = f"/channels/{channel.id}/"
        return [call for call in self.rest.log[since:] if call.path.startswith(prefix)]

    def notifications(self, user: User | None = None, *, since: int = 0) -> list[Notification]:
        """Who was notified of which message, in order, after index ``since`` (``len(fake.notifications())``)."""
        found = self.world.notifications[since:]
        return [n for n in found if user is None or n.user is user]

    @property
    def unknown_routes(self) -> list[str]:
        return self.rest.unknown_routes

    # -- acting as users ---------------------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        name: str,
        options: Mapping[str, Any] | None = None,
        *,
        subcommand: str | None = None,
    ) -> InteractionResult:
        """Invoke `/name [subcommand] options...`; `subcommand` may be "group sub"."""
        command = self.world.find_command(channel.guild, name)
        data = command_data(self, command, subcommand, options or {})
        return await self._interact(APPLICATION_COMMAND, user, channel, data)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        name: str,
        focused: str,
        value: str,
        options: Mapping[str, Any] | None = None,
        *,
        subcommand: str | None = None,
    ) -> InteractionResult:
        """Type `value` into option `focused`; `await` the result and read `.choices`."""
        command = self.world.find_command(channel.guild, name)
        data = command_data(self, command, subcommand, {**(options or {}), focused: value}, focused=focused)
        return await self._interact(AUTOCOMPLETE, user, channel, data)

    async def click(self, user: User, message: Message, custom_id: str) -> InteractionResult:
        component = self._component(message, custom_id)
        if component.get("type") != 2:
            raise ValueError(f"{custom_id!r} is not a button (type {component.get('type')})")
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(MESSAGE_COMPONENT, user, message.channel, data, message)

    async def forged_component(
        self, user: User, message: Message, custom_id: str, values: Sequence[str] | None = None, *, kind: int = 2
    ) -> InteractionResult:
        """A component interaction that no component of ``message`` offers, as an old message's or a modified
        client's would be: any ``custom_id`` (Discord only bounds its length), any select ``values``."""
        if not 1 <= len(custom_id) <= 100:
            raise ValueError("Discord refuses custom ids outside 1..100 characters")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = list(values)
        return await self._interact(MESSAGE_COMPONENT, user, message.channel, data, message)

    async def select(self, user: User, message: Message, custom_id: str, values: Sequence[Any]) -> InteractionResult:
        """Pick `values` (strings for a string select; User objects for a user select)."""
        component = self._component(message, custom_id)
        kind = component.get("type")
        if kind not in _SELECT_TYPES:
            raise ValueError(f"{custom_id!r} is not a select menu (type {kind})")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind, "values": []}
        for value in values:
            if isinstance(value, User):
                data.setdefault("resolved", {}).setdefault("users", {})[str(value.id)] = value.to_payload()
                data["values"].append(str(value.id))
            else:
                data["values"].append(str(value))
        if kind == 3:
            allowed = {o["value"] for o in component.get("options", [])}
            unknown = [v for v in data["values"] if v not in allowed]
            if unknown:
                raise ValueError(f"values {unknown} are not options of {custom_id!r}: {sorted(allowed)}")
        return await self._interact(MESSAGE_COMPONENT, user, message.channel, data, message)

    async def submit_modal(self, user: User, opened: InteractionResult, values: Mapping[str, Any]) -> InteractionResult:
        """Fill in and submit the modal the bot opened in answer to `opened` (callback type 9)."""
        modal = opened.modal
        if modal is None:
            raise ValueError(f"{opened!r} did not open a modal")
        data = {"custom_id": modal["custom_id"], "components": modal_submit_components(modal, values)}
        channel = self.world.get_channel(opened.payload["channel_id"])
        return await self._interact(MODAL_SUBMIT, user, channel, data, opened.source)

    async def send_message(
        self, user: User, channel: Channel, content: str = "", *, files: Mapping[str, bytes] | None = None
    ) -> Message:
        """`user` posts `content` (and `files`: filename -> bytes) in `channel` or `dm_channel(user)`.

        Works while no bot is connected too: the message is stored but the bot never sees it.
        """
        uploads = [
            UploadedFile(f"files[{i}]", name, data, None) for i, (name, data) in enumerate((files or {}).items())
        ]
        message = self.world.create_message(channel, user, {"content": content}, uploads)
        await self.dispatch_message("MESSAGE_CREATE", message)
        self.notify_changed()
        return message

    # -- internals -------------------------------------------------------------------------------

    def _component(self, message: Message, custom_id: str) -> dict[str, Any]:
        # Use the stored version: the test may hold a Message whose components have since changed.
        message = self.world.messages[message.id]
        component = message.find_component(custom_id)
        if component is None:
            raise ValueError(f"no component {custom_id!r} on message {message.id}; has {message.custom_ids()}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        return component

    async def _interact(
        self,
        type_: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        source: Message | None = None,
    ) -> InteractionResult:
        # While the connection is down Discord keeps the interaction for the session (it is replayed on RESUME).
        guild_id = channel.guild.id if channel.guild is not None else None
        session = self.gateway.session_for(guild_id, connected=False)
        payload = base_payload(self, type_, user, channel, data)
        if source is not None:
            payload["message"] = source.to_payload(self.base_url)
        result = InteractionResult(self, payload, source)
        self.interactions_by_token[result.token] = result
        await session.dispatch("INTERACTION_CREATE", payload)
        return result

    async def dispatch_message(self, event: str, message: Message) -> None:
        if message.ephemeral:
            return  # Discord never sends gateway events for ephemeral messages
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.channel.guild is not None:
                data["guild_id"] = str(message.channel.guild.id)
        else:
            data = message.to_payload(self.base_url)
        await self.gateway.dispatch_message_event(
            event, data, dm=message.channel.is_dm, from_bot=message.author is self.world.bot
        )
