"""The fake Discord "world": users, guilds, channels, members and messages.

Each model knows how to render itself as the JSON payload Discord would send, so the REST
handlers and the gateway share one source of truth.
"""

from __future__ import annotations

import copy
import datetime as dt
import itertools
from dataclasses import dataclass, field
from typing import Any

# Discord snowflakes encode a millisecond timestamp since the Discord epoch in the top bits.
# discord.py derives `created_at` from them, so keep them plausible and strictly increasing.
_DISCORD_EPOCH_MS = 1420070400000
_counter = itertools.count(1)


def snowflake() -> int:
    now_ms = int(dt.datetime.now(dt.UTC).timestamp() * 1000)
    return ((now_ms - _DISCORD_EPOCH_MS) << 22) | (next(_counter) & 0x3FFFFF)


def iso_now() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


# Channel types (subset).
GUILD_TEXT = 0
DM = 1

# Message flags.
EPHEMERAL = 1 << 6
LOADING = 1 << 7

# Everything a guild member could hold; used for administrators and the bot's app_permissions.
ALL_PERMISSIONS = (1 << 53) - 1


@dataclass(eq=False)
class User:
    id: int
    username: str
    bot: bool = False
    # When True, the bot may not open/send to a DM with this user (Discord error 50007).
    dms_closed: bool = False
    global_name: str | None = None
    locale: str = "en-US"  # the Discord client's language, sent with each interaction

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "global_name": self.global_name or self.username,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class Member:
    user: User
    guild: Guild
    # Extra permission bits granted to this member on top of @everyone (e.g. manage_guild).
    permissions: int = 0
    nick: str | None = None
    roles: list[Role] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    def computed_permissions(self) -> int:
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        perms = self.guild.everyone.permissions | self.permissions
        for role in self.roles:
            perms |= role.permissions
        if perms & (1 << 3):  # administrator implies everything
            return ALL_PERMISSIONS
        return perms

    def to_payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "nick": self.nick,
            "avatar": None,
            "roles": [str(role.id) for role in self.roles],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            payload["user"] = self.user.to_payload()
        if with_permissions:
            payload["permissions"] = str(self.computed_permissions())
        return payload


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    def to_payload(self, base_url: str) -> dict[str, Any]:
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            payload["content_type"] = self.content_type
        if self.description:
            payload["description"] = self.description
        return payload


def json_copy(value: Any) -> Any:
    """An independent copy of JSON data (dicts, lists and scalars), as ``copy.deepcopy`` makes it but several times
    faster: the fake copies every message's components on each edit, answer and gateway event, which made the
    benchmark's fake Discord its own bottleneck (bench/bench_bot.py).  Anything else is deep-copied."""
    kind = type(value)
    if kind is dict:
        return {k: json_copy(v) for k, v in value.items()}
    if kind is list:
        return [json_copy(v) for v in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    return copy.deepcopy(value)


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    # Set when the message was produced through an interaction response / webhook follow-up.
    interaction_id: int | None = None
    webhook_id: int | None = None
    message_reference: dict[str, Any] | None = None
    deleted: bool = False
    # World revision of the last create/edit/delete; lets tests wait for changes after a mark.
    revision: int = 0
    # Snapshots (as `snapshot()` dicts) of every previous version, oldest first.
    edits: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def custom_ids(self) -> list[str]:
        """Every custom_id found in this message's components (buttons, selects...)."""
        found: list[str] = []

        def walk(node: Any) -> None:
            if isinstance(node, dict):
                if "custom_id" in node:
                    found.append(node["custom_id"])
                for value in node.values():
                    walk(value)
            elif isinstance(node, list):
                for value in node:
                    walk(value)

        walk(self.components)
        return found

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        def walk(node: Any) -> dict[str, Any] | None:
            if isinstance(node, dict):
                if node.get("custom_id") == custom_id:
                    return node
                children = list(node.values())
            elif isinstance(node, list):
                children = node
            else:
                return None
            for child in children:
                hit = walk(child)
                if hit is not None:
                    return hit
            return None

        return walk(self.components)

    def snapshot(self) -> dict[str, Any]:
        """This version of the message, for its history (``edits``).  Its embeds and components are shared: an
        edit replaces them (``apply_message_body``) rather than changing them in place."""
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "edited_timestamp": self.edited_timestamp,
        }

    def to_payload(self, base_url: str) -> dict[str, Any]:
        """The message as Discord's API shows it.  Its embeds and components are shared, not copied: a payload is
        serialised (a REST answer, a gateway event) or kept as sent, and the fake never changes a message's
        components in place (an edit replaces them with a copy of the body: ``apply_message_body``)."""
        payload: dict[str, Any] = {
            "id": str(self.id),
            "type": 20 if self.interaction_id else 0,
            "channel_id": str(self.channel.id),
            "author": self.author.to_payload(),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_payload(base_url) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.channel.guild is not None:
            payload["guild_id"] = str(self.channel.guild.id)
            member = self.channel.guild.members.get(self.author.id)
            if member is not None:
                payload["member"] = member.to_payload(with_user=False)
        if self.webhook_id is not None:
            payload["webhook_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            payload["message_reference"] = self.message_reference
        return payload


@dataclass(eq=False)
class Channel:
    id: int
    name: str
    type: int = GUILD_TEXT
    guild: Guild | None = None
    # For DM channels: the human on the other side.
    recipient: User | None = None
    position: int = 0
    messages: list[Message] = field(default_factory=list)
    # Threads: the channel they hang off, and (a private thread) who was added to it.
    parent: Channel | None = None
    thread_members: set[int] = field(default_factory=set)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def visible_messages(self, *, include_ephemeral: bool = False) -> list[Message]:
        return [m for m in self.messages if not m.deleted and (include_ephemeral or not m.ephemeral)]

    def to_payload(self) -> dict[str, Any]:
        last = self.messages[-1].id if self.messages else None
        payload: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "last_message_id": str(last) if last else None,
        }
        if self.is_dm:
            payload["recipients"] = [self.recipient.to_payload()] if self.recipient else []
            return payload
        assert self.guild is not None
        payload.update(
            {
                "guild_id": str(self.guild.id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [],
                "parent_id": str(self.parent.id) if self.parent else None,
                "nsfw": False,
                "topic": None,
                "rate_limit_per_user": 0,
            }
        )
        if self.parent is not None:
            payload["owner_id"] = "0"
            payload["member_count"] = len(self.thread_members)
            payload["message_count"] = len(self.messages)
            payload["thread_metadata"] = {
                "archived": False, "auto_archive_duration": 10080, "locked": False, "invitable": False,
                "archive_timestamp": "2026-01-01T00:00:00+00:00",
            }  # fmt: skip
        return payload


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    everyone: Role
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    roles: dict[int, Role] = field(default_factory=dict)
    preferred_locale: str = "en-US"

    def to_payload(self) -> dict[str, Any]:
        """The GUILD_CREATE / GET /guilds/{id} shape (channels and members included)."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [self.everyone.to_payload()] + [r.to_payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "large": False,
            "unavailable": False,
            # member_count == len(members) makes discord.py consider the guild fully chunked.
            "member_count": len(self.members),
            "joined_at": iso_now(),
            "members": [m.to_payload() for m in self.members.values()],
            "channels": [c.to_payload() for c in self.channels.values()],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
