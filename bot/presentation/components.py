"""Buttons and select menus whose custom ids carry everything needed to handle them, so they keep working after
a restart (discord.py ``DynamicItem``) and cost no memory per message.

Custom ids: ``ct:<table>:<verb>[:<version>[:<argument>]]`` for buttons and ``cs:...`` for select menus.  The
version is the table's action count when the component was shown; acting on an out-of-date one is refused.
Handling is the Tables cog's job (its ``on_table_component`` listener): these classes only parse and hand on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord

from bot.i18n import current_language
from bot.presentation.language import language_of

# Table numbers and versions are bounded (18 and 9 digits, far beyond any real one) so that an id the bot never issued
# (an older format, a modified client) cannot carry a number too big for the store; it then matches nothing and gets
# the short refusal of bot/presentation/unknown_components.py.
_TEMPLATE = r"(?P<table>\d{1,18}):(?P<verb>[a-z_]+)(?::(?P<version>\d{1,9}))?(?::(?P<arg>.{0,90}))?"
CUSTOM_ID_LIMIT = 100


@dataclass(frozen=True)
class ComponentId:
    table: int
    verb: str
    version: int | None = None
    arg: str | None = None

    def render(self, prefix: str) -> str:
        text = f"{prefix}:{self.table}:{self.verb}"
        if self.version is not None or self.arg is not None:
            text += f":{self.version if self.version is not None else 0}"
        if self.arg is not None:
            text += f":{self.arg}"
        if len(text) > CUSTOM_ID_LIMIT:
            raise ValueError(f"custom id too long: {text}")
        return text

    @classmethod
    def from_match(cls, match: re.Match[str]) -> ComponentId:
        version = match["version"]
        return cls(int(match["table"]), match["verb"], int(version) if version is not None else None, match["arg"])


async def _hand_on(interaction: discord.Interaction, cid: ComponentId, values: list[str]) -> None:
    forwarder = getattr(interaction.client, "forwarder", None)  # a DM tap for a table another process owns
    if forwarder is not None and await forwarder.forwarded(interaction, cid):  # (bot/presentation/forwarding.py)
        return
    # An event, so presentation names no cog: the Tables cog listens for it (none does while shutting down).  Its
    # handler's task inherits this context: it answers in the clicking player's language.
    current_language.set(await language_of(interaction))
    interaction.client.dispatch("table_component", interaction, cid, values)


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"ct:" + _TEMPLATE):
    def __init__(
        self,
        cid: ComponentId,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        *,
        row: int | None = None,
        disabled: bool = False,
        emoji: str | None = None,
    ):
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=cid.render("ct"), disabled=disabled, emoji=emoji),
            row=row,
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        return cls(ComponentId.from_match(match), item.label or "", item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _hand_on(interaction, self.cid, [])


class TableSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"cs:" + _TEMPLATE):
    def __init__(
        self,
        cid: ComponentId,
        options: list[discord.SelectOption],
        placeholder: str,
        *,
        min_values: int = 1,
        max_values: int = 1,
        row: int | None = None,
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=cid.render("cs"),
                options=options,
                placeholder=placeholder[:150],
                min_values=min_values,
                max_values=max_values,
            ),
            row=row,
        )
        self.cid = cid

    @classmethod
    async def from_custom_id(cls, interaction, item, match, /):
        select = cls(
            ComponentId.from_match(match),
            list(item.options),
            item.placeholder or "",
            min_values=item.min_values,
            max_values=item.max_values,
        )
        return select

    async def callback(self, interaction: discord.Interaction) -> None:
        await _hand_on(interaction, self.cid, list(self.item.values))


def view_of(*items: discord.ui.Item) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view
