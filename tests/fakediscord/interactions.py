"""Interactions as a user's Discord client would create them, and what the bot answered."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .models import ALL_PERMISSIONS, Channel, Member, Message, Role, User, snowflake

if TYPE_CHECKING:
    from .server import FakeDiscord

# Interaction types.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

# Interaction callback types.
PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9

# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = range(1, 11)
ATTACHMENT = 11


class InteractionResult:
    """What the bot did with one interaction. `await result` waits for the initial callback.

    * `callback_type`: 4 message, 5 deferred, 6 deferred update, 7 update, 8 autocomplete, 9 modal.
    * `message`: the response message — the new one for 4/5, the clicked message for 6/7 —
      kept up to date by later edits of `@original`.
    * `followups`: messages sent through the interaction webhook afterwards.
    """

    def __init__(self, fake: FakeDiscord, payload: dict[str, Any], source: Message | None) -> None:
        self.fake = fake
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        # The message whose component was used (component interactions only).
        self.source = source
        self.callback_type: int | None = None
        self.callback_data: dict[str, Any] | None = None
        self.message: Message | None = None
        self.followups: list[Message] = []
        # Edits of the response (``@original``) made through this interaction's webhook: a deferral's answer.
        self.original_edits = 0
        # On Discord's clock (fake.clock): when the interaction was sent to the bot, and how long its first answer
        # took to reach Discord (None while unanswered).
        self.created = fake.clock.now()
        self.answered_after: float | None = None

    # -- waiting ---------------------------------------------------------------------------------

    def __await__(self):
        return self.wait().__await__()

    async def wait(self, timeout: float = 10.0) -> InteractionResult:
        """Wait until the bot acknowledged the interaction (any callback type)."""
        await self.fake.wait_until(
            lambda: self.callback_type is not None, timeout, f"a response to interaction {self.id}"
        )
        return self

    async def wait_for_answer(self, timeout: float = 10.0) -> InteractionResult:
        """Wait until the bot answered: its first response, and after a deferral the answer that follows it (an
        edit of the deferred response, or a follow-up) — what the user reads once the bot is done."""
        await self.wait(timeout)
        if self.deferred:
            await self.fake.wait_until(
                lambda: self.original_edits or self.followups, timeout, f"the answer deferred by {self.id}"
            )
        return self

    async def wait_for_followup(self, count: int = 1, timeout: float = 10.0) -> Message:
        """Wait until at least `count` follow-ups exist; returns the `count`-th one."""
        await self.wait(timeout)
        await self.fake.wait_until(
            lambda: len(self.followups) >= count, timeout, f"{count} follow-up(s) to interaction {self.id}"
        )
        return self.followups[count - 1]

    async def wait_for_message(self, timeout: float = 10.0) -> Message:
        """Wait for a response message with real content (a deferral must be edited first)."""
        await self.wait(timeout)
        await self.fake.wait_until(
            lambda: self.message is not None and not self.message.loading,
            timeout,
            f"a non-deferred response message to interaction {self.id}",
        )
        assert self.message is not None
        return self.message

    async def wait_for_edit(self, edits: int = 1, timeout: float = 10.0) -> Message:
        """Wait until the response message has been edited `edits` times in total."""
        await self.wait(timeout)
        await self.fake.wait_until(
            lambda: self.message is not None and len(self.message.edits) >= edits,
            timeout,
            f"{edits} edit(s) of the response to interaction {self.id}",
        )
        assert self.message is not None
        return self.message

    # -- convenient views of the response ---------------------------------------------------------

    @property
    def deferred(self) -> bool:
        return self.callback_type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)

    @property
    def ephemeral(self) -> bool:
        return self.message is not None and self.message.ephemeral

    @property
    def content(self) -> str | None:
        return self.message.content if self.message else None

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return self.message.embeds if self.message else []

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.message.components if self.message else []

    @property
    def attachments(self):
        return self.message.attachments if self.message else []

    @property
    def choices(self) -> list[dict[str, Any]]:
        """Autocomplete choices (callback type 8)."""
        if self.callback_type != AUTOCOMPLETE_RESULT or self.callback_data is None:
            return []
        return self.callback_data.get("choices", [])

    @property
    def modal(self) -> dict[str, Any] | None:
        """The modal the bot opened (callback type 9): custom_id, title, components."""
        return self.callback_data if self.callback_type == MODAL else None

    def __repr__(self) -> str:
        return f"<InteractionResult id={self.id} type={self.type} callback={self.callback_type}>"


def new_interaction_id_and_token() -> tuple[int, str]:
    return snowflake(), "fake-" + secrets.token_urlsafe(24)


def base_payload(
    fake: FakeDiscord, type_: int, user: User, channel: Channel, data: dict[str, Any] | None
) -> dict[str, Any]:
    interaction_id, token = new_interaction_id_and_token()
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(fake.world.application_id),
        "type": type_,
        "token": token,
        "version": 1,
        "channel_id": str(channel.id),
        "channel": channel.to_payload(),
        "locale": user.locale,
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(channel.guild.id) if channel.guild else "0"},
        "attachment_size_limit": 10 * 1024 * 1024,
    }
    if data is not None:
        payload["data"] = data
    if channel.guild is not None:
        member = channel.guild.members.get(user.id)
        if member is None:
            raise ValueError(f"{user.username} is not a member of guild {channel.guild.name}")
        payload["guild_id"] = str(channel.guild.id)
        payload["guild_locale"] = channel.guild.preferred_locale
        payload["guild"] = {"id": str(channel.guild.id), "locale": channel.guild.preferred_locale, "features": []}
        payload["member"] = member.to_payload(with_permissions=True)
        payload["app_permissions"] = str(ALL_PERMISSIONS)
        payload["context"] = 0
    else:
        payload["user"] = user.to_payload()
        payload["app_permissions"] = str(ALL_PERMISSIONS)
        payload["context"] = 1
    return payload


# -- application command data ---------------------------------------------------------------------


def command_data(
    fake: FakeDiscord,
    command: dict[str, Any],
    subcommand: str | None,
    options: Mapping[str, Any],
    focused: str | None = None,
) -> dict[str, Any]:
    """Build `data` for a chat input command, typing option values from the registered schema."""
    resolved: dict[str, dict[str, Any]] = {}
    schema = command.get("options") or []
    nested: list[dict[str, Any]] = []
    container = nested
    for part in subcommand.split() if subcommand else []:
        option = _find_option(schema, part, (SUB_COMMAND, SUB_COMMAND_GROUP))
        child: dict[str, Any] = {"name": part, "type": option["type"], "options": []}
        container.append(child)
        container = child["options"]
        schema = option.get("options") or []
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema):
        raise ValueError(f"command {command['name']!r} needs a subcommand, e.g. subcommand='...'")

    for name, value in options.items():
        option = _find_option(schema, name, None)
        if name == focused:  # autocomplete sends what the user typed so far, as text, even for a number option
            entry = {"name": name, "type": option["type"], "value": str(value), "focused": True}
        else:
            entry = {"name": name, "type": option["type"], "value": _option_value(fake, option, value, resolved)}
        if name != focused:
            _check_bounds(name, option, entry["value"])
        if name != focused and option.get("choices") and entry["value"] not in [c["value"] for c in option["choices"]]:
            # A Discord client only lets users pick one of the declared choices.
            raise ValueError(f"{value!r} is not a choice of option {name!r}: {option['choices']}")
        container.append(entry)

    if focused is None:
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in options]
        if missing:
            raise ValueError(f"missing required option(s) {missing} for command {command['name']!r}")

    data: dict[str, Any] = {
        "id": command["id"],
        "name": command["name"],
        "type": command.get("type", 1),
        "options": nested,
    }
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def _check_bounds(name: str, option: dict[str, Any], value: Any) -> None:
    """Discord refuses what the registered schema does not allow: a text too long or short, a number out of range."""
    if option["type"] == STRING:
        if len(value) > option.get("max_length", 6000) or len(value) < option.get("min_length", 0):
            raise ValueError(f"option {name!r}: Discord refuses a text of {len(value)} characters for {option}")
    elif option["type"] in (INTEGER, NUMBER):
        low, high = option.get("min_value", -(2**53)), option.get("max_value", 2**53)
        if not low <= value <= high:
            raise ValueError(f"option {name!r}: Discord refuses {value} outside {low}..{high}")


def _find_option(schema: list[dict[str, Any]], name: str, types: tuple[int, ...] | None) -> dict[str, Any]:
    for option in schema:
        if option["name"] == name and (types is None or option.get("type") in types):
            return option
    known = [o["name"] for o in schema]
    raise ValueError(f"no option {name!r} in the registered command; known options: {known}")


def _option_value(fake: FakeDiscord, option: dict[str, Any], value: Any, resolved: dict[str, Any]) -> Any:
    kind = option["type"]
    if kind == INTEGER:
        return int(value)
    if kind == NUMBER:
        return float(value)
    if kind == BOOLEAN:
        return bool(value)
    if kind == STRING:
        return str(value)
    if kind in (USER, MENTIONABLE) and isinstance(value, User | Member):
        user = value.user if isinstance(value, Member) else value
        resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
        for guild in fake.world.guilds.values():
            member = guild.members.get(user.id)
            if member is not None:
                resolved.setdefault("members", {})[str(user.id)] = member.to_payload(
                    with_user=False, with_permissions=True
                )
                break
        return str(user.id)
    if kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
        return str(value.id)
    if kind == CHANNEL and isinstance(value, Channel):
        resolved.setdefault("channels", {})[str(value.id)] = {
            **value.to_payload(),
            "permissions": str(ALL_PERMISSIONS),
        }
        return str(value.id)
    return value


def modal_submit_components(modal: dict[str, Any], values: Mapping[str, str]) -> list[dict[str, Any]]:
    """Mirror the modal's layout (action rows or labels) with the submitted text input values."""

    def submit(component: dict[str, Any]) -> dict[str, Any] | None:
        kind = component.get("type")
        if kind == 1:
            children = [c for c in (submit(x) for x in component.get("components", [])) if c is not None]
            return {"type": 1, "components": children}
        if kind == 18:
            inner = submit(component["component"])
            return {"type": 18, "component": inner} if inner is not None else None
        if "custom_id" in component:
            custom_id = component["custom_id"]
            if kind == 4:
                return {"type": 4, "custom_id": custom_id, "value": values.get(custom_id, "")}
            return {"type": kind, "custom_id": custom_id, "values": list(values.get(custom_id, []))}
        return None

    out = [submit(c) for c in modal.get("components", [])]
    return [c for c in out if c is not None]
