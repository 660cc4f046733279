"""Translated texts from the compiled gettext catalogues.

The message ids are the English texts, with ``{name}`` fields filled after translation, so a translator sees the
whole sentence and may move its fields.  ``_("…", **fields)`` speaks the *current* language, a context variable that
the code answering a player or writing to a table sets with ``speaking(lang)``: strings are wrapped where they
stand, without threading a language argument through every function.  ``N_`` marks a text for extraction whose
translation happens later (a module-level constant).  The catalogues (``locale/<lang>/LC_MESSAGES/cardtable.mo``)
are compiled from the ``.po`` files by ``python -m bot.i18n compile`` and committed; tests/test_i18n_catalogs.py
checks that they match their sources and that no entry is missing or fuzzy.
"""

from __future__ import annotations

import contextlib
import gettext
import re
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from bot.i18n.languages import DEFAULT, LANGUAGES, PSEUDO

DOMAIN = "cardtable"
LOCALE_DIR = Path(__file__).parent / "locale"

current_language: ContextVar[str] = ContextVar("current_language", default=DEFAULT)


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    if lang == DEFAULT or lang not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


_FIELD = re.compile(r"(\{[^{}]*\}|\*\*|`[^`]*`|<[^>]*>|\\n)")
_ACCENTED = str.maketrans("aeiouycnAEIOUYCN", "áéîõüýçñÅÉÎÕÜÝÇÑ")


def pseudo(text: str) -> str:
    """The pseudo-locale's form of a text: letters accented and the whole in brackets; fields, markup and mentions
    left as they are, so the result still formats and renders."""
    parts = _FIELD.split(text)
    return "⟦" + "".join(p if i % 2 else p.translate(_ACCENTED) for i, p in enumerate(parts)) + "⟧"


def lookup(lang: str, msgid: str, context: str | None = None) -> str | None:
    """The translation of ``msgid`` in ``lang``, or None when the catalogue has none (English has none)."""
    if lang == PSEUDO:
        return pseudo(msgid)
    if lang == DEFAULT or lang not in LANGUAGES:
        return None
    catalog = _catalog(lang)
    found = catalog.pgettext(context, msgid) if context else catalog.gettext(msgid)
    return None if found == msgid else found


def translate(lang: str, msgid: str, /, **fields: Any) -> str:
    """``msgid`` in ``lang`` (English when untranslated), its ``{fields}`` filled in."""
    text = lookup(lang, msgid) or msgid
    return text.format(**fields) if fields else text


def _(msgid: str, /, **fields: Any) -> str:
    """``msgid`` in the current language (see ``speaking``)."""
    return translate(current_language.get(), msgid, **fields)


def ngettext(singular: str, plural: str, n: int, /, **fields: Any) -> str:
    """The form of a text that goes with the number ``n`` in the current language (each language has its own
    forms: French says "1 instance", "2 instances"; Chinese has one form), its ``{fields}`` filled in."""
    lang = current_language.get()
    english = singular if n == 1 else plural
    if lang == PSEUDO:
        text = pseudo(english)
    elif lang == DEFAULT or lang not in LANGUAGES:
        text = english
    else:
        text = _catalog(lang).ngettext(singular, plural, n)
    return text.format(**fields) if fields else text


def N_(msgid: str) -> str:
    """Marks a text for the catalogues; it is translated where it is shown (``_(TEXT)``)."""
    return msgid


@contextlib.contextmanager
def speaking(lang: str) -> Iterator[str]:
    """Within the block (and the tasks it starts), ``_`` speaks ``lang``."""
    token = current_language.set(lang)
    try:
        yield lang
    finally:
        current_language.reset(token)
