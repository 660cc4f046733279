"""What each message that several processes may edit last showed (migration 0016): the table version.

With several bot processes sharing the database (docs/running.md), more than one may edit the same Discord message:
a table message, a player's live hand.  An edit made late by a process whose copy of the table is behind would
replace a newer picture with an older one.  Before editing, a process claims the version it is about to show; the
claim is a conditional write (``… WHERE shown_version <= ?``), so it fails when the message already shows a newer
version, and the edit is then left out.  A table message may show an equal version again (a clock's line, a status
changed without a move: never older); a live hand may not (``again=False``), so that the owner of a table does not
edit again the hand that another process's answer to its player's click has just shown at that version.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.storage.store import Store


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@dataclass(frozen=True)
class Shown:
    """A claim's answer: ``won``, the edit may be made; else the version the message already shows (``version``)."""

    won: bool
    version: int | None


async def claim_shown(store: Store, table_id: int, message_id: int, version: int, *, again: bool = True) -> Shown:
    """Whether message ``message_id`` may now be edited to show ``table_id`` at ``version``: won when it showed no
    newer version (``again``: nor this one) — and it is then recorded as showing this one."""
    token = uuid.uuid4().hex
    compare = "<=" if again else "<"
    await store.write_one(
        "INSERT INTO shown_versions (message_id, table_id, shown_version, shown_by, shown_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (message_id) DO UPDATE SET shown_version = excluded.shown_version,"
        " shown_by = excluded.shown_by, shown_at = excluded.shown_at"
        f" WHERE shown_versions.shown_version {compare} excluded.shown_version",
        (message_id, table_id, version, token, _iso(datetime.now(UTC))),
    )
    row = await store.fetch_one(
        "SELECT shown_version, shown_by FROM shown_versions WHERE message_id = ?", (message_id,)
    )
    if row is None:
        return Shown(False, None)
    return Shown(row["shown_by"] == token, int(row["shown_version"]))


async def record_shown(store: Store, table_id: int, message_id: int, version: int) -> None:
    """Message ``message_id`` now shows ``version`` (unless it was claimed for a newer one): one statement, nothing
    read back, for the process that edits the message in the normal course (the table's owner)."""
    await record_shown_many(store, [(message_id, table_id, version)])


# Rows per statement: five parameters each, well under PostgreSQL's 32,767.
RECORDED_AT_ONCE = 500


async def record_shown_many(store: Store, shown: list[tuple[int, int, int]]) -> None:
    """What several messages now show, as (message id, table id, version), one statement per ``RECORDED_AT_ONCE``
    (each message once: PostgreSQL refuses an upsert that touches a row twice)."""
    at = _iso(datetime.now(UTC))
    for start in range(0, len(shown), RECORDED_AT_ONCE):
        chunk = shown[start : start + RECORDED_AT_ONCE]
        await store.write_one(
            "INSERT INTO shown_versions (message_id, table_id, shown_version, shown_by, shown_at) VALUES "
            + ", ".join(["(?, ?, ?, ?, ?)"] * len(chunk))
            + " ON CONFLICT (message_id) DO UPDATE SET shown_version = excluded.shown_version,"
            " shown_by = excluded.shown_by, shown_at = excluded.shown_at"
            " WHERE shown_versions.shown_version <= excluded.shown_version",
            tuple(x for message_id, table_id, version in chunk for x in (message_id, table_id, version, "owner", at)),
        )


async def shown_version(store: Store, message_id: int) -> int | None:
    """The version message ``message_id`` was last claimed for (None: never)."""
    row = await store.fetch_one("SELECT shown_version FROM shown_versions WHERE message_id = ?", (message_id,))
    return None if row is None else int(row[0])


async def prune_shown(store: Store, older_than: float) -> None:
    """Forget messages not edited for ``older_than`` seconds (their tables ended, or their deal did)."""
    cutoff = _iso(datetime.now(UTC) - timedelta(seconds=older_than))
    await store.write_one("DELETE FROM shown_versions WHERE shown_at < ?", (cutoff,))
