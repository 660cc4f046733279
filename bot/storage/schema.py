"""The database schema as numbered migrations: ``bot/storage/migrations/NNNN_name.sql``, applied in order at
start-up by ``Store.migrate`` (each in its own transaction, the number recorded in ``schema_version``).

Never edit a migration that has shipped: add the next number.  A migration's first line is a ``-- `` comment that
says what it adds (logged when it is applied).  Keep the SQL portable (no new SQLite-only syntax) so that another
database can run the same files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_FILE_NAME = re.compile(r"(\d{4})_\w+\.sql")


@dataclass(frozen=True)
class Migration:
    number: int
    title: str
    sql: str


def migrations() -> list[Migration]:
    """Every migration shipped with the package, in order; refuses a gap or a repeated number."""
    found: list[Migration] = []
    for entry in resources.files("bot.storage").joinpath("migrations").iterdir():
        match = _FILE_NAME.fullmatch(entry.name)
        if match is None:
            continue
        sql = entry.read_text(encoding="utf-8")
        first_line = sql.split("\n", 1)[0]
        if not first_line.startswith("-- "):
            raise ValueError(f"migration {entry.name} must start with a '-- ' line saying what it adds")
        found.append(Migration(int(match[1]), first_line[3:].strip(), sql))
    found.sort(key=lambda m: m.number)
    numbers = [m.number for m in found]
    if numbers != list(range(1, len(found) + 1)):
        raise ValueError(f"the migrations must be numbered 1, 2, 3… without gaps or repeats; found {numbers}")
    return found
