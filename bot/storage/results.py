"""Game results and ratings in the SQLite store (``bot/storage/migrations/0002_results_and_ratings.sql``).

Integrity rules:

- A finished game's last action, the table's ``finished`` status, its result and every rating change it causes are
  written in ONE transaction (``finish_game``): a crash anywhere before the COMMIT leaves the game unfinished in the
  store (the last card was never acknowledged, so it is played again after the restart), a crash after it leaves
  everything.  ``game_results.table_id`` is UNIQUE and every writer checks it first, so a game is counted once
  however often it is reported.
- ``reconcile`` records every ended table that has no result yet (a database from before migration 2, a cancelled
  table whose result write was interrupted); it runs at start-up.
- Ratings are a pure function of the rated, non-removed results in ``game_results.id`` order: ``recompute``
  rebuilds them from scratch and gives the same table as the incremental updates.

Ratings are kept per (server, scope, game, player); the scopes are ``all``, ``season:N`` (the server's season when
the game ended) and ``month:YYYY-MM`` (UTC), and server 0 holds the global rating, shown only for players who opted in.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.ratings.rating import Eligibility, GameSummary, Rating, rate, rating_eligibility, summarize
from bot.ratings.standins import SeatPlay, tally
from bot.storage.log_words import read_detail, stored_detail
from bot.storage.store import FINISHED, Store, TableRow
from rules.errors import Words

log = logging.getLogger(__name__)

GLOBAL = 0  # the guild_id of the global rating rows
ALL = "all"

# Tests set this to a callable run between the statements of the game-end transaction (to simulate a crash).
between_writes: Callable[[str], None] | None = None


def _checkpoint(where: str) -> None:
    if between_writes is not None:
        between_writes(where)


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def season_scope(number: int) -> str:
    return f"season:{number}"


def month_scope(month: str) -> str:
    return f"month:{month}"


def scopes_for(guild_id: int, season: int, month: str) -> list[tuple[int, str]]:
    """Where a rated game on ``guild_id`` counts: the server's all-time, season and month tables, and the global one."""
    return [(guild_id, ALL), (guild_id, season_scope(season)), (guild_id, month_scope(month)), (GLOBAL, ALL)]


@dataclass(frozen=True)
class RatedGame:
    """A rated result as the rating updates need it."""

    result_id: int
    guild_id: int
    game: str
    season: int
    month: str
    units: list[list[int]]  # user ids per unit
    ranks: list[int]
    names: dict[int, str]


# --- seasons -----------------------------------------------------------------------------------------------------


def _current_season(conn: sqlite3.Connection, guild_id: int | None) -> int:
    if guild_id is None:
        return 1
    row = conn.execute("SELECT MAX(number) FROM seasons WHERE guild_id = ?", (guild_id,)).fetchone()
    return row[0] or 1


async def current_season(store: Store, guild_id: int | None) -> int:
    if guild_id is None:
        return 1
    row = await store.fetch_one("SELECT MAX(number) FROM seasons WHERE guild_id = ?", (guild_id,))
    return (row[0] if row else None) or 1


async def seasons(store: Store, guild_id: int) -> list[dict]:
    rows = [
        dict(r)
        for r in await store.fetch_all(
            "SELECT number, started_at, started_by FROM seasons WHERE guild_id = ? ORDER BY number", (guild_id,)
        )
    ]
    if not rows or rows[0]["number"] != 1:
        rows.insert(0, {"number": 1, "started_at": None, "started_by": None})
    return rows


async def start_season(store: Store, guild_id: int, by: int) -> int:
    """Start the server's next season (earlier seasons stay viewable); returns its number."""

    def write(conn: sqlite3.Connection) -> int:
        number = _current_season(conn, guild_id) + 1
        conn.execute(
            "INSERT INTO seasons (guild_id, number, started_at, started_by) VALUES (?, ?, ?, ?)",
            (guild_id, number, now_iso(), by),
        )
        _log(conn, guild_id, by, "season", Words("Season {number} started.", number=number))
        return number

    return await store.in_transaction(write)


def _log(conn: sqlite3.Connection, guild_id: int | None, user_id: int | None, event: str, detail: Words | str) -> None:
    log.info("ratings: guild %s, user %s: %s: %s", guild_id, user_id, event, detail)
    conn.execute(
        "INSERT INTO rating_log (guild_id, user_id, event, detail, at) VALUES (?, ?, ?, ?, ?)",
        (guild_id, user_id, event, stored_detail(detail), now_iso()),
    )


# --- writing a result --------------------------------------------------------------------------------------------


def write_result(
    conn: sqlite3.Connection,
    row: TableRow,
    players: int,
    output: Mapping[str, Any] | None,
    status: str,
    *,
    at: str | None = None,
) -> int | None:
    """Inside the caller's transaction: the game's result and, when it is rated, its rating changes.
    Returns the result id, or None when the table already has a result (idempotent by table id)."""
    if conn.execute("SELECT 1 FROM game_results WHERE table_id = ?", (row.id,)).fetchone() is not None:
        return None
    at = at or now_iso()
    summary: GameSummary | None = None
    if output is not None and output.get("phase") == "game_over":
        summary = summarize(row.game, players, output)
    elif status == FINISHED:
        raise ValueError(f"table {row.id}: a finished game needs its final state")
    eligibility, play = derive_eligibility(conn, row, players, status, played=summary is not None)
    rated = eligibility.rated and summary is not None
    season = _current_season(conn, row.guild_id)
    month = at[:7]
    units = summary.units if summary else [(s,) for s in range(players)]
    scores = summary.scores if summary else list((output or {}).get("scores") or [])
    cur = conn.execute(
        "INSERT INTO game_results (table_id, guild_id, game, players, status, rated, unrated_reason, season, month,"
        " finished_at, deals, units, scores, winner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            row.id,
            row.guild_id,
            row.game,
            players,
            status,
            int(rated),
            None if rated else eligibility.reason or "it did not finish",
            season,
            month,
            at,
            summary.deals if summary else len((output or {}).get("deal_results") or []),
            json.dumps([list(u) for u in units]),
            json.dumps(scores),
            summary.winner if summary else None,
        ),
    )
    result_id = cur.lastrowid
    assert result_id is not None
    _checkpoint("result")
    seat_rows = []
    for seat in range(players):
        info = row.seats.get(seat)
        unit = next((u for u, seats in enumerate(units) if seat in seats), seat)
        facts = summary.facts[seat] if summary else None
        moves = play.get(seat) or SeatPlay()
        seat_rows.append(
            (
                result_id,
                seat,
                info.user_id if info else None,
                info.computer if info else None,
                info.name if info else f"seat {seat + 1}",
                unit,
                summary.ranks[unit] if summary else 0,
                int(summary is not None and summary.ranks[unit] == 0),
                summary.scores[unit] if summary else 0,
                facts.contracts if facts else 0,
                facts.contracts_made if facts else 0,
                facts.sweeps if facts else 0,
                moves.moves,
                moves.standin,
                moves.player,
            )
        )
    conn.executemany(
        "INSERT INTO result_players (result_id, seat, user_id, computer, name, unit, place, won, points, contracts,"
        " contracts_made, sweeps, moves, standin_moves, player_moves) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
        " ?, ?, ?)",
        seat_rows,
    )
    _checkpoint("players")
    if rated:
        assert summary is not None and row.guild_id is not None
        game = RatedGame(
            result_id=result_id,
            guild_id=row.guild_id,
            game=row.game,
            season=season,
            month=month,
            units=[[row.seats[s].user_id for s in seats] for seats in summary.units],  # type: ignore[misc]
            ranks=summary.ranks,
            names={r.user_id: r.name for r in row.seats.values() if r.user_id is not None},
        )
        apply_ratings(conn, game)
        _checkpoint("ratings")
    return result_id


def derive_eligibility(
    conn: sqlite3.Connection, row: TableRow, players: int, status: str, *, played: bool = True
) -> tuple[Eligibility, dict[int, SeatPlay]]:
    """Whether a game counts, from stored data only (the table's row and seats, its action log and takeovers), so
    that recording it now, at start-up or recomputing later all decide alike.  Also who made each seat's moves."""
    holders = {s: r.user_id for s, r in row.seats.items()}
    play = _load_play(conn, row.id, holders) if played else {}
    eligibility = rating_eligibility(
        guild_id=row.guild_id,
        players=players,
        seats=row.seats,
        status=status,
        hints=row.hints,
        play=play,
        open_review=row.open_review,
    )
    return eligibility, play


async def stored_eligibility(store: Store, table_id: int) -> Eligibility | None:
    """``derive_eligibility`` for an ended table, again (maintenance, tests): must match its recorded result."""
    row = await store.load_table(table_id)
    result = await result_for_table(store, table_id)
    if row is None or result is None:
        return None
    played = result["status"] == FINISHED
    return await store.in_transaction(
        lambda conn: derive_eligibility(conn, row, _players(row), result["status"], played=played)[0]
    )


def _load_play(conn: sqlite3.Connection, table_id: int, holders: Mapping[int, int | None]) -> dict[int, SeatPlay]:
    """``tally`` (bot/ratings/standins.py) over the table's action log and takeovers (inside the caller's
    transaction)."""
    actions = [
        (json.loads(text), bool(standin))
        for text, standin in conn.execute(
            "SELECT action, standin FROM actions WHERE table_id = ? ORDER BY deal_index, seq", (table_id,)
        )
    ]
    takeovers = conn.execute(
        "SELECT seat, user_id, at_action FROM seat_takeovers WHERE table_id = ?", (table_id,)
    ).fetchall()
    return tally(actions, holders, [tuple(t) for t in takeovers])


def apply_ratings(conn: sqlite3.Connection, game: RatedGame) -> None:
    """Update every scope's ratings for one rated game and note each change in the history."""
    users = [u for team in game.units for u in team]
    marks = ", ".join("?" for _ in users)
    won = {u for team, rank in zip(game.units, game.ranks, strict=True) if rank == 0 for u in team}
    for guild_id, scope in scopes_for(game.guild_id, game.season, game.month):
        current: dict[int, Rating] = {}
        counts: dict[int, tuple[int, int]] = {}
        for r in conn.execute(
            f"SELECT user_id, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND scope = ? AND game = ?"
            f" AND user_id IN ({marks})",
            (guild_id, scope, game.game, *users),
        ):
            current[r[0]] = Rating(r[1], r[2])
            counts[r[0]] = (r[3], r[4])
        changes = rate(game.units, game.ranks, current)
        rows, history = [], []
        for u, (before, after) in changes.items():
            games, wins = counts.get(u, (0, 0))
            rows.append(
                (guild_id, scope, game.game, u, game.names.get(u, str(u)), after.mu, after.sigma, after.ordinal,
                 games + 1, wins + (u in won), game.result_id)
            )  # fmt: skip
            history.append((game.result_id, guild_id, scope, u, before.mu, before.sigma, after.mu, after.sigma))
        conn.executemany("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.executemany("INSERT OR REPLACE INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?, ?)", history)


def _players(row: TableRow) -> int:
    from rules.boards import probe

    return probe(row.game, row.options).players


async def finish_game(
    store: Store,
    row: TableRow,
    deal_index: int,
    seq: int,
    action: dict,
    output: Mapping[str, Any],
    *,
    standin: bool = False,
    interaction_id: str | None = None,
) -> int | None:
    """The game's last action, the table's end, its result and its rating changes: one transaction.  Idempotent:
    a second attempt (another process, a redelivered interaction) finds the action's place or its interaction
    taken and writes nothing (``is_conflict``); ``write_result`` counts a table once."""
    players = _players(row)
    text = json.dumps(action, separators=(",", ":"))

    def write(conn: sqlite3.Connection) -> int | None:
        conn.execute(
            "INSERT INTO actions (table_id, deal_index, seq, action, standin, interaction_id)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (row.id, deal_index, seq, text, int(standin), interaction_id),
        )
        _checkpoint("action")
        conn.execute(
            "UPDATE tables SET status = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            (FINISHED, row.id),
        )
        _checkpoint("status")
        return write_result(conn, row, players, output, FINISHED)

    return await store.in_transaction(write)


async def record_end(
    store: Store, row: TableRow, output: Mapping[str, Any] | None, status: str, *, set_status: bool = False
) -> int | None:
    """Record a game that ended without finishing (cancelled, abandoned): kept, unrated.  Idempotent.  With
    ``set_status`` the table's new status is written in the same transaction (``close_game``)."""
    players = _players(row)

    def write(conn: sqlite3.Connection) -> int | None:
        if set_status:
            conn.execute(
                "UPDATE tables SET status = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                (status, row.id),
            )
        return write_result(conn, row, players, output, status)

    return await store.in_transaction(write)


async def close_game(store: Store, row: TableRow, status: str, output: Mapping[str, Any] | None) -> int | None:
    """A started table ends without finishing (cancelled, abandoned): its status and its unrated result, at once."""
    return await record_end(store, row, output, status, set_status=True)


async def record_played(store: Store, row: TableRow, output: Mapping[str, Any]) -> int | None:
    """A game stopped where its table was told to stop (a tournament round's last deal): finished as played and
    rated like any finished game; ``output`` is the match's state read as its end."""

    def write(conn: sqlite3.Connection) -> int | None:
        conn.execute(
            "UPDATE tables SET status = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            (FINISHED, row.id),
        )
        return write_result(conn, row, _players(row), output, FINISHED)

    return await store.in_transaction(write)


async def reconcile(store: Store) -> list[int]:
    """Record every ended, started table that has no result yet (oldest first); returns their table ids."""
    from rules.records import replay

    rows = await store.fetch_all(
        "SELECT t.id FROM tables t LEFT JOIN game_results r ON r.table_id = t.id"
        " WHERE r.id IS NULL AND t.first_dealer IS NOT NULL AND t.status NOT IN ('lobby', 'playing') ORDER BY t.id"
    )
    ids = [r[0] for r in rows]
    done = []
    for table_id in ids:
        row = await store.load_table(table_id)
        if row is None:
            continue
        try:
            output = replay(await store.load_record(row)).output()
        except Exception:
            log.exception("table %d: its record does not replay; recorded without a final state", table_id)
            output = None
        status = row.status
        if status == FINISHED and (output is None or output.get("phase") != "game_over"):
            status = "abandoned"
        await record_end(store, row, output, status)
        done.append(table_id)
    if done:
        log.info("recorded the results of %d ended table(s) that had none: %s", len(done), done)
    return done


# --- removing games and recomputing ------------------------------------------------------------------------------

_RESULT_FOR_TABLE = (
    "SELECT r.*, x.reason AS removed_reason, x.removed_by, x.removed_at FROM game_results r"
    " LEFT JOIN removed_games x ON x.result_id = r.id WHERE r.table_id = ?"
)


async def result_for_table(store: Store, table_id: int) -> dict | None:
    row = await store.fetch_one(_RESULT_FOR_TABLE, (table_id,))
    return dict(row) if row else None


async def remove_game(store: Store, guild_id: int, table_id: int, by: int, reason: str) -> dict:
    """Take a game out of the ratings (kept in the history, logged) and recompute that game's ratings.

    As ``recompute``: the game's ratings without it are computed from a snapshot outside the write lock, and the
    removal, its log entry and the new ratings are written in one short transaction."""

    def remove(conn: sqlite3.Connection) -> dict:
        cur = conn.execute(_RESULT_FOR_TABLE, (table_id,))
        found = cur.fetchone()
        result = dict(zip([d[0] for d in cur.description], found, strict=True)) if found else None
        if result is None or result["guild_id"] != guild_id:
            raise LookupError(f"table #{table_id} has no recorded result on this server")
        if result["removed_reason"] is not None:
            raise LookupError(f"table #{table_id} was already removed ({result['removed_reason']})")
        conn.execute(
            "INSERT INTO removed_games (result_id, removed_by, reason, removed_at) VALUES (?, ?, ?, ?)",
            (result["id"], by, reason, now_iso()),
        )
        _log(
            conn,
            guild_id,
            by,
            "remove",
            Words("Table #{table} ({game}) removed from the ratings: {reason}", table=table_id, game=result["game"],
                  reason=reason),
        )  # fmt: skip
        return result

    found = await result_for_table(store, table_id)
    path = await _database_file(store)
    if path is not None and found is not None and found["rated"] and found["removed_reason"] is None:
        for _ in range(3):
            snap = await asyncio.to_thread(_plan, path, [found["game"]], found["id"])

            def swap(conn: sqlite3.Connection, snap: _Snapshot = snap) -> dict:
                _check(conn, snap)
                result = remove(conn)
                _apply(conn, snap)
                return result

            try:
                return await store.in_transaction(swap)
            except _StaleSnapshot:
                log.info("ratings: the results changed while removing table #%d; computing again", table_id)

    def write(conn: sqlite3.Connection) -> dict:
        result = remove(conn)
        if result["rated"]:
            _recompute(conn, [result["game"]])
        return result

    return await store.in_transaction(write)


async def recompute(store: Store, games: Iterable[str] | None = None, *, by: int | None = None) -> int:
    """Rebuild ratings and their history from the stored results (maintenance); returns how many games counted.

    Play goes on meanwhile: the ratings are computed outside the store's write lock, on a second (read-only)
    connection that sees one consistent snapshot of the database (WAL), and what differs from the stored tables is
    written in one short transaction (``_swap``).  Games that ended after the snapshot are rated there again, on top
    of the snapshot's table, in result order, as a full recomputation would; a game removed meanwhile (or anything
    else that changed the results the snapshot read) makes the snapshot stale and the work is done again.  An
    in-memory database (no second connection can see it) is recomputed inside one transaction."""
    chosen = list(games) if games is not None else None
    path = await _database_file(store)
    if path is not None:
        for _ in range(3):
            plan = await asyncio.to_thread(_plan, path, chosen)
            try:
                return await store.in_transaction(_swap, plan, by)
            except _StaleSnapshot:
                log.info("ratings recompute: the results changed during the computation; computing again")

    def write(conn: sqlite3.Connection) -> int:
        names = chosen if chosen is not None else _all_games(conn)
        count = _recompute(conn, names)
        _log(conn, None, by, "recompute", f"{count} rated game(s) of {', '.join(names) or 'no game'}")
        return count

    return await store.in_transaction(write)


async def _database_file(store: Store) -> str | None:
    """The SQLite file a second, read-only connection can snapshot (WAL); None for an in-memory database or
    PostgreSQL, where the work is done in the one transaction (it holds only the ratings' lock, and play goes on)."""
    if store.engine != "sqlite":
        return None
    rows = await store.fetch_all("PRAGMA database_list")
    path = next((r[2] for r in rows if r[1] == "main"), "")
    mode = await store.fetch_one("PRAGMA journal_mode")
    return path if path and mode is not None and str(mode[0]).lower() == "wal" else None


def _all_games(conn: sqlite3.Connection) -> list[str]:
    return [r[0] for r in conn.execute("SELECT DISTINCT game FROM game_results ORDER BY game")]


class _StaleSnapshot(Exception):
    pass


@dataclass
class _Snapshot:
    """What ``_plan`` computed from one snapshot: per game, the ratings table (``_rate_games``) and the changes the
    history needs; how to tell that the results it read are still the same."""

    games: list[str]
    every_game: bool  # games were not named: every game with results
    upto: int  # the last result id the snapshot saw
    results: int  # results with id <= upto
    removed: int  # rows of removed_games
    count: int  # rated games counted
    tables: dict[str, dict[tuple[int, str], dict[int, list]]]
    upserts: dict[str, list[tuple]]
    deletes: dict[str, list[tuple]]


def _fingerprint(conn: sqlite3.Connection, upto: int) -> tuple[int, int]:
    results = conn.execute("SELECT COUNT(*) FROM game_results WHERE id <= ?", (upto,)).fetchone()[0]
    removed = conn.execute("SELECT COUNT(*) FROM removed_games").fetchone()[0]
    return results, removed


def _plan(path: str, games: list[str] | None, exclude: int | None = None) -> _Snapshot:
    """In a worker thread, on its own read-only connection inside one read transaction (one snapshot).  ``exclude``:
    a result counted as removed (``remove_game`` removes it in the swap's transaction)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    try:
        conn.execute("BEGIN")
        upto = conn.execute("SELECT COALESCE(MAX(id), 0) FROM game_results").fetchone()[0]
        results, removed = _fingerprint(conn, upto)
        chosen = games if games is not None else _all_games(conn)
        snap = _Snapshot(chosen, games is None, upto, results, removed, 0, {}, {}, {})
        for game in chosen:
            table: dict[tuple[int, str], dict[int, list]] = {}
            computed = _rate_games(conn, game, table, upto=upto, exclude=exclude)
            snap.upserts[game], snap.deletes[game] = [], []
            stored = conn.execute(
                "SELECT h.* FROM rating_history h JOIN game_results r ON r.id = h.result_id"
                " WHERE r.game = ? AND r.id <= ? ORDER BY h.result_id",
                (game, upto),
            )
            pending = next(stored, None)
            for result_id, rows in _by_result(computed, snap):
                old: dict[tuple, tuple] = {}
                while pending is not None and pending[0] <= result_id:
                    if pending[0] < result_id:  # a result no longer rated
                        snap.deletes[game].append(tuple(pending[:4]))
                    else:
                        old[tuple(pending[:4])] = tuple(pending)
                    pending = next(stored, None)
                for row in rows:
                    if old.pop(row[:4], None) != row:
                        snap.upserts[game].append(row)
                snap.deletes[game].extend(old)
            while pending is not None:
                snap.deletes[game].append(tuple(pending[:4]))
                pending = next(stored, None)
            snap.tables[game] = table
        conn.execute("COMMIT")
        return snap
    finally:
        conn.close()


def _by_result(history, snap: _Snapshot):
    """The history rows of each rated game, one game at a time (counting the games)."""
    current: list[tuple] = []
    for row in history:
        if current and current[0][0] != row[0]:
            snap.count += 1
            yield current[0][0], current
            current = []
        current.append(row)
    if current:
        snap.count += 1
        yield current[0][0], current


def _swap(conn: sqlite3.Connection, snap: _Snapshot, by: int | None) -> int:
    """Inside the write transaction: the snapshot's work, the games recorded since, in one go."""
    _check(conn, snap)
    count = _apply(conn, snap)
    _log(conn, None, by, "recompute", f"{count} rated game(s) of {', '.join(snap.games) or 'no game'}")
    return count


def _check(conn: sqlite3.Connection, snap: _Snapshot) -> None:
    """Raise ``_StaleSnapshot`` unless the results the snapshot read are still the same."""
    if _fingerprint(conn, snap.upto) != (snap.results, snap.removed):
        raise _StaleSnapshot
    if snap.every_game and set(_all_games(conn)) != set(snap.games):  # a first game of another kind meanwhile
        raise _StaleSnapshot


def _apply(conn: sqlite3.Connection, snap: _Snapshot) -> int:
    count = snap.count
    for game in snap.games:
        table = snap.tables[game]
        later = list(_rate_games(conn, game, table, after=snap.upto))  # games recorded after the snapshot
        count += len({row[0] for row in later})
        conn.execute("DELETE FROM ratings WHERE game = ?", (game,))
        conn.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", _rating_rows(game, table))
        conn.executemany(
            "DELETE FROM rating_history WHERE result_id = ? AND guild_id = ? AND scope = ? AND user_id = ?",
            snap.deletes[game],
        )
        conn.executemany("INSERT OR REPLACE INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?, ?)", snap.upserts[game])
        conn.execute(
            "DELETE FROM rating_history WHERE result_id IN (SELECT id FROM game_results WHERE game = ? AND id > ?)",
            (game, snap.upto),
        )
        conn.executemany("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?, ?)", later)
    return count


def _rate_games(
    conn: sqlite3.Connection,
    game: str,
    table: dict[tuple[int, str], dict[int, list]],
    *,
    after: int = 0,
    upto: int | None = None,
    exclude: int | None = None,
):
    """Rate the rated, non-removed results of ``game`` with ``after < id <= upto`` in result order, on top of
    ``table`` ((guild, scope) -> user -> [mu, sigma, name, games, wins, last result]); yields the history rows."""
    for rated in _rated_games(conn, game, after=after, upto=upto, exclude=exclude):
        won = {u for team, rank in zip(rated.units, rated.ranks, strict=True) if rank == 0 for u in team}
        for key in scopes_for(rated.guild_id, rated.season, rated.month):
            rows = table.setdefault(key, {})
            current = {u: Rating(rows[u][0], rows[u][1]) for team in rated.units for u in team if u in rows}
            for u, (before, after_) in rate(rated.units, rated.ranks, current).items():
                old = rows.get(u)
                games_, wins = (old[3], old[4]) if old else (0, 0)
                rows[u] = [after_.mu, after_.sigma, rated.names.get(u, str(u)), games_ + 1, wins + (u in won),
                           rated.result_id]  # fmt: skip
                yield (rated.result_id, key[0], key[1], u, before.mu, before.sigma, after_.mu, after_.sigma)


def _rating_rows(game: str, table: dict[tuple[int, str], dict[int, list]]) -> list[tuple]:
    return [
        (g, scope, game, u, r[2], r[0], r[1], Rating(r[0], r[1]).ordinal, r[3], r[4], r[5])
        for (g, scope), rows in table.items()
        for u, r in rows.items()
    ]


def _recompute(conn: sqlite3.Connection, games: list[str]) -> int:
    """In memory, in result order, with the same ``rate`` as the incremental path; then written in bulk (inside the
    caller's transaction)."""
    count = 0
    for game in games:
        conn.execute("DELETE FROM ratings WHERE game = ?", (game,))
        conn.execute(
            "DELETE FROM rating_history WHERE result_id IN (SELECT id FROM game_results WHERE game = ?)", (game,)
        )
        table: dict[tuple[int, str], dict[int, list]] = {}
        history = list(_rate_games(conn, game, table))
        count += len({row[0] for row in history})
        conn.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", _rating_rows(game, table))
        conn.executemany("INSERT INTO rating_history VALUES (?, ?, ?, ?, ?, ?, ?, ?)", history)
    return count


def _rated_games(
    conn: sqlite3.Connection, game: str, *, after: int = 0, upto: int | None = None, exclude: int | None = None
):
    cur = conn.execute(
        "SELECT r.id, r.guild_id, r.season, r.month, p.seat, p.user_id, p.name, p.unit, p.place"
        " FROM game_results r JOIN result_players p ON p.result_id = r.id"
        " WHERE r.game = ? AND r.rated = 1 AND r.id NOT IN (SELECT result_id FROM removed_games)"
        " AND r.id > ? AND r.id <= ? AND r.id IS NOT ? ORDER BY r.id, p.unit, p.seat",
        (game, after, upto if upto is not None else 2**62, exclude),
    )
    current: list[Any] = []
    for row in cur:
        if current and current[0][0] != row[0]:
            yield _as_rated(game, current)
            current = []
        current.append(tuple(row))
    if current:
        yield _as_rated(game, current)


def _as_rated(game: str, rows: list[tuple]) -> RatedGame:
    units: dict[int, list[int]] = {}
    ranks: dict[int, int] = {}
    for r in rows:
        units.setdefault(r[7], []).append(r[5])
        ranks[r[7]] = r[8]
    order = sorted(units)
    return RatedGame(
        result_id=rows[0][0],
        guild_id=rows[0][1],
        game=game,
        season=rows[0][2],
        month=rows[0][3],
        units=[units[u] for u in order],
        ranks=[ranks[u] for u in order],
        names={r[5]: r[6] for r in rows},
    )


# --- opt-in ----------------------------------------------------------------------------------------------------


async def set_global_optin(store: Store, user_id: int, enabled: bool) -> None:
    if enabled:
        await store.write_one("INSERT OR IGNORE INTO global_optin (user_id, since) VALUES (?, ?)", (user_id, now_iso()))
    else:
        await store.write_one("DELETE FROM global_optin WHERE user_id = ?", (user_id,))


async def is_opted_in(store: Store, user_id: int) -> bool:
    return await store.fetch_one("SELECT 1 FROM global_optin WHERE user_id = ?", (user_id,)) is not None


# --- what administrators did -------------------------------------------------------------------------------------


async def rating_log(store: Store, guild_id: int, limit: int = 15) -> list[dict]:
    """The server's latest entries in the ratings' log, newest first: {"at", "user_id", "detail", "words"}; "words"
    is the detail as a message id with fields (None for an older row's English text)."""
    rows = await store.fetch_all(
        "SELECT at, user_id, detail FROM rating_log WHERE guild_id = ? ORDER BY id DESC LIMIT ?", (guild_id, limit)
    )
    return [{**dict(r), "words": read_detail(r["detail"])} for r in rows]
