"""The fake gateway: one websocket endpoint speaking Discord's gateway v10 protocol (JSON encoding).

Sessions outlive connections so a client can RESUME and get the events it missed; a new
IDENTIFY (e.g. a restarted bot) starts a fresh session against the same world.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger(__name__)

# Opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT, REQUEST_MEMBERS = 0, 1, 2, 3, 6, 7, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11

# Intent bits the fake honours when deciding which events a session receives.
GUILD_MEMBERS = 1 << 1
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15

# discord.py only sends a heartbeat right after HELLO and then every interval; a long interval
# keeps the traffic log quiet during tests.
HEARTBEAT_INTERVAL_MS = 41250


class Connection:
    """One open websocket. Serialises sends (and the shared zlib stream, if negotiated)."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self._lock = asyncio.Lock()
        # zlib-stream: one compression context for the whole connection, each message ends with
        # a Z_SYNC_FLUSH (the 00 00 ff ff suffix discord.py looks for).
        self._zlib = zlib.compressobj() if compress else None

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload)
        async with self._lock:
            if self.ws.closed:
                return
            if self._zlib is None:
                await self.ws.send_str(text)
            else:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)


def shard_of(guild_id: int | None, shards: int) -> int:
    """Discord's routing: a guild's events go to shard ``(guild_id >> 22) % num_shards``; DMs to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shards


class Session:
    def __init__(self, intents: int, shard: tuple[int, int] = (0, 1)) -> None:
        self.id = secrets.token_hex(16)
        self.intents = intents
        self.shard = shard  # [shard_id, num_shards] as the client identified
        self.seq = 0
        # Every dispatch of this session, kept so a RESUME can replay what the client missed.
        self.sent: list[dict[str, Any]] = []
        self.connection: Connection | None = None

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        self.seq += 1
        payload = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.sent.append(payload)
        if self.connection is not None:
            await self.connection.send(payload)
        return self.seq


class Gateway:
    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, Session] = {}
        # The session of the most recent IDENTIFY: the bot that tests talk to.
        self.current: Session | None = None
        self.identify_count = 0
        self.resume_count = 0
        self.drops = 0
        self.down_until = 0.0  # while the loop's time is before this, connections are refused (see drop)
        self._connections: set[web.WebSocketResponse] = set()

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if asyncio.get_running_loop().time() < self.down_until:
            return web.Response(status=503, text="the gateway is down")
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._connections.add(ws)
        conn = Connection(ws, compress=request.query.get("compress") == "zlib-stream")
        session: Session | None = None
        try:
            await conn.send({"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    session = await self._on_message(conn, session, json.loads(msg.data)) or session
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._connections.discard(ws)
            if session is not None and session.connection is conn:
                session.connection = None
            self.fake.notify_changed()
        return ws

    async def _on_message(self, conn: Connection, session: Session | None, msg: dict[str, Any]) -> Session | None:
        op, data = msg.get("op"), msg.get("d")
        if op == HEARTBEAT:
            await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            return await self._identify(conn, data)
        elif op == RESUME:
            return await self._resume(conn, data)
        elif op == REQUEST_MEMBERS and session is not None:
            await self._send_member_chunk(session, data)
        elif op != PRESENCE:
            log.warning("fake gateway: unhandled opcode %s: %s", op, msg)
        return None

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        if data.get("token") != self.fake.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return None
        world = self.fake.world
        shard_id, shards = data.get("shard") or (0, 1)
        if not 0 <= shard_id < shards:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return None
        session = Session(intents=int(data.get("intents", 0)), shard=(shard_id, shards))
        guilds = [g for g in world.guilds.values() if shard_of(g.id, shards) == shard_id]
        session.connection = conn
        self.sessions[session.id] = session
        self.identify_count += 1
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**world.bot.to_payload(), "verified": True, "mfa_enabled": False, "flags": 0},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "resume_gateway_url": self.fake.gateway_url,
                "shard": [shard_id, shards],
                "application": {"id": str(world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
            },
        )
        for guild in guilds:
            payload = guild.to_payload()
            if not session.intents & GUILD_MEMBERS:
                # Without the privileged members intent Discord only includes the bot itself.
                payload["members"] = [m.to_payload() for m in guild.members.values() if m.user is world.bot]
            await session.dispatch("GUILD_CREATE", payload)
        self.current = session
        self.fake.notify_changed()
        return session

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> Session | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.fake.token:
            # d=false: not resumable, the client must IDENTIFY again.
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return None
        session.connection = conn
        last_seen = data.get("seq") or 0
        for payload in session.sent:
            if payload["s"] > last_seen:
                await conn.send(payload)
        await session.dispatch("RESUMED", {})
        self.resume_count += 1
        self.fake.notify_changed()
        return session

    async def _send_member_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.fake.world.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        chunk = {
            "guild_id": str(guild.id),
            "members": [m.to_payload() for m in guild.members.values()],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # -- used by FakeDiscord ------------------------------------------------------------------------

    def session_for(self, guild_id: int | None, *, connected: bool = True) -> Session:
        """The session whose shard the guild's events (a DM's: shard 0) go to; the latest such one.  With
        ``connected=False`` a session whose connection is down will do (Discord replays its events on RESUME)."""
        for session in reversed(list(self.sessions.values())):
            shard_id, shards = session.shard
            if (session.connection is not None or not connected) and shard_of(guild_id, shards) == shard_id:
                return session
        raise RuntimeError(f"no bot is connected on the shard of guild {guild_id}")

    def require_session(self, *, connected: bool = True) -> Session:
        session = self.current
        if session is None or (connected and session.connection is None):
            raise RuntimeError("no bot is connected to the fake gateway")
        return session

    async def drop(self, down_for: float) -> None:
        """Break the current session's connection, as a failing network does: close code 4000 ("unknown error"),
        after which discord.py reconnects and RESUMEs.  For ``down_for`` seconds new connections are turned away."""
        session = self.require_session()
        assert session.connection is not None
        self.down_until = asyncio.get_running_loop().time() + down_for
        ws, session.connection = session.connection.ws, None
        self.drops += 1
        await ws.close(code=4000, message=b"Unknown error")

    async def dispatch_message_event(self, event: str, data: dict[str, Any], *, dm: bool, from_bot: bool) -> None:
        """Send MESSAGE_* events the way Discord filters them by intents."""
        session = self.current
        if session is None:
            return
        needed = DIRECT_MESSAGES if dm else GUILD_MESSAGES
        if not session.intents & needed:
            return
        mentions_bot = f"<@{self.fake.world.bot.id}>" in data.get("content", "")
        if not (dm or from_bot or mentions_bot or session.intents & MESSAGE_CONTENT or event == "MESSAGE_DELETE"):
            # Without the privileged intent Discord blanks other users' guild message content.
            data = {**data, "content": "", "embeds": [], "attachments": [], "components": []}
        await session.dispatch(event, data)

    async def reconnect_request(self) -> None:
        """Ask the connected client to reconnect (op 7); it will RESUME the same session."""
        session = self.require_session()
        assert session.connection is not None
        await session.connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})

    async def close_all(self) -> None:
        for ws in list(self._connections):
            await ws.close(code=1001)
