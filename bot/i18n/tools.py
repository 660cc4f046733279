"""Managing the catalogues with Babel: ``python -m bot.i18n extract|update|compile|check``.

extract  writes ``locale/cardtable.pot``: the texts wrapped in ``_``/``N_``, the engines' refusals (``IllegalAction``)
         and the bot's (``Refusal``), and every command's names, descriptions and choices (read from the command tree)
update   merges the template into each language's ``.po`` (new entries empty, changed ones fuzzy)
compile  writes each ``.mo`` (committed, so that installing needs no build step)
check    exits 1 listing what a language lacks: a missing, empty or fuzzy entry, or a ``.mo`` older than its ``.po``
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from bot.i18n.catalogs import DOMAIN, LOCALE_DIR
from bot.i18n.languages import DEFAULT, LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("bot", "cogs", "rules")
# The callables whose first argument is a message id; their English text is the id.
KEYWORDS: dict[str, tuple[int, int] | None] = {
    "_": None, "N_": None, "IllegalAction": None, "Refusal": None, "Unreadable": None, "Words": None, "marked": None,
    "OptionsError": None, "SettingsRefusal": None, "Unparsable": None,
    "ngettext": (1, 2),  # a singular and a plural: an entry with each language's plural forms
}  # fmt: skip
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def translated_languages() -> list[str]:
    return [lang for lang in LANGUAGES if lang != DEFAULT]


async def _command_texts() -> list[tuple[str, str]]:
    import discord
    from discord.ext import commands

    from bot.i18n.translator import command_texts
    from bot.process.client import COGS

    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    for cog in COGS:
        await bot.load_extension(cog)
    return await command_texts(bot.tree)


def template() -> Catalog:
    """Every message id, from the source and from the command tree."""
    catalog = Catalog(project="cardtable", domain=DOMAIN, fuzzy=False)
    for folder in SOURCES:
        for filename, lineno, message, comments, _context in extract_from_dir(
            ROOT / folder, keywords=KEYWORDS, comment_tags=("Translators:",), strip_comment_tags=True
        ):
            if isinstance(message, str) and message or isinstance(message, tuple) and all(message):
                catalog.add(message, locations=[(f"{folder}/{filename}", lineno)], auto_comments=comments)
    for context, text in asyncio.run(_command_texts()):
        catalog.add(text, context=context, locations=[("commands", 0)])
    for text in game_words():
        catalog.add(text, locations=[("rules/registry", 0)])
    return catalog


def game_words() -> list[str]:
    """The words each game's ``GameType`` gives the bot to show (what the dealer is called, phases, announcements,
    the pages of its rules in short)."""
    from rules import registry

    words: dict[str, None] = {}
    for game in registry.games():
        words.setdefault(game.dealer_word)
        for text in game.phase_words.values():
            words.setdefault(text)
        for announcement in game.announcements:
            words.setdefault(announcement)
            words.setdefault(announcement.capitalize())
        for title, text in game.rules_summary:  # /rules' pages (cogs/help.py)
            words.setdefault(title)
            words.setdefault(text)
    return list(words)


def _read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def _write_po(catalog: Catalog, path: Path) -> None:
    # Sorted by message id and without line numbers, so that two branches adding texts touch different lines of
    # the catalogue and a moved line of code changes nothing here.
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(
            f, catalog, width=120, sort_output=True, include_lineno=False, omit_header=False, include_previous=False
        )


def compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def extract() -> Catalog:
    catalog = template()
    _write_po(catalog, TEMPLATE)
    return catalog


def update() -> None:
    tmpl = _read(TEMPLATE)
    for lang in translated_languages():
        path = po_path(lang)
        catalog = _read(path) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
        catalog.update(tmpl, update_header_comment=False)
        _write_po(catalog, path)


def compile_all() -> None:
    for lang in translated_languages():
        po_path(lang).with_suffix(".mo").write_bytes(compiled(_read(po_path(lang))))


def problems(tmpl: Catalog | None = None) -> list[str]:
    """What keeps the catalogues from being complete: one line per missing, empty or fuzzy entry or stale ``.mo``."""
    tmpl = tmpl if tmpl is not None else template()
    out: list[str] = []
    for lang in translated_languages():
        path = po_path(lang)
        if not path.exists():
            out.append(f"{lang}: no catalogue at {path.relative_to(ROOT)}")
            continue
        catalog = _read(path)
        for message in tmpl:
            if not message.id:
                continue
            found = catalog.get(message.id, context=message.context)
            where = f"{lang}: {message.context + ' ' if message.context else ''}{message.id!r}"
            if found is None:
                out.append(f"{where} is missing")
            elif found.fuzzy:
                out.append(f"{where} is fuzzy")
            elif not found.string or isinstance(found.string, tuple | list) and not all(found.string):
                out.append(f"{where} is not translated")  # (a plural entry: each of the language's forms)
        mo = path.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != compiled(catalog):
            out.append(f"{lang}: {mo.relative_to(ROOT)} is not compiled from its .po (python -m bot.i18n compile)")
    return out
