"""What players asked of each other at a table (bot/tables/manners.py): stored as they are made and settled, so
that a vote to stop, a claim, an undo or a rematch can be looked up afterwards."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.storage.store import Store


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class StoredRequest:
    id: int
    table_id: int
    kind: str
    seat: int | None
    user_id: int
    deal_index: int | None
    outcome: str | None
    yes: list[int]
    no: list[int]


async def open_request(
    store: Store, table_id: int, kind: str, seat: int | None, user_id: int, deal_index: int | None
) -> int:
    row_id = await store.write_one(
        "INSERT INTO table_requests (table_id, kind, seat, user_id, deal_index, created_at) VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, kind, seat, user_id, deal_index, _now()),
    )
    assert row_id is not None
    return row_id


async def settle_request(store: Store, request_id: int, outcome: str, yes: list[int], no: list[int]) -> None:
    await store.write_one(
        "UPDATE table_requests SET outcome = ?, yes = ?, no = ?, settled_at = ? WHERE id = ?",
        (outcome, json.dumps(sorted(yes)), json.dumps(sorted(no)), _now(), request_id),
    )


async def requests_of(store: Store, table_id: int) -> list[StoredRequest]:
    rows = await store.fetch_all(
        "SELECT id, table_id, kind, seat, user_id, deal_index, outcome, yes, no FROM table_requests"
        " WHERE table_id = ? ORDER BY id",
        (table_id,),
    )
    return [StoredRequest(r[0], r[1], r[2], r[3], r[4], r[5], r[6], json.loads(r[7]), json.loads(r[8])) for r in rows]


async def rematch_of(store: Store, table_id: int) -> int | None:
    row = await store.fetch_one("SELECT rematch_id FROM tables WHERE id = ?", (table_id,))
    return None if row is None else row[0]


async def set_rematch(store: Store, table_id: int, rematch_id: int) -> None:
    await store.write_one("UPDATE tables SET rematch_id = ? WHERE id = ?", (rematch_id, table_id))


async def clock_spec_of(store: Store, table_id: int) -> str | None:
    """The clock a table was opened with, as ``/table new`` takes it (a rematch keeps it)."""
    row = await store.fetch_one("SELECT preset FROM table_clocks WHERE table_id = ?", (table_id,))
    return None if row is None else row[0]
