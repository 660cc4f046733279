"""REST routes of the fake Discord API (`/api/v10/...`), as called by discord.py 2.7.1."""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .faults import LOST_ANSWER, SLOW, TOKEN_SECONDS, TOO_MANY, Fault, slow_down
from .interactions import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    PONG,
    UPDATE_MESSAGE,
    InteractionResult,
)
from .models import EPHEMERAL, LOADING, Channel, Message
from .world import ApiError, UploadedFile, unknown

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

API = "/api/v10"

# The parsed request body, stored on the request by the middleware for the handlers.
BODY = web.RequestKey("body", object)
FILES = web.RequestKey("files", list)
ARRIVED = web.RequestKey("arrived", float)


@dataclass
class RestCall:
    """One request the bot made. `route` is the template, e.g. `/channels/{channel_id}/messages`."""

    method: str
    path: str
    route: str
    json: Any
    files: list[UploadedFile]
    status: int = 0
    timestamp: float = field(default_factory=time.monotonic)

    def __repr__(self) -> str:
        return f"<RestCall {self.method} {self.path} -> {self.status}>"


def json_response(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes JSON when Content-Type is exactly "application/json" (no charset),
    # which web.json_response would add.
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def error_response(status: int, code: int, message: str) -> web.Response:
    return json_response({"message": message, "code": code}, status=status)


def too_many(retry_after: float, scope: str) -> web.Response:
    """Discord's 429: the wait in the body and in ``Retry-After``; ``Via`` marks it as Discord's own (discord.py
    takes a 429 without it for a Cloudflare ban and gives up)."""
    body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3), "global": scope == "global"}
    response = json_response({**body, "code": 0}, status=429)
    response.headers.update({"Retry-After": f"{retry_after:.3f}", "X-RateLimit-Scope": scope, "Via": "1.1 google"})
    if scope == "global":
        response.headers["X-RateLimit-Global"] = "true"
    return response


def _fault_response(fault: Fault) -> web.Response:
    if fault.kind == TOO_MANY:
        return too_many(fault.seconds, "user")
    return error_response(fault.status, 0, f"{fault.status}: Server Error")


def _major(request: web.Request) -> str:
    """A rate limit's major parameter: the channel, guild or webhook (token) a route acts on."""
    info = request.match_info
    return info.get("channel_id") or info.get("guild_id") or info.get("token") or info.get("app_id") or ""


class RestApi:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.world = fake.world
        self.log: list[RestCall] = []
        # Requests answered without being carried out (injected faults, 429s, bad auth).
        self.refused: list[RestCall] = []
        self.unknown_routes: list[str] = []
        # Messages created with ``enforce_nonce``: (channel, nonce) -> message id, for Discord's "created once".
        self.nonces: dict[tuple[int, str], int] = {}

    def install(self, app: web.Application) -> None:
        app.middlewares.append(self._middleware)
        r = app.router
        routes = [
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_gateway_bot),
            ("GET", "/users/@me", self.get_me),
            ("POST", "/users/@me/channels", self.create_dm),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/applications/{app_id}/commands", self.list_commands),
            ("PUT", "/applications/{app_id}/commands", self.overwrite_commands),
            ("POST", "/applications/{app_id}/commands", self.upsert_command),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", self.command_permissions),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.list_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.overwrite_commands),
            ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", self.upsert_command),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("POST", "/channels/{channel_id}/typing", self.no_content),
            ("POST", "/channels/{channel_id}/threads", self.create_thread),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}", self.add_thread_member),
            ("GET", "/channels/{channel_id}/messages", self.list_messages),
            ("POST", "/channels/{channel_id}/messages", self.create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self.get_guild_roles),
            ("GET", "/guilds/{guild_id}/members", self.list_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self.create_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get_webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.edit_webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.delete_webhook_message),
        ]
        for method, path, handler in routes:
            r.add_route(method, API + path, handler)
        r.add_get("/attachments/{attachment_id}/{filename}", self.download_attachment)
        # Registered last so it only catches what nothing above matched.
        r.add_route("*", "/{tail:.*}", self.unknown_route)

    # -- plumbing --------------------------------------------------------------------------------

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() == "websocket" or request.path.startswith("/attachments/"):
            return await handler(request)
        # When the request reached Discord: what its deadlines are measured against, however long it then takes.
        request[ARRIVED] = self.fake.clock.now()
        body, files = await _read_body(request)
        request[BODY], request[FILES] = body, files
        resource = request.match_info.route.resource
        template = resource.canonical.removeprefix(API) if resource is not None else request.path
        call = RestCall(request.method, request.path.removeprefix(API), template, body, files)
        headers: dict[str, str] = {}
        lost_answer: Fault | None = None
        try:
            fault = self.fake.faults.pick(request.method, template, call.path)
            if fault is not None and fault.kind == SLOW:
                await slow_down(fault)
            elif fault is not None and fault.kind == LOST_ANSWER:
                lost_answer = fault
            elif fault is not None:
                return self._refuse(call, _fault_response(fault))
            bot_auth = _needs_bot_auth(request.path)
            if bot_auth and request.headers.get("Authorization") != f"Bot {self.fake.token}":
                return self._refuse(call, error_response(401, 0, "401: Unauthorized"))
            if resource is not None and template != "/{tail}":
                verdict = self.fake.rate_limits.check(
                    request.method, template, _major(request), bot_auth, time.monotonic()
                )
                if verdict.retry_after > 0:
                    return self._refuse(call, too_many(verdict.retry_after, verdict.scope))
                headers = verdict.headers
            self.log.append(call)
            response: web.StreamResponse = await handler(request)
        except ApiError as exc:
            response = error_response(exc.status, exc.code, exc.message)
        call.status = response.status
        self.fake.notify_changed()
        if lost_answer is not None:  # carried out, but the answer never reached the bot
            return error_response(lost_answer.status, 0, f"{lost_answer.status}: Server Error")
        response.headers.update(headers)
        return response

    def _refuse(self, call: RestCall, response: web.Response) -> web.Response:
        """A request Discord did not carry out (a fault, a rate limit, bad auth): kept apart from ``log``."""
        call.status = response.status
        self.refused.append(call)
        self.fake.notify_changed()
        return response

    async def unknown_route(self, request: web.Request) -> web.Response:
        # Make gaps in the fake loud: the test log shows exactly what discord.py asked for.
        entry = f"{request.method} {request.path}"
        self.unknown_routes.append(entry)
        log.warning("fake discord: unknown route %s (body=%r)", entry, request.get(BODY))
        return error_response(404, 0, "404: Not Found")

    async def no_content(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    def _payload(self, message: Message) -> dict[str, Any]:
        return message.to_payload(self.fake.base_url)

    # -- gateway & identity ------------------------------------------------------------------------

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.fake.gateway_url})

    async def get_gateway_bot(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return json_response({"url": self.fake.gateway_url, "shards": 1, "session_start_limit": limit})

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response({**self.world.bot.to_payload(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def get_user(self, request: web.Request) -> web.Response:
        return json_response(self.world.get_user(request.match_info["user_id"]).to_payload())

    async def get_application(self, request: web.Request) -> web.Response:
        world = self.world
        return json_response(
            {
                "id": str(world.application_id),
                "name": world.bot.username,
                "description": "",
                "icon": None,
                "bot_public": False,
                "bot_require_code_grant": False,
                "owner": world.owner.to_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": world.bot.to_payload(),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
            }
        )

    # -- application commands ----------------------------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        guild_id = request.match_info.get("guild_id")
        if guild_id is not None:
            self.world.get_guild(guild_id)
        return int(guild_id) if guild_id else None

    async def list_commands(self, request: web.Request) -> web.Response:
        return json_response(list(self.world.command_scope(self._scope(request)).values()))

    async def overwrite_commands(self, request: web.Request) -> web.Response:
        return json_response(self.world.overwrite_commands(self._scope(request), request[BODY] or []))

    async def upsert_command(self, request: web.Request) -> web.Response:
        return json_response(self.world.upsert_command(self._scope(request), request[BODY]), status=201)

    async def command_permissions(self, request: web.Request) -> web.Response:
        return json_response([])

    # -- channels & messages -----------------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        return json_response(self.world.get_channel(request.match_info["channel_id"]).to_payload())

    async def create_thread(self, request: web.Request) -> web.Response:
        """A thread without a starting message (a private one, type 12, unless the body says otherwise)."""
        parent = self.world.get_channel(request.match_info["channel_id"])
        body = request[BODY] or {}
        thread = self.world.add_thread(parent, str(body.get("name", "thread")), int(body.get("type") or 12))
        return json_response(thread.to_payload())

    async def add_thread_member(self, request: web.Request) -> web.Response:
        thread = self.world.get_channel(request.match_info["channel_id"])
        thread.thread_members.add(self.world.get_user(request.match_info["user_id"]).id)
        return web.Response(status=204)

    async def create_dm(self, request: web.Request) -> web.Response:
        user = self.world.get_user(request[BODY]["recipient_id"])
        return json_response(self.world.dm_channel(user).to_payload())

    async def list_messages(self, request: web.Request) -> web.Response:
        channel = self.world.get_channel(request.match_info["channel_id"])
        limit = int(request.query.get("limit", 50))
        before = int(request.query.get("before", 0)) or None
        after = int(request.query.get("after", 0)) or None
        messages = [m for m in channel.visible_messages() if (before is None or m.id < before)]
        messages = [m for m in messages if after is None or m.id > after]
        # Newest first, like Discord.
        messages = sorted(messages, key=lambda m: m.id, reverse=True)
        if after is not None:
            messages = messages[-limit:]
        return json_response([self._payload(m) for m in messages[:limit]])

    async def create_message(self, request: web.Request) -> web.Response:
        channel = self.world.get_channel(request.match_info["channel_id"])
        if channel.is_dm and channel.recipient is not None and channel.recipient.dms_closed:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        body = dict(request[BODY] or {})
        body["flags"] = int(body.get("flags") or 0) & ~EPHEMERAL  # only interactions can be ephemeral
        # Discord: with enforce_nonce, a message by the same author with the same nonce (within a few minutes) is
        # returned instead of a new one being created (discord.py sends one with every ``send``).
        once = (channel.id, str(body["nonce"])) if body.get("enforce_nonce") and body.get("nonce") else None
        if once is not None and self.nonces.get(once) in self.world.messages:
            return json_response(self._payload(self.world.messages[self.nonces[once]]))
        message = self.world.create_message(channel, self.world.bot, body, request[FILES])
        if once is not None:
            self.nonces[once] = message.id
        await self.fake.dispatch_message("MESSAGE_CREATE", message)
        return json_response(self._payload(message))

    async def get_message(self, request: web.Request) -> web.Response:
        return json_response(self._payload(self._channel_message(request)))

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        if message.author is not self.world.bot and set(request[BODY] or {}) - {"flags"}:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        self.world.edit_message(message, request[BODY] or {}, request[FILES])
        await self.fake.dispatch_message("MESSAGE_UPDATE", message)
        return json_response(self._payload(message))

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._channel_message(request)
        self.world.delete_message(message)
        await self.fake.dispatch_message("MESSAGE_DELETE", message)
        return web.Response(status=204)

    def _channel_message(self, request: web.Request) -> Message:
        channel = self.world.get_channel(request.match_info["channel_id"])
        return self.world.get_message(channel, request.match_info["message_id"])

    async def download_attachment(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.world.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(body=attachment.data, content_type=attachment.content_type or None)
        return error_response(404, 0, "404: Not Found")

    # -- guilds ------------------------------------------------------------------------------------

    async def get_guild(self, request: web.Request) -> web.Response:
        payload = self.world.get_guild(request.match_info["guild_id"]).to_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key)  # GET /guilds/{id} doesn't include gateway-only fields
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild = self.world.get_guild(request.match_info["guild_id"])
        return json_response([c.to_payload() for c in guild.channels.values()])

    async def get_guild_roles(self, request: web.Request) -> web.Response:
        guild = self.world.get_guild(request.match_info["guild_id"])
        return json_response(guild.to_payload()["roles"])

    async def list_members(self, request: web.Request) -> web.Response:
        guild = self.world.get_guild(request.match_info["guild_id"])
        limit = int(request.query.get("limit", 1))
        after = int(request.query.get("after", 0))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return json_response([m.to_payload() for m in members[:limit]])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.world.get_guild(request.match_info["guild_id"])
        member = guild.members.get(int(request.match_info["user_id"]))
        if member is None:
            raise unknown("Member", 10007)
        return json_response(member.to_payload())

    # -- interactions --------------------------------------------------------------------------------

    def _interaction(self, token: str, interaction_id: str | None = None) -> InteractionResult:
        result = self.fake.interactions_by_token.get(token)
        if result is None or (interaction_id is not None and str(result.id) != interaction_id):
            raise unknown("interaction", 10062)
        return result

    def _webhook_interaction(self, request: web.Request) -> InteractionResult:
        """The interaction whose token a webhook route uses; refused (50027) once the token's 15 minutes are over."""
        result = self._interaction(request.match_info["token"])
        if request[ARRIVED] - result.created > TOKEN_SECONDS:
            self.fake.expired_tokens += 1
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return result

    async def interaction_callback(self, request: web.Request) -> web.Response:
        result = self._interaction(request.match_info["token"], request.match_info["interaction_id"])
        age = request[ARRIVED] - result.created
        deadline = self.fake.interaction_deadline
        if deadline is not None and result.callback_type is None and age > deadline * self.fake.deadline_slack:
            self.fake.expired_interactions += 1
            raise unknown("interaction", 10062)
        if result.callback_type is None:
            result.answered_after = age
        if result.callback_type is not None:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        body = request[BODY] or {}
        kind, data = int(body["type"]), body.get("data") or {}
        channel = self.world.get_channel(result.payload["channel_id"])
        resource: dict[str, Any] | None = None

        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = int(data.get("flags") or 0)
            if kind == DEFERRED_CHANNEL_MESSAGE:
                # A deferral shows "Bot is thinking..." until @original is edited.
                data = {"flags": flags & EPHEMERAL}
            result.message = self._interaction_message(result, channel, data, request[FILES])
            if kind == DEFERRED_CHANNEL_MESSAGE:
                result.message.flags |= LOADING
            await self.fake.dispatch_message("MESSAGE_CREATE", result.message)
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE):
            if result.source is None:
                raise ApiError(400, 50035, "Invalid Form Body: interaction has no message to update")
            result.message = result.source
            if kind == UPDATE_MESSAGE:
                self.world.edit_message(result.source, data, request[FILES])
                await self.fake.dispatch_message("MESSAGE_UPDATE", result.source)
        elif kind not in (PONG, AUTOCOMPLETE_RESULT, MODAL):
            raise ApiError(400, 50035, f"Invalid Form Body: unsupported callback type {kind}")

        result.callback_type, result.callback_data = kind, data
        if result.message is not None and kind != DEFERRED_UPDATE_MESSAGE:
            resource = {"type": kind, "message": self._payload(result.message)}
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        interaction = {
            "id": str(result.id),
            "type": result.type,
            "response_message_id": str(result.message.id) if result.message else None,
            "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(result.message and result.message.ephemeral),
        }
        return json_response(
            {"interaction": interaction, "resource": resource} if resource else {"interaction": interaction}
        )

    def _interaction_message(
        self, result: InteractionResult, channel: Channel, body: dict[str, Any], files: list[UploadedFile]
    ) -> Message:
        return self.world.create_message(
            channel,
            self.world.bot,
            body,
            files,
            interaction_id=result.id,
            webhook_id=self.world.application_id,
        )

    async def create_followup(self, request: web.Request) -> web.Response:
        result = self._webhook_interaction(request)
        if result.callback_type is None:
            raise unknown("Webhook", 10015)
        channel = self.world.get_channel(result.payload["channel_id"])
        message = self._interaction_message(result, channel, request[BODY] or {}, request[FILES])
        result.followups.append(message)
        await self.fake.dispatch_message("MESSAGE_CREATE", message)
        return json_response(self._payload(message))

    def _webhook_message(self, request: web.Request) -> tuple[InteractionResult, Message]:
        result = self._webhook_interaction(request)
        message_id = request.match_info["message_id"]
        if message_id == "@original":
            if result.message is None or result.message.deleted:
                raise unknown("Message", 10008)
            return result, result.message
        message = self.world.get_message(None, message_id)
        if message not in result.followups and message is not result.message:
            raise unknown("Message", 10008)
        return result, message

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        return json_response(self._payload(self._webhook_message(request)[1]))

    async def edit_webhook_message(self, request: web.Request) -> web.Response:
        result, message = self._webhook_message(request)
        self.world.edit_message(message, request[BODY] or {}, request[FILES])
        if message is result.message:
            result.original_edits += 1
        await self.fake.dispatch_message("MESSAGE_UPDATE", message)
        return json_response(self._payload(message))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        _result, message = self._webhook_message(request)
        self.world.delete_message(message)
        await self.fake.dispatch_message("MESSAGE_DELETE", message)
        return web.Response(status=204)


def _needs_bot_auth(path: str) -> bool:
    # Interaction callbacks and webhooks authenticate with the token in the URL instead.
    return not path.startswith((API + "/interactions/", API + "/webhooks/", API + "/gateway"))


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    if not request.can_read_body:
        return None, []
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                body = json.loads(await part.text())
            else:
                data = bytes(await part.read())
                ctype = part.headers.get("Content-Type")
                files.append(UploadedFile(part.name or "", part.filename or "", data, ctype))
        return body, files
    raw = await request.read()
    if not raw:
        return None, []
    return json.loads(raw), []
