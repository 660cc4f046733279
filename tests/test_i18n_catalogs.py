"""The catalogues are complete and compiled, and the commands' translated names are ones Discord accepts.

CI runs this file: a message id without an entry in a language, an empty or fuzzy entry, or a ``.mo`` not compiled
from its ``.po`` fails here (``python -m bot.i18n check`` says the same by hand)."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from typing import Any

import discord
from discord.ext import commands

from bot.i18n import tools
from bot.i18n.catalogs import lookup, pseudo, translate
from bot.i18n.languages import from_locale, language_or_default
from bot.i18n.translator import CatalogTranslator
from bot.process.client import COGS


def test_every_message_id_has_an_entry_in_each_language():
    """Run as its own process: the tests register a toy game, which changes the commands' texts that list games."""
    done = subprocess.run([sys.executable, "-m", "bot.i18n", "check"], capture_output=True, text=True, cwd=tools.ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_discord_locales_map_to_the_languages_spoken():
    assert from_locale(discord.Locale.french) == "fr"
    assert from_locale(discord.Locale.chinese) == "zh"  # zh-CN, Simplified
    assert from_locale(discord.Locale.taiwan_chinese) is None  # Traditional needs its own words: English until then
    assert from_locale(discord.Locale.american_english) == "en"
    assert language_or_default(None, from_locale("de"), None) == "en"
    assert language_or_default("zh", "fr") == "zh"


def test_fields_are_filled_after_translation():
    assert translate("fr", "discard exactly {n} cards (you gave {given})", n=6, given=5) == (
        "écartez exactement 6 cartes (vous en avez donné 5)"
    )
    assert translate("en", "discard exactly {n} cards (you gave {given})", n=6, given=5) == (
        "discard exactly 6 cards (you gave 5)"
    )
    assert lookup("fr", "a text no catalogue has") is None


def test_the_pseudo_locale_keeps_fields_and_markup():
    text = pseudo("Press **My hand** to see {what} in <#123>")
    assert text.startswith("⟦") and text.endswith("⟧")
    assert "**" in text and "{what}" in text and "<#123>" in text and "hand" not in text


async def _payloads() -> list[dict[str, Any]]:
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for cog in COGS:
        await bot.load_extension(cog)
    translator = CatalogTranslator()
    return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree.get_commands()]


def _valid_name(name: str) -> bool:
    """Discord: 1-32 characters, letters (any script, lower case where the script has case), digits, - and _."""
    return (
        0 < len(name) <= 32
        and name == name.lower()
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
    )


def _check(item: dict[str, Any], siblings: dict[str, set[str]]) -> None:
    for locale, name in (item.get("name_localizations") or {}).items():
        assert _valid_name(name), (item["name"], locale, name)
        assert name not in siblings.setdefault(locale, set()), (item["name"], locale, name)
        siblings[locale].add(name)
    for locale, text in (item.get("description_localizations") or {}).items():
        assert 0 < len(text) <= 100, (item["name"], locale, text)
    for choice in item.get("choices") or []:
        for text in (choice.get("name_localizations") or {}).values():
            assert 0 < len(text) <= 100
    children: dict[str, set[str]] = {}
    for option in item.get("options") or []:
        _check(option, children)


async def test_translated_command_names_are_valid_and_distinct():
    payloads = await _payloads()
    top: dict[str, set[str]] = {}
    for payload in payloads:
        _check(payload, top)
    play = next(p for p in payloads if p["name"] == "play")
    assert play["name_localizations"] == {"fr": "jouer", "zh-CN": "出牌"}
    card = play["options"][0]
    assert card["name_localizations"] == {"fr": "carte", "zh-CN": "牌"}
