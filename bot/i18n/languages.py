"""The languages the bot speaks, and which one a Discord locale means.

A language is a gettext catalogue under ``bot/i18n/locale/<code>/``; English is the source language (the message ids
are the English texts) and needs no catalogue.  Traditional Chinese would be its own language (zh_Hant) with its own
words, not a conversion of the Simplified catalogue, so Discord's ``zh-TW`` falls back to English until it exists.
"""

from __future__ import annotations

DEFAULT = "en"
# Each language's name in its own words: what a player picks from in /player settings and /table new.
LANGUAGES: dict[str, str] = {"en": "English", "fr": "Français", "zh": "简体中文"}
# Discord's locale codes (discord.Locale values) that each language serves.
_DISCORD_LOCALES: dict[str, str] = {"en-US": "en", "en-GB": "en", "fr": "fr", "zh-CN": "zh"}
# Not offered to players: every message wrapped in brackets with accented letters, so that a test can see which
# user-visible words escaped translation (tests/test_i18n_pseudo.py).
PSEUDO = "pseudo"


def from_locale(locale: object) -> str | None:
    """The language a Discord locale (``discord.Locale`` or its code) asks for; None when the bot does not speak it."""
    code = getattr(locale, "value", locale)
    if not isinstance(code, str):
        return None
    if code in LANGUAGES or code == PSEUDO:
        return code
    return _DISCORD_LOCALES.get(code)


def language_or_default(*choices: str | None) -> str:
    """The first language given that the bot speaks (a player's setting, then their locale, …), else English."""
    for choice in choices:
        if choice is not None and (choice in LANGUAGES or choice == PSEUDO):
            return choice
    return DEFAULT
