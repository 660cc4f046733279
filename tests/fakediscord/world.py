"""The state a FakeDiscord keeps across bot restarts: entities, messages and registered commands."""

from __future__ import annotations

import copy
import re
import time
from dataclasses import dataclass, field
from typing import Any

from .models import (
    DM,
    EPHEMERAL,
    LOADING,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    iso_now,
    json_copy,
    snowflake,
)

# Message flags a sender may set; Discord ignores the others (SUPPRESS_EMBEDS, EPHEMERAL,
# SUPPRESS_NOTIFICATIONS, IS_COMPONENTS_V2).
_SETTABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)


@dataclass
class UploadedFile:
    """A file part of a multipart/form-data request, e.g. `files[0]`."""

    field: str
    filename: str
    data: bytes
    content_type: str | None


class ApiError(Exception):
    """Raised by world operations; turned into a Discord-shaped JSON error response."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def unknown(kind: str, code: int) -> ApiError:
    return ApiError(404, code, f"Unknown {kind}")


@dataclass
class Notification:
    """A user notified of a new message: a DM's recipient, or a user its content mentions (when its
    ``allowed_mentions`` allow it).  Editing a message never notifies; an ephemeral message notifies nobody."""

    user: User
    message: Message
    at: float = field(default_factory=time.monotonic)


_MENTION = re.compile(r"<@!?(\d+)>")


def notified(channel: Channel, author: User, message: Message, body: dict[str, Any]) -> list[User]:
    """Whom a new message notifies, as Discord decides it (an edit is never passed here)."""
    if message.ephemeral:
        return []
    if channel.is_dm:
        return [channel.recipient] if channel.recipient is not None and channel.recipient is not author else []
    mentioned = [int(i) for i in _MENTION.findall(message.content)]
    allowed = body.get("allowed_mentions")
    if allowed is not None and "users" not in (allowed.get("parse") or []):
        permitted = {int(i) for i in allowed.get("users") or []}
        mentioned = [i for i in mentioned if i in permitted]
    members = channel.guild.members if channel.guild is not None else {}
    seen: list[User] = []
    for user_id in mentioned:
        member = members.get(user_id)
        if member is not None and member.user is not author and member.user not in seen:
            seen.append(member.user)
    return seen


class World:
    def __init__(self, bot: User, application_id: int, owner: User) -> None:
        self.bot = bot
        self.application_id = application_id
        self.owner = owner
        self.users: dict[int, User] = {bot.id: bot, owner.id: owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.notifications: list[Notification] = []
        # Bumped on every message create/edit/delete (see Message.revision).
        self.revision = 0
        self._dm_by_user: dict[int, Channel] = {}
        # Registered application commands: key None = global, else guild id -> name/type -> payload.
        self.commands: dict[int | None, dict[tuple[str, int], dict[str, Any]]] = {None: {}}

    # -- entities -------------------------------------------------------------------------------

    def add_user(self, username: str, *, dms_closed: bool = False, bot: bool = False) -> User:
        user = User(id=snowflake(), username=username, dms_closed=dms_closed, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(self, name: str, *, owner: User | None = None) -> Guild:
        guild_id = snowflake()
        # The @everyone role shares the guild's id. Default perms: view, send, read history, use commands.
        everyone = Role(id=guild_id, name="@everyone", permissions=(1 << 10) | (1 << 11) | (1 << 16) | (1 << 31))
        guild = Guild(id=guild_id, name=name, owner_id=(owner or self.owner).id, everyone=everyone)
        self.guilds[guild.id] = guild
        self.add_member(guild, self.bot)
        if owner is not None:
            self.add_member(guild, owner)
        return guild

    def add_text_channel(self, guild: Guild, name: str) -> Channel:
        channel = Channel(id=snowflake(), name=name, guild=guild, position=len(guild.channels))
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, parent: Channel, name: str, type: int) -> Channel:
        """A thread under ``parent`` (type 11 public, 12 private); found by id like any channel."""
        thread = Channel(id=snowflake(), name=name, type=type, guild=parent.guild, parent=parent)
        self.channels[thread.id] = thread
        return thread

    def add_member(self, guild: Guild, user: User, *, permissions: int = 0, nick: str | None = None) -> Member:
        member = Member(user=user, guild=guild, permissions=permissions, nick=nick)
        guild.members[user.id] = member
        return member

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        role = Role(id=snowflake(), name=name, permissions=permissions, position=len(guild.roles) + 1)
        guild.roles[role.id] = role
        return role

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and `user` (created on first use, like Discord)."""
        channel = self._dm_by_user.get(user.id)
        if channel is None:
            channel = Channel(id=snowflake(), name="", type=DM, recipient=user)
            self._dm_by_user[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def get_user(self, user_id: int | str) -> User:
        try:
            return self.users[int(user_id)]
        except (KeyError, ValueError):
            raise unknown("User", 10013) from None

    def get_guild(self, guild_id: int | str) -> Guild:
        try:
            return self.guilds[int(guild_id)]
        except (KeyError, ValueError):
            raise unknown("Guild", 10004) from None

    def get_channel(self, channel_id: int | str) -> Channel:
        try:
            return self.channels[int(channel_id)]
        except (KeyError, ValueError):
            raise unknown("Channel", 10003) from None

    def get_message(self, channel: Channel | None, message_id: int | str) -> Message:
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or (channel is not None and message.channel is not channel):
            raise unknown("Message", 10008)
        return message

    # -- messages -------------------------------------------------------------------------------

    def create_message(
        self,
        channel: Channel,
        author: User,
        body: dict[str, Any] | None = None,
        files: list[UploadedFile] | None = None,
        **extra: Any,
    ) -> Message:
        message = Message(id=snowflake(), channel=channel, author=author, **extra)
        apply_message_body(message, body or {}, files or [], creating=True)
        for user in notified(channel, author, message, body or {}):
            self.notifications.append(Notification(user, message))
        channel.messages.append(message)
        self.messages[message.id] = message
        self._touch(message)
        return message

    def _touch(self, message: Message) -> None:
        self.revision += 1
        message.revision = self.revision

    def edit_message(self, message: Message, body: dict[str, Any], files: list[UploadedFile]) -> None:
        message.edits.append(message.snapshot())
        apply_message_body(message, body, files, creating=False)
        # Editing a deferred ("Bot is thinking...") response replaces the loading state.
        message.flags &= ~LOADING
        message.edited_timestamp = iso_now()
        self._touch(message)

    def delete_message(self, message: Message) -> None:
        message.deleted = True
        self._touch(message)

    # -- application commands -------------------------------------------------------------------

    def command_scope(self, guild_id: int | None) -> dict[tuple[str, int], dict[str, Any]]:
        return self.commands.setdefault(guild_id, {})

    def upsert_command(self, guild_id: int | None, body: dict[str, Any]) -> dict[str, Any]:
        scope = self.command_scope(guild_id)
        key = (body["name"], int(body.get("type", 1)))
        previous = scope.get(key)
        # Like Discord, re-registering a command with the same name keeps its id.
        command = {
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            "options": [],
            "description": "",
            **copy.deepcopy(body),
            "id": previous["id"] if previous else str(snowflake()),
            "application_id": str(self.application_id),
            "version": str(snowflake()),
            "type": key[1],
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        scope[key] = command
        return command

    def overwrite_commands(self, guild_id: int | None, bodies: list[dict[str, Any]]) -> list[dict[str, Any]]:
        old = self.command_scope(guild_id)
        kept = {key: cmd for key, cmd in old.items() if key in {(b["name"], int(b.get("type", 1))) for b in bodies}}
        self.commands[guild_id] = kept
        return [self.upsert_command(guild_id, body) for body in bodies]

    def find_command(self, guild: Guild | None, name: str, type_: int = 1) -> dict[str, Any]:
        """Resolve a command the way a Discord client shows it: guild commands win over global ones."""
        if guild is not None:
            command = self.command_scope(guild.id).get((name, type_))
            if command is not None:
                return command
        command = self.command_scope(None).get((name, type_))
        if command is None:
            registered = sorted(
                f"{n} (guild {g})" if g else n for g, scope in self.commands.items() for (n, _t) in scope
            )
            raise LookupError(f"command {name!r} is not registered with Discord; registered: {registered}")
        return command


def apply_message_body(message: Message, body: dict[str, Any], files: list[UploadedFile], *, creating: bool) -> None:
    """Apply a create/edit JSON body (the shape discord.py sends) to a stored message."""
    if "content" in body:
        message.content = body["content"] or ""
    if "embeds" in body:
        message.embeds = json_copy(body["embeds"] or [])
    if "components" in body:
        message.components = json_copy(body["components"] or [])
    if "flags" in body and body["flags"] is not None:
        keep = message.flags & ~_SETTABLE_FLAGS
        if not creating:
            # Ephemeral-ness is fixed at creation time; an edit can't toggle it.
            keep |= message.flags & EPHEMERAL
        message.flags = keep | (int(body["flags"]) & _SETTABLE_FLAGS)
    if "message_reference" in body:
        message.message_reference = body["message_reference"]

    uploads = {}
    for upload in files:
        # discord.py names parts `files[<index>]`; the index matches the attachment's `id` in the JSON.
        index = upload.field.removeprefix("files[").removesuffix("]")
        uploads[index] = upload

    if "attachments" in body and body["attachments"] is not None:
        existing = {str(a.id): a for a in message.attachments}
        attachments: list[Attachment] = []
        for entry in body["attachments"]:
            key = str(entry.get("id"))
            if key in uploads:
                upload = uploads.pop(key)
                attachments.append(_attachment(upload, entry))
            elif key in existing:
                attachments.append(existing[key])
        message.attachments = attachments
    # Files without an `attachments` entry are still attached (old-style uploads).
    message.attachments.extend(_attachment(upload, {}) for upload in uploads.values())


def _attachment(upload: UploadedFile, entry: dict[str, Any]) -> Attachment:
    return Attachment(
        id=snowflake(),
        filename=entry.get("filename") or upload.filename,
        data=upload.data,
        content_type=upload.content_type,
        description=entry.get("description"),
    )
