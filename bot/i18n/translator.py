"""discord.py's ``app_commands.Translator`` over the gettext catalogues: command, group, option and choice names and
descriptions get each language's words when the tree syncs.  The catalogue entries carry the place as their gettext
context (``command_name``, ``parameter_description``…), so that a command named "pass" and the button "Pass" can be
translated differently."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.i18n.catalogs import lookup
from bot.i18n.languages import DEFAULT, from_locale

Context = app_commands.TranslationContext[Any, Any]


class CatalogTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        lang = from_locale(locale)
        if lang is None or lang == DEFAULT:
            return None  # Discord shows the English text
        return lookup(lang, string.message, context.location.name)


class Recorder(app_commands.Translator):
    """Collects every text the tree would ask to translate, with its place (for extraction and the checks)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, str], None] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext[Any, Any],
    ) -> str | None:
        self.seen.setdefault((context.location.name, string.message))
        return None


async def command_texts(tree: app_commands.CommandTree[Any]) -> list[tuple[str, str]]:
    """(context, English text) of every name, description and choice of ``tree``'s commands, in tree order."""
    recorder = Recorder()
    for command in tree.get_commands():
        await command.get_translated_payload(tree, recorder)
    return list(recorder.seen)
