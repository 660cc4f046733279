"""A click, a menu choice or a form the bot never issued still gets an answer: a short refusal, never silence.

Every component the bot shows is a discord.py ``DynamicItem`` whose custom id carries all it needs (tables, rules
pages, leaderboards).  discord.py drops an interaction whose custom id matches none of their templates without a
word, and Discord then tells the player "This interaction failed".  Such ids come from a message of an older version
of the bot, or from a modified client; ``answer_unknown`` (the client's ``on_interaction`` listener) answers them.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterable

import aiohttp
import discord

from bot.i18n import N_, translate
from bot.presentation.language import language_of

log = logging.getLogger(__name__)

NOT_OURS = N_("That button or menu is not one I understand (it may belong to an older message). Press **My hand** "
              "or use /table list to find your table.")  # fmt: skip
COMPONENT, MODAL_SUBMIT = 3, 5


def is_known(custom_id: str, templates: Iterable[re.Pattern[str]]) -> bool:
    return any(template.fullmatch(custom_id) for template in templates)


def on_message(interaction: discord.Interaction, custom_id: str) -> bool:
    """Whether the clicked message carries a component with this id: discord.py drops the click silently if not."""
    if interaction.message is None:
        return False
    rows: list[discord.Component] = list(interaction.message.components)
    while rows:
        component = rows.pop()
        rows += list(getattr(component, "children", ()))
        if getattr(component, "custom_id", None) == custom_id:
            return True
    return False


async def answer_unknown(interaction: discord.Interaction, templates: Iterable[re.Pattern[str]]) -> bool:
    """Refuse a component or form interaction that no template of the bot's components matches; whether it did."""
    if interaction.type.value not in (COMPONENT, MODAL_SUBMIT):
        return False
    data: dict[str, object] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    shown = interaction.type.value == MODAL_SUBMIT or on_message(interaction, custom_id)
    if shown and is_known(custom_id, templates):
        return False
    log.info("a component the bot did not issue: %r from %s", custom_id[:100], interaction.user)
    # It may have expired meanwhile, or Discord failed: nothing else to do.
    lang = await language_of(interaction)
    with contextlib.suppress(discord.HTTPException, TimeoutError, aiohttp.ClientError):
        await interaction.response.send_message(f"⛔ {translate(lang, NOT_OURS)}", ephemeral=True)
    return True
