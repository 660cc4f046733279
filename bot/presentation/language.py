"""Which language a player reads: the one they set (/player settings language), else their Discord client's locale
when the bot speaks it, else English.  A table's public messages are in the table's language instead (chosen at
/table new, else the server's setting, else the server's preferred locale).

Discord says a player's locale only with their interactions, and the live hands are sent without one, so each
player's language is remembered when they interact (every interaction, ``remember``), and stored with their settings
when it changes: after a restart their hand is in the language last heard (``table.extra["languages"]``, which the
table service fills from the store when the table starts or resumes).
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import discord

from bot.i18n import DEFAULT, LANGUAGES, current_language, from_locale, language_or_default, speaking

if TYPE_CHECKING:
    from bot.tables.service import Table

log = logging.getLogger(__name__)

_heard: dict[int, str] = {}  # user id -> the language they read, as last worked out


async def language_of(interaction: discord.Interaction[Any]) -> str:
    """The language to answer ``interaction``'s user in (remembered for their private messages)."""
    user_id = interaction.user.id
    _heard[user_id] = language_or_default(_heard.get(user_id), from_locale(interaction.locale))
    chosen: str | None = None
    manager = getattr(interaction.client, "manager", None)
    if manager is not None:
        try:
            settings = await manager.player_settings(user_id)
            chosen = settings.language
            heard = language_or_default(from_locale(interaction.locale))
            if settings.heard_language != heard:  # stored, for their hand after a restart
                await manager.hear_language(user_id, heard)
        except Exception:  # the store is closing or unreadable: the locale still says enough
            log.debug("could not read or store the language of %s", user_id, exc_info=True)
    lang = _heard[user_id] = language_or_default(chosen, from_locale(interaction.locale))
    return lang


async def remember(interaction: discord.Interaction[Any]) -> None:
    """Every interaction (a listener the client adds): note the user's language for what is sent to them later."""
    await language_of(interaction)


class SpeakingTree(discord.app_commands.CommandTree):
    """The command tree: each slash command (and autocomplete) runs speaking its user's language."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        current_language.set(await language_of(interaction))
        return True


def table_language_of(table: Table) -> str:
    return language_or_default(getattr(getattr(table, "row", None), "language", None))


def seat_language(table: Table, seat: int) -> str:
    """What a seat's player reads privately (their hand): their language when known, else the table's."""
    row = table.seats.get(seat)
    heard = _heard.get(row.user_id) if row is not None and row.user_id is not None else None
    return heard or table.extra.get("languages", {}).get(seat) or table_language_of(table)


def user_language(user_id: int, otherwise: str) -> str:
    """What a user reads privately when no interaction of theirs is being answered (a spectator's DM): their
    language when known, else ``otherwise``."""
    return _heard.get(user_id) or otherwise


P = ParamSpec("P")
R = TypeVar("R")


def in_table_language(function: Callable[P, R]) -> Callable[P, R]:
    """A builder of what a whole table sees (its first argument the table), in the table's language, whoever
    calls it."""
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def coroutine(*args: P.args, **kwargs: P.kwargs) -> Any:
            with speaking(table_language_of(args[0])):  # type: ignore[arg-type]
                return await function(*args, **kwargs)

        return coroutine  # type: ignore[return-value]

    @functools.wraps(function)
    def plain(*args: P.args, **kwargs: P.kwargs) -> R:
        with speaking(table_language_of(args[0])):  # type: ignore[arg-type]
            return function(*args, **kwargs)

    return plain


def in_seat_language(function: Callable[P, R]) -> Callable[P, R]:
    """A builder of what one seat's player sees (its arguments the table and the seat), in their language."""
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def coroutine(*args: P.args, **kwargs: P.kwargs) -> Any:
            with speaking(seat_language(args[0], args[1])):  # type: ignore[arg-type]
                return await function(*args, **kwargs)

        return coroutine  # type: ignore[return-value]

    @functools.wraps(function)
    def plain(*args: P.args, **kwargs: P.kwargs) -> R:
        with speaking(seat_language(args[0], args[1])):  # type: ignore[arg-type]
            return function(*args, **kwargs)

    return plain


def table_language(chosen: str | None, server: str | None, guild_locale: object) -> str:
    """A new table's language: the one chosen at /table new, else the server's setting, else the server's preferred
    locale when the bot speaks it, else English."""
    return language_or_default(chosen, server, from_locale(guild_locale))


def language_choices(*, default: bool = False) -> list[discord.app_commands.Choice[str]]:
    """The languages as a command option's choices, each named in its own words (and "default" to clear a setting)."""
    choices = [discord.app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()]
    return choices + [discord.app_commands.Choice(name="default", value="default")] if default else choices


__all__ = ["DEFAULT", "in_seat_language", "in_table_language", "language_of", "remember", "seat_language"]
