"""How a failed request reaches the user: a refusal as its reason, ephemerally; anything else logged once and
answered with one generic message, never a traceback.

``on_app_command_error`` is the command tree's error handler (installed by the client), so slash commands need no
handling of their own.  Buttons and select menus are not app commands: their handlers use ``answering_errors``.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot.i18n import DEFAULT, speaking
from bot.i18n.catalogs import N_, _
from bot.i18n.refusals import refusal_text
from bot.presentation.choices import name_seats
from bot.presentation.deadline import undelivered
from bot.presentation.language import language_of
from bot.tables.presets import OptionsError
from bot.tables.service import Refusal

log = logging.getLogger(__name__)

OOPS = N_("Something went wrong on my side. Press **My hand** to see where the game stands.")


async def answer(interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    if interaction.response.is_done():
        await interaction.followup.send(content, ephemeral=True, **kwargs)
    else:
        await interaction.response.send_message(content, ephemeral=True, **kwargs)


def refusal_reason(error: BaseException, lang: str = DEFAULT) -> str | None:
    """What to tell the user when ``error`` is a refusal (the request cannot be done, and why); None for a fault.

    discord.py wraps what a command raises in ``CommandInvokeError`` and what a transformer raises in
    ``TransformerError``; a failed check (``app_commands.check``) carries its reason as its message."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    elif isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
        error = error.__cause__
    if isinstance(error, Refusal):
        text = refusal_text(error.msgid, error.fields, lang, error.seat_names)
        return name_seats(text, error.seat_names) if error.seat_names else text
    if isinstance(error, OptionsError):
        return refusal_text(error.msgid, error.fields, lang)
    if isinstance(error, app_commands.CheckFailure):  # our checks' reasons are message ids (N_)
        return refusal_text(str(error), {}, lang)
    return None


# Discord's answers when an interaction can no longer be answered: it expired (3 s for the first answer, 15 min for
# follow-ups) before the bot's answer reached it.
EXPIRED_CODES = {10062: "unknown interaction", 10015: "unknown webhook", 50027: "invalid webhook token"}


def expired(error: BaseException) -> discord.HTTPException | None:
    """The HTTP error saying that the interaction had expired, if that is what ``error`` is."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, discord.HTTPException) and error.code in EXPIRED_CODES:
        return error
    return None


def _what(interaction: discord.Interaction) -> Any:
    data: dict[str, Any] = dict(interaction.data or {})
    return interaction.command.qualified_name if interaction.command else data.get("custom_id")


async def saved_anyway(interaction: discord.Interaction, done: str, error: BaseException) -> None:
    """The player's move was made and saved, but answering them failed: say it is saved if Discord still lets us
    (never that it failed); their hand and the table show it either way."""
    fault = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if expired(fault) or undelivered(fault):
        log.warning("a saved move's answer did not reach the player (%s, %s): %s", _what(interaction), fault,
                    interaction.user)  # fmt: skip
    else:
        log.error("answering a saved move failed (%s)", _what(interaction), exc_info=fault)
    note = _("{done}\nYour move is saved. Press **My hand** to see your hand as it is now.", done=done)
    with contextlib.suppress(discord.HTTPException, TimeoutError, aiohttp.ClientError):
        await answer(interaction, note)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Answer the user about ``error``: the reason of a refusal, or the generic message for a fault (logged)."""
    late = expired(error)
    fault = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if late is None and undelivered(fault):  # Discord kept failing until the deadline: nobody left to answer
        log.warning("could not answer an interaction: Discord failed (%s): %s, %s", _what(interaction), fault,
                    interaction.user)  # fmt: skip
        return
    if late is not None:  # the bot was too slow (overloaded); nobody is left to answer and there is no bug to trace
        age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        data: dict[str, Any] = dict(interaction.data or {})
        command = interaction.command.qualified_name if interaction.command else data.get("custom_id")
        log.warning("interaction expired before it was answered (%s, %.1f s old, %s): %s", command, age,
                    EXPIRED_CODES[late.code], interaction.user)  # fmt: skip
        return
    lang = await language_of(interaction)
    reason = refusal_reason(error, lang)
    if reason is None:
        fault = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        command = interaction.command.qualified_name if interaction.command else None
        log.error("interaction failed (command %s): %s", command, interaction.data, exc_info=fault)
    with contextlib.suppress(discord.HTTPException), speaking(lang):  # the interaction may have expired meanwhile
        await answer(interaction, _(OOPS) if reason is None else f"⛔ {reason}")


async def on_app_command_error(interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
    """The command tree's handler: every slash command's refusals and faults end here."""
    await report(interaction, error)


@contextlib.asynccontextmanager
async def answering_errors(interaction: discord.Interaction) -> AsyncIterator[None]:
    """For component handlers, which the tree's handler does not cover: the same answers as for commands."""
    try:
        yield
    except Exception as error:
        await report(interaction, error)
