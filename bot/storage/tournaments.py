"""Tournaments in the store (migrations 0010_tournaments.sql, 0012_tournament_firings.sql): the tournament, its
entrants, each round's plan,
boards and matches, results, organisers' adjustments and the audit log.  Everything a running tournament needs to
carry on after a restart is here; ``load_tournament`` reads it back whole.

Ids (tournaments, entrants, audit and adjustment sequence numbers) are one more than the largest, taken inside the
transaction that inserts them.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bot.storage.log_words import read_detail, stored_detail
from bot.storage.store import Store, is_conflict
from rules.errors import Words

REGISTRATION, RUNNING, PAUSED, FINISHED, CANCELLED = "registration", "running", "paused", "finished", "cancelled"
CHECK_IN = "check_in"  # registration closed; registered players confirm they are here
REGISTERED, WAITLIST, CHECKED_IN, WITHDRAWN, DROPPED = "registered", "waitlist", "checked_in", "withdrawn", "dropped"
ROUND_PLAYING, ROUND_FINISHED = "playing", "finished"
MATCH_WAITING, MATCH_PLAYING, MATCH_FINISHED = "waiting", "playing", "finished"
WHOLE_MATCH = -1  # results.board_no of a match's overall result


def now_text() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class Member:
    user_id: int
    name: str


@dataclass
class EntrantRow:
    id: int
    name: str
    status: str
    registered_at: str
    members: list[Member] = field(default_factory=list)


@dataclass
class MatchRow:
    round_no: int
    match_no: int
    status: str
    table_id: int | None = None
    thread_id: int | None = None
    seats: dict[int, tuple[int, int | None]] = field(default_factory=dict)  # seat -> (entrant, user)
    # board_no -> each side's (score, won); WHOLE_MATCH for the match's result
    results: dict[int, list[tuple[int, bool | None]]] = field(default_factory=dict)


@dataclass
class RoundRow:
    round_no: int
    seed: int
    commitment: str
    plan: dict
    status: str
    revealed: bool
    started_at: str
    deadline: str | None = None
    finished_at: str | None = None
    boards: list[tuple[int, int]] = field(default_factory=list)  # (board_no, dealer)
    matches: list[MatchRow] = field(default_factory=list)


@dataclass
class Adjustment:
    seq: int
    entrant_id: int
    delta: float
    reason: str
    actor_id: int
    at: str


@dataclass
class AuditEntry:
    seq: int
    at: str
    actor_id: int | None
    action: str
    detail: str  # in English
    words: Words | None = None  # the detail as a message id with fields, to be said in each reader's language


@dataclass
class TournamentRow:
    id: int
    guild_id: int | None
    channel_id: int
    message_id: int | None
    standings_message_id: int | None
    organiser_id: int
    name: str
    game: str
    preset: str | None
    options: dict[str, Any]
    format: str
    rounds: int
    settings: dict[str, Any]
    seed: int
    status: str
    created_at: str
    updated_at: str
    entrants: list[EntrantRow] = field(default_factory=list)
    played: list[RoundRow] = field(default_factory=list)
    adjustments: list[Adjustment] = field(default_factory=list)


def _next(conn: sqlite3.Connection, sql: str, params: tuple = ()) -> int:
    row = conn.execute(sql, params).fetchone()
    return (row[0] or 0) + 1


def _audit(
    conn: sqlite3.Connection, tournament_id: int, actor_id: int | None, action: str, detail: Words | str
) -> None:
    seq = _next(conn, "SELECT MAX(seq) FROM tournament_audit WHERE tournament_id = ?", (tournament_id,))
    conn.execute(
        "INSERT INTO tournament_audit (tournament_id, seq, at, actor_id, action, detail) VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, seq, now_text(), actor_id, action, stored_detail(detail)),
    )


async def create_tournament(
    store: Store,
    *,
    guild_id: int | None,
    channel_id: int,
    organiser_id: int,
    name: str,
    game: str,
    preset: str | None,
    options: dict[str, Any],
    format: str,
    rounds: int,
    settings: dict[str, Any],
    seed: int,
) -> int:
    def insert(conn: sqlite3.Connection) -> int:
        tid = _next(conn, "SELECT MAX(id) FROM tournaments")
        at = now_text()
        conn.execute(
            "INSERT INTO tournaments (id, guild_id, channel_id, organiser_id, name, game, preset, options, format,"
            " rounds, settings, seed, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?)",
            (tid, guild_id, channel_id, organiser_id, name, game, preset, json.dumps(options), format, rounds,
             json.dumps(settings), seed, REGISTRATION, at, at),
        )  # fmt: skip
        _audit(
            conn,
            tid,
            organiser_id,
            "create",
            Words("Created: {format}, {rounds} rounds.", format=format, rounds=rounds),
        )
        return tid

    return await store.in_transaction(insert)


async def set_status(
    store: Store, tournament_id: int, status: str, actor_id: int | None, detail: Words | str = ""
) -> None:
    def update(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE tournaments SET status = ?, updated_at = ? WHERE id = ?", (status, now_text(), tournament_id)
        )
        _audit(conn, tournament_id, actor_id, status, detail)

    await store.in_transaction(update)


async def set_messages(
    store: Store, tournament_id: int, *, message_id: int | None = None, standings_message_id: int | None = None
) -> None:
    if message_id is not None:
        await store.write_one("UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id))
    if standings_message_id is not None:
        await store.write_one(
            "UPDATE tournaments SET standings_message_id = ? WHERE id = ?", (standings_message_id, tournament_id)
        )


async def add_entrant(
    store: Store, tournament_id: int, name: str, members: list[Member], status: str, actor_id: int | None
) -> int:
    def insert(conn: sqlite3.Connection) -> int:
        eid = _next(conn, "SELECT MAX(entrant_id) FROM tournament_entrants WHERE tournament_id = ?", (tournament_id,))
        conn.execute(
            "INSERT INTO tournament_entrants (tournament_id, entrant_id, name, status, registered_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (tournament_id, eid, name, status, now_text()),
        )
        conn.executemany(
            "INSERT INTO tournament_members (tournament_id, entrant_id, user_id, name) VALUES (?, ?, ?, ?)",
            [(tournament_id, eid, m.user_id, m.name) for m in members],
        )
        _audit(
            conn, tournament_id, actor_id, "register", Words("{name} registered ({status}).", name=name, status=status)
        )
        return eid

    return await store.in_transaction(insert)


async def set_entrant_status(
    store: Store, tournament_id: int, entrant_id: int, status: str, actor_id: int | None, detail: Words | str = ""
) -> None:
    def update(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE tournament_entrants SET status = ? WHERE tournament_id = ? AND entrant_id = ?",
            (status, tournament_id, entrant_id),
        )
        _audit(
            conn,
            tournament_id,
            actor_id,
            status,
            detail or Words("Entrant {entrant}: {status}.", entrant=entrant_id, status=status),
        )

    await store.in_transaction(update)


async def replace_member(
    store: Store, tournament_id: int, entrant_id: int, old_user: int, new: Member, actor_id: int, reason: str
) -> None:
    def update(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE tournament_members SET user_id = ?, name = ? WHERE tournament_id = ? AND entrant_id = ?"
            " AND user_id = ?",
            (new.user_id, new.name, tournament_id, entrant_id, old_user),
        )
        _audit(
            conn,
            tournament_id,
            actor_id,
            "replace",
            Words(
                "Entrant {entrant}: {name} plays in their place ({reason}).",
                entrant=entrant_id,
                name=new.name,
                reason=reason,
            ),
        )

    await store.in_transaction(update)


async def save_round(
    store: Store,
    tournament_id: int,
    round_no: int,
    *,
    seed: int,
    commitment: str,
    plan: dict,
    boards: list[tuple[int, int]],
    matches: list[dict[int, tuple[int, int | None]]],
    deadline: str | None = None,
) -> None:
    """A newly paired round, all at once: its plan and committed seed, its boards, each match's seats."""

    def insert(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO tournament_rounds (tournament_id, round_no, seed, commitment, plan, status, deadline,"
            " revealed, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)",
            (tournament_id, round_no, seed, commitment, json.dumps(plan), ROUND_PLAYING, deadline, now_text()),
        )
        conn.executemany(
            "INSERT INTO tournament_boards (tournament_id, round_no, board_no, dealer) VALUES (?, ?, ?, ?)",
            [(tournament_id, round_no, b, d) for b, d in boards],
        )
        for match_no, seats in enumerate(matches):
            conn.execute(
                "INSERT INTO tournament_matches (tournament_id, round_no, match_no, status) VALUES (?, ?, ?, ?)",
                (tournament_id, round_no, match_no, MATCH_WAITING),
            )
            conn.executemany(
                "INSERT INTO tournament_seats (tournament_id, round_no, match_no, seat, entrant_id, user_id)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(tournament_id, round_no, match_no, s, e, u) for s, (e, u) in seats.items()],
            )
        _audit(
            conn,
            tournament_id,
            None,
            "pair",
            Words(
                "Round {round} paired: its seed committed as {commitment}.", round=round_no + 1, commitment=commitment
            ),
        )

    await store.in_transaction(insert)


async def set_match_table(
    store: Store, tournament_id: int, round_no: int, match_no: int, table_id: int, thread_id: int | None
) -> None:
    await store.write_one(
        "UPDATE tournament_matches SET table_id = ?, thread_id = ?, status = ? WHERE tournament_id = ?"
        " AND round_no = ? AND match_no = ?",
        (table_id, thread_id, MATCH_PLAYING, tournament_id, round_no, match_no),
    )


async def record_result(
    store: Store,
    tournament_id: int,
    round_no: int,
    match_no: int,
    results: dict[int, list[tuple[int, bool | None]]],
    detail: Words | str,
) -> None:
    """A finished match's results (per board and ``WHOLE_MATCH``), and the match marked finished, together."""

    def insert(conn: sqlite3.Connection) -> None:
        for board_no, sides in results.items():
            conn.executemany(
                "INSERT INTO tournament_results (tournament_id, round_no, match_no, board_no, side, score, won)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(tournament_id, round_no, match_no, board_no, side, score, None if won is None else int(won))
                 for side, (score, won) in enumerate(sides)],
            )  # fmt: skip
        conn.execute(
            "UPDATE tournament_matches SET status = ? WHERE tournament_id = ? AND round_no = ? AND match_no = ?",
            (MATCH_FINISHED, tournament_id, round_no, match_no),
        )
        _audit(conn, tournament_id, None, "result", detail)

    await store.in_transaction(insert)


async def finish_round(store: Store, tournament_id: int, round_no: int) -> None:
    """The round is over: its seed is revealed (the commitment posted before lets anyone check it)."""

    def update(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE tournament_rounds SET status = ?, revealed = 1, finished_at = ? WHERE tournament_id = ?"
            " AND round_no = ?",
            (ROUND_FINISHED, now_text(), tournament_id, round_no),
        )
        seed = conn.execute(
            "SELECT seed FROM tournament_rounds WHERE tournament_id = ? AND round_no = ?", (tournament_id, round_no)
        ).fetchone()[0]
        _audit(
            conn,
            tournament_id,
            None,
            "reveal",
            Words("Round {round}: its seed was {seed}.", round=round_no + 1, seed=seed),
        )

    await store.in_transaction(update)


async def set_deadline(store: Store, tournament_id: int, round_no: int, deadline: str, actor_id: int) -> None:
    def update(conn: sqlite3.Connection) -> None:
        conn.execute(
            "UPDATE tournament_rounds SET deadline = ? WHERE tournament_id = ? AND round_no = ?",
            (deadline, tournament_id, round_no),
        )
        _audit(
            conn,
            tournament_id,
            actor_id,
            "extend",
            Words("Round {round} extended until {deadline}.", round=round_no + 1, deadline=deadline),
        )

    await store.in_transaction(update)


async def add_adjustment(
    store: Store, tournament_id: int, entrant_id: int, delta: float, reason: str, actor_id: int
) -> None:
    def insert(conn: sqlite3.Connection) -> None:
        seq = _next(conn, "SELECT MAX(seq) FROM tournament_adjustments WHERE tournament_id = ?", (tournament_id,))
        conn.execute(
            "INSERT INTO tournament_adjustments (tournament_id, seq, entrant_id, delta, reason, actor_id, at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (tournament_id, seq, entrant_id, delta, reason, actor_id, now_text()),
        )
        _audit(
            conn,
            tournament_id,
            actor_id,
            "adjust",
            Words(
                "Adjustment: entrant {entrant} {points} ({reason}).",
                entrant=entrant_id,
                points=f"{delta:+g}",
                reason=reason,
            ),
        )

    await store.in_transaction(insert)


async def audit_log(store: Store, tournament_id: int) -> list[AuditEntry]:
    rows = await store.fetch_all(
        "SELECT seq, at, actor_id, action, detail FROM tournament_audit WHERE tournament_id = ? ORDER BY seq",
        (tournament_id,),
    )
    entries = []
    for r in rows:
        words = read_detail(r["detail"])
        detail = words.message if words is not None else r["detail"]
        entries.append(AuditEntry(r["seq"], r["at"], r["actor_id"], r["action"], detail, words))
    return entries


async def tournaments_with_status(store: Store, *statuses: str) -> list[int]:
    marks = ", ".join("?" * len(statuses))
    rows = await store.fetch_all(f"SELECT id FROM tournaments WHERE status IN ({marks}) ORDER BY id", statuses)
    return [r["id"] for r in rows]


async def match_of_table(store: Store, table_id: int) -> tuple[int, int, int] | None:
    """(tournament, round, match) that a table belongs to, if any."""
    row = await store.fetch_one(
        "SELECT tournament_id, round_no, match_no FROM tournament_matches WHERE table_id = ?", (table_id,)
    )
    return None if row is None else (row[0], row[1], row[2])


async def load_tournament(store: Store, tournament_id: int) -> TournamentRow | None:
    """The whole tournament, read in one transaction (a round being saved meanwhile is either all in or out)."""
    return await store.in_transaction(_load, tournament_id)


def _load(conn: sqlite3.Connection, tournament_id: int) -> TournamentRow | None:
    def fetch_all(sql: str, params: tuple) -> list[sqlite3.Row]:
        return list(conn.execute(sql, params).fetchall())

    row = conn.execute("SELECT * FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if row is None:
        return None
    t = TournamentRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"], message_id=row["message_id"],
        standings_message_id=row["standings_message_id"], organiser_id=row["organiser_id"], name=row["name"],
        game=row["game"], preset=row["preset"], options=json.loads(row["options"]), format=row["format"],
        rounds=row["rounds"], settings=json.loads(row["settings"]), seed=row["seed"], status=row["status"],
        created_at=row["created_at"], updated_at=row["updated_at"],
    )  # fmt: skip
    key = (tournament_id,)
    entrants = {
        r["entrant_id"]: EntrantRow(r["entrant_id"], r["name"], r["status"], r["registered_at"])
        for r in fetch_all("SELECT * FROM tournament_entrants WHERE tournament_id = ? ORDER BY entrant_id", key)
    }
    for r in fetch_all("SELECT * FROM tournament_members WHERE tournament_id = ? ORDER BY name", key):
        entrants[r["entrant_id"]].members.append(Member(r["user_id"], r["name"]))
    t.entrants = list(entrants.values())
    rounds = {
        r["round_no"]: RoundRow(
            r["round_no"],
            r["seed"],
            r["commitment"],
            json.loads(r["plan"]),
            r["status"],
            bool(r["revealed"]),
            r["started_at"],
            r["deadline"],
            r["finished_at"],
        )  # fmt: skip
        for r in fetch_all("SELECT * FROM tournament_rounds WHERE tournament_id = ? ORDER BY round_no", key)
    }
    for r in fetch_all("SELECT * FROM tournament_boards WHERE tournament_id = ? ORDER BY board_no", key):
        rounds[r["round_no"]].boards.append((r["board_no"], r["dealer"]))
    matches: dict[tuple[int, int], MatchRow] = {}
    for r in fetch_all("SELECT * FROM tournament_matches WHERE tournament_id = ? ORDER BY round_no, match_no", key):
        m = MatchRow(r["round_no"], r["match_no"], r["status"], r["table_id"], r["thread_id"])
        matches[m.round_no, m.match_no] = m
        rounds[m.round_no].matches.append(m)
    for r in fetch_all("SELECT * FROM tournament_seats WHERE tournament_id = ? ORDER BY seat", key):
        matches[r["round_no"], r["match_no"]].seats[r["seat"]] = (r["entrant_id"], r["user_id"])
    for r in fetch_all("SELECT * FROM tournament_results WHERE tournament_id = ? ORDER BY board_no, side", key):
        won = None if r["won"] is None else bool(r["won"])
        matches[r["round_no"], r["match_no"]].results.setdefault(r["board_no"], []).append((r["score"], won))
    t.played = [rounds[n] for n in sorted(rounds)]
    t.adjustments = [
        Adjustment(r["seq"], r["entrant_id"], r["delta"], r["reason"], r["actor_id"], r["at"])
        for r in fetch_all("SELECT * FROM tournament_adjustments WHERE tournament_id = ? ORDER BY seq", key)
    ]
    return t


async def update_settings(
    store: Store, tournament_id: int, changes: dict[str, Any], actor_id: int | None, action: str, detail: Words | str
) -> None:
    """Merge ``changes`` into the tournament's settings (a check-in's closing time, say), audit-logged."""

    def update(conn: sqlite3.Connection) -> None:
        row = conn.execute("SELECT settings FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
        settings = {**json.loads(row[0]), **changes}
        conn.execute(
            "UPDATE tournaments SET settings = ?, updated_at = ? WHERE id = ?",
            (json.dumps(settings), now_text(), tournament_id),
        )
        _audit(conn, tournament_id, actor_id, action, detail)

    await store.in_transaction(update)


async def audit(store: Store, tournament_id: int, actor_id: int | None, action: str, detail: Words | str) -> None:
    await store.in_transaction(_audit, tournament_id, actor_id, action, detail)


async def delete_round(store: Store, tournament_id: int, round_no: int, actor_id: int, reason: str) -> None:
    """A round paired but not yet played, taken back whole (the organiser re-pairs it), audit-logged."""

    def delete(conn: sqlite3.Connection) -> None:
        for table in ("tournament_seats", "tournament_results", "tournament_matches", "tournament_boards",
                      "tournament_rounds"):  # fmt: skip
            conn.execute(f"DELETE FROM {table} WHERE tournament_id = ? AND round_no = ?", (tournament_id, round_no))
        _audit(
            conn,
            tournament_id,
            actor_id,
            "repair",
            Words("Round {round} paired again: {reason}.", round=round_no + 1, reason=reason),
        )

    await store.in_transaction(delete)


async def claim_firing(store: Store, tournament_id: int, kind: str, round_no: int, due: float) -> bool:
    """Whether this process is the one to act on the tournament's ``kind`` timer due at ``due``: the first to claim
    it (a restart, or another process, may arm the same timer again)."""
    try:
        await store.write_one(
            "INSERT INTO tournament_firings (tournament_id, kind, round_no, due_ms, fired_at) VALUES (?, ?, ?, ?, ?)",
            (tournament_id, kind, round_no, round(due * 1000), now_text()),
        )
    except Exception as e:
        if is_conflict(e):
            return False
        raise
    return True
