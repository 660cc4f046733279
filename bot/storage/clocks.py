"""Turn clocks, idle seats, substitutes' takeovers and why tables were closed, in the SQLite store
(``bot/storage/migrations/0003_clocks_idle_seats_closures_settings.sql`` and ``0004_…``).  ``bot/clocks/service.py``
keeps the live state and writes through here."""

from __future__ import annotations

import json
import logging
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.storage.store import Store, is_conflict

log = logging.getLogger(__name__)
_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"


@dataclass(frozen=True)
class StoredClock:
    """A table's clock as last saved: its preset and turn time, the deadline running then (if any)."""

    table_id: int
    preset: str
    turn_seconds: int
    seat: int | None
    turn: int | None
    deadline: float | None
    reminded: bool
    nudged_by: frozenset[int]
    last_activity: float


@dataclass(frozen=True)
class IdleSeat:
    table_id: int
    seat: int
    away: bool  # a computer stands in
    idle_turns: int  # turns in a row the clock ran out
    open: bool  # offered to a substitute


async def create_clock(store: Store, table_id: int, preset: str, turn_seconds: int, last_activity: float) -> None:
    """A new table's clock, no deadline running yet (replacing any earlier one of the table)."""
    await store.write_one(
        "INSERT OR REPLACE INTO table_clocks (table_id, preset, turn_seconds, last_activity) VALUES (?, ?, ?, ?)",
        (table_id, preset, turn_seconds, last_activity),
    )


async def save_clock(
    store: Store,
    table_id: int,
    *,
    seat: int | None,
    turn: int | None,
    deadline: float | None,
    reminded: bool,
    nudged_by: set[int] | frozenset[int],
    last_activity: float,
) -> None:
    await store.write_one(
        "UPDATE table_clocks SET seat = ?, turn = ?, deadline = ?, reminded = ?, nudged_by = ?, last_activity = ?"
        " WHERE table_id = ?",
        (seat, turn, deadline, int(reminded), json.dumps(sorted(nudged_by)), last_activity, table_id),
    )


async def save_idle_seat(store: Store, seat: IdleSeat) -> None:
    await store.write_one(
        "INSERT INTO idle_seats (table_id, seat, away, idle_turns, open) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (table_id, seat) DO UPDATE SET away = excluded.away, idle_turns = excluded.idle_turns,"
        " open = excluded.open",
        (seat.table_id, seat.seat, int(seat.away), seat.idle_turns, int(seat.open)),
    )


async def load_clocks(store: Store) -> dict[int, StoredClock]:
    """Every stored clock, by table id (at start-up)."""
    return await _clocks(store, "", ())


async def _clocks(store: Store, where: str, params: tuple) -> dict[int, StoredClock]:
    return {
        r["table_id"]: StoredClock(
            table_id=r["table_id"],
            preset=r["preset"],
            turn_seconds=int(r["turn_seconds"]),
            seat=r["seat"],
            turn=r["turn"],
            deadline=r["deadline"],
            reminded=bool(r["reminded"]),
            nudged_by=frozenset(json.loads(r["nudged_by"] or "[]")),
            last_activity=r["last_activity"],
        )
        for r in await store.fetch_all(f"SELECT * FROM table_clocks {where}", params)
    }


async def load_idle_seats(store: Store) -> list[IdleSeat]:
    """Every stored idle seat (at start-up)."""
    return [
        IdleSeat(r["table_id"], r["seat"], bool(r["away"]), r["idle_turns"], bool(r["open"]))
        for r in await store.fetch_all("SELECT * FROM idle_seats")
    ]


async def record_takeover(store: Store, table_id: int, seat: int, user_id: int, previous: int | None, at: int) -> None:
    """A substitute takes ``seat`` before the game's action number ``at`` (written before the seat changes;
    bot/ratings/standins.py says what it means for the ratings)."""
    await store.write_one(
        "INSERT OR REPLACE INTO seat_takeovers (table_id, seat, user_id, previous_user_id, at_action)"
        " VALUES (?, ?, ?, ?, ?)",
        (table_id, seat, user_id, previous, at),
    )


async def record_closure(store: Store, table_id: int, reason: str, closed_by: int | None) -> None:
    """Why the table is being closed (abandoned, closed by its host or an admin), written before it closes."""
    await store.write_one(
        "INSERT OR REPLACE INTO table_closures (table_id, reason, closed_by) VALUES (?, ?, ?)",
        (table_id, reason, closed_by),
    )


async def record_cancelled(store: Store, table_id: int) -> None:
    """A cancelled table's closure, unless a reason was recorded first (``record_closure``)."""
    await store.write_one(
        "INSERT OR IGNORE INTO table_closures (table_id, reason) VALUES (?, ?)", (table_id, "cancelled")
    )


async def closure_reason(store: Store, table_id: int) -> str | None:
    row = await store.fetch_one("SELECT reason FROM table_closures WHERE table_id = ?", (table_id,))
    return row[0] if row else None


@dataclass(frozen=True)
class Claim:
    """A clock firing asked for: ``won``, this attempt acts on it (and says ``finish_firing`` once its output is
    made); else ``retry_at``, when the claim that holds it runs out if it is not done by then (None: it is done)."""

    won: bool
    retry_at: float | None = None


async def claim_firing(
    store: Store, table_id: int, kind: str, turn: int, deadline: float, *, now: float, lease: float
) -> Claim:
    """Whether this process is the one to act on the table's ``kind`` timer ("remind", "deadline") for this turn and
    deadline.  Every process that knows the table arms the same timer; the first claim wins, for ``lease`` seconds
    (``now`` and the lease in the clocks' time): a claim not done by then is taken over by the next attempt, so a
    process killed between its claim and its output loses nothing.  The taker-over checks the stored clock before
    acting (the output is idempotent per table version)."""
    token = uuid.uuid4().hex
    key = (table_id, kind, turn, round(deadline * 1000))
    try:
        await store.write_one(
            "INSERT INTO clock_firings (table_id, kind, turn, deadline_ms, claimed_by, claimed_at)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (*key, token, now),
        )
        return Claim(True)
    except Exception as e:
        if not is_conflict(e):
            raise
    # A row locked by a concurrent taker-over is re-read after its commit (PostgreSQL re-checks the WHERE): one wins.
    await store.write_one(
        "UPDATE clock_firings SET claimed_by = ?, claimed_at = ? WHERE table_id = ? AND kind = ? AND turn = ?"
        " AND deadline_ms = ? AND done_at IS NULL AND (claimed_at IS NULL OR claimed_at <= ?)",
        (token, now, *key, now - lease),
    )
    row = await store.fetch_one(
        "SELECT claimed_by, claimed_at, done_at FROM clock_firings"
        " WHERE table_id = ? AND kind = ? AND turn = ? AND deadline_ms = ?",
        key,
    )
    if row is None or row["done_at"] is not None:
        return Claim(False)
    if row["claimed_by"] == token:
        log.info("table %d: took over the %s firing of turn %d (its claim ran out)", table_id, kind, turn)
        return Claim(True)
    return Claim(False, (row["claimed_at"] or now) + lease)


async def finish_firing(store: Store, table_id: int, kind: str, turn: int, deadline: float) -> None:
    """The firing's output is made: nobody takes it over any more."""
    await store.write_one(
        f"UPDATE clock_firings SET done_at = {_NOW} WHERE table_id = ? AND kind = ? AND turn = ? AND deadline_ms = ?",
        (table_id, kind, turn, round(deadline * 1000)),
    )


async def prune_firings(store: Store, older_than: float) -> None:
    """Forget firings done more than ``older_than`` seconds ago (by the wall clock): a done firing only has to
    outlive the timers other processes still hold for it, which are re-armed from the stored clock (it no longer
    names that deadline once the firing is done)."""
    cutoff = datetime.now(UTC) - timedelta(seconds=older_than)
    await store.write_one(
        "DELETE FROM clock_firings WHERE done_at IS NOT NULL AND done_at < ?",
        (cutoff.strftime("%Y-%m-%dT%H:%M:%S.") + f"{cutoff.microsecond // 1000:03d}Z",),
    )


async def load_clocks_of(store: Store, table_ids: list[int]) -> dict[int, StoredClock]:
    """The clocks of these tables, by table id, as last saved (a query per 500 tables)."""
    found: dict[int, StoredClock] = {}
    for start in range(0, len(table_ids), 500):
        chunk = tuple(table_ids[start : start + 500])
        found.update(await _clocks(store, f"WHERE table_id IN ({', '.join('?' * len(chunk))})", chunk))
    return found


async def load_clock(store: Store, table_id: int) -> StoredClock | None:
    """The table's clock as last saved (by this process or another)."""
    return (await _clocks(store, "WHERE table_id = ?", (table_id,))).get(table_id)
