"""DM taps forwarded to the process that owns their table (migration 0017; bot/presentation/forwarding.py).

Shard 0's process receives every DM interaction.  For a table another process owns, it acknowledges the tap and
writes it here; the owner claims the row, applies the tap and answers through the interaction's token, then deletes
the row.  Whoever handles a tap claims it first with a conditional write, so that one process alone handles it: the
owner while the row is unclaimed, the process that forwarded it when nobody claimed it in time or a claim's lease
ran out (the owner died on it).  The action log's unique interaction id keeps a move made by a claim that died half
way from being made twice.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.storage.store import Store


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


@dataclass(frozen=True)
class TapClaim:
    """A claim's answer: ``won`` (with the interaction as Discord sent it, JSON text), or lost to a live claim, or
    ``gone`` (answered, its row deleted)."""

    won: bool
    gone: bool
    table_id: int | None = None
    payload: str | None = None


async def forward_tap(store: Store, interaction_id: int, table_id: int, payload: str) -> None:
    """Write the tap for its table's owner (a second copy of the same interaction is ignored)."""
    await store.write_one(
        "INSERT INTO forwarded_taps (interaction_id, table_id, payload, forwarded_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (interaction_id) DO NOTHING",
        (interaction_id, table_id, payload, _iso(datetime.now(UTC))),
    )


async def claim_tap(store: Store, interaction_id: int, *, lease: float | None = None) -> TapClaim:
    """Claim the tap, in one statement: won while nobody has claimed it, or (``lease``) when its claim is older than
    ``lease`` seconds.  Lost: whether it is ``gone`` is read only when ``lease`` is given (the forwarder's question)."""
    token, now = uuid.uuid4().hex, time.time()
    if lease is None:
        condition = "claimed_by IS NULL"
        params: tuple = (token, now, interaction_id)
    else:
        condition = "(claimed_by IS NULL OR claimed_at < ?)"
        params = (token, now, interaction_id, now - lease)
    row = await store.fetch_one(
        f"UPDATE forwarded_taps SET claimed_by = ?, claimed_at = ? WHERE interaction_id = ? AND {condition}"
        " RETURNING table_id, payload",
        params,
    )
    if row is not None:
        return TapClaim(True, False, int(row["table_id"]), str(row["payload"]))
    if lease is None:
        return TapClaim(False, False)
    still = await store.fetch_one("SELECT 1 FROM forwarded_taps WHERE interaction_id = ?", (interaction_id,))
    return TapClaim(False, still is None)


# Taps per statement of the two below (one parameter each).
AT_ONCE = 500


async def taps_answered(store: Store, interaction_ids: list[int]) -> None:
    """These taps were answered: their rows go (a statement per ``AT_ONCE``)."""
    for start in range(0, len(interaction_ids), AT_ONCE):
        chunk = tuple(interaction_ids[start : start + AT_ONCE])
        await store.write_one(
            f"DELETE FROM forwarded_taps WHERE interaction_id IN ({', '.join('?' * len(chunk))})", chunk
        )


async def claims_of(store: Store, interaction_ids: list[int]) -> dict[int, float | None]:
    """The forwarder's look at its taps, in one query: for each still there, when it was claimed (None: not yet);
    a tap missing was answered."""
    found: dict[int, float | None] = {}
    for start in range(0, len(interaction_ids), AT_ONCE):
        chunk = tuple(interaction_ids[start : start + AT_ONCE])
        rows = await store.fetch_all(
            f"SELECT interaction_id, claimed_by, claimed_at FROM forwarded_taps"
            f" WHERE interaction_id IN ({', '.join('?' * len(chunk))})",
            chunk,
        )
        for row in rows:
            found[int(row["interaction_id"])] = None if row["claimed_by"] is None else float(row["claimed_at"])
    return found


async def prune_taps(store: Store, older_than: float) -> None:
    """Forget taps forwarded more than ``older_than`` seconds ago (their interaction tokens are long expired)."""
    cutoff = _iso(datetime.now(UTC) - timedelta(seconds=older_than))
    await store.write_one("DELETE FROM forwarded_taps WHERE forwarded_at < ?", (cutoff,))
