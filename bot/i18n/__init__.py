"""The bot's languages: gettext catalogues (``locale/<lang>/LC_MESSAGES/cardtable.po``, managed with Babel through
``python -m bot.i18n``), who sees which language, and discord.py's ``app_commands.Translator`` for the slash
commands.  How to add a language: docs/languages.md."""

from bot.i18n.catalogs import N_, _, current_language, ngettext, speaking, translate
from bot.i18n.languages import DEFAULT, LANGUAGES, from_locale, language_or_default

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "_",
    "current_language",
    "from_locale",
    "language_or_default",
    "ngettext",
    "speaking",
    "translate",
]
