"""``bot/storage/`` is the only code that writes SQL: the rest of the bot and the cogs call its typed functions and
never see the connection, aiosqlite or sqlite3, nor the store's private parts."""

from __future__ import annotations

import re
from pathlib import Path

from bot.storage.schema import migrations

ROOT = Path(__file__).resolve().parent.parent
STORAGE = ROOT / "bot" / "storage"
# an import of a database driver, a statement run on a connection or cursor, the store's connection or a private
# member of it, an SQL statement in a string
REACHING_IN = re.compile(
    r"\bimport (aiosqlite|sqlite3)\b|\bfrom (aiosqlite|sqlite3)\b|\.execute(many|script)?\(|\bstore\.(db|_\w+)\b"
    r"|\"\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER)\s",
)


def test_only_bot_storage_talks_to_the_database():
    offenders = []
    for folder in ("bot", "cogs"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if STORAGE in path.parents:
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if REACHING_IN.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_the_migrations_are_numbered_from_one_and_say_what_they_add():
    found = migrations()
    assert [m.number for m in found] == list(range(1, len(found) + 1))
    assert all(m.title and m.sql.strip() for m in found)
