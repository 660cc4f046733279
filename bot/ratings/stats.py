"""Leaderboards, statistics and history: read-only queries on the results tables (see ``bot/storage/results.py``).

What counts in the statistics: every finished game on the server that was not removed by an administrator, rated
or not (a game against computer players still shows in a player's record).  Cancelled and abandoned games appear in
the history only.  Leaderboards show ratings, so only rated games move them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import aiosqlite

from bot.ratings.rating import display_number
from bot.storage.results import ALL, GLOBAL, current_season, month_scope, season_scope

PAGE_SIZE = 10
PERIODS = ("all", "season", "month", "global")
_LIVE = "r.status = 'finished' AND NOT EXISTS (SELECT 1 FROM removed_games x WHERE x.result_id = r.id)"


def this_month() -> str:
    return datetime.now(UTC).strftime("%Y-%m")


@dataclass(frozen=True)
class BoardKey:
    """Which leaderboard: a server (or the global one), a game, a period and which season or month."""

    guild_id: int
    game: str
    period: str  # all | season | month | global
    key: str = ""  # the season number or the month (YYYY-MM) for those periods

    def where(self) -> tuple[int, str]:
        if self.period == "global":
            return GLOBAL, ALL
        if self.period == "season":
            return self.guild_id, season_scope(int(self.key))
        if self.period == "month":
            return self.guild_id, month_scope(self.key)
        return self.guild_id, ALL


async def board_key(
    db: aiosqlite.Connection, guild_id: int, game: str, period: str, key: str | None = None
) -> BoardKey:
    """Fill in the current season or month when none is given."""
    if period not in PERIODS:
        raise ValueError(f"unknown period {period!r}")
    if period == "season" and not key:
        key = str(await current_season(db, guild_id))
    elif period == "month" and not key:
        key = this_month()
    return BoardKey(guild_id, game, period, key or "")


@dataclass
class Board:
    key: BoardKey
    rows: list[dict]  # {"rank", "name", "rating", "games", "win_rate", "user_id", "mu", "sigma"}
    page: int
    pages: int
    total: int


async def leaderboard(db: aiosqlite.Connection, key: BoardKey, page: int = 1, per_page: int = PAGE_SIZE) -> Board:
    """One page of a leaderboard, best conservative rating first (one indexed range scan)."""
    guild_id, scope = key.where()
    optin = " AND user_id IN (SELECT user_id FROM global_optin)" if key.period == "global" else ""
    params = (guild_id, scope, key.game)
    async with db.execute(
        f"SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND scope = ? AND game = ?{optin}", params
    ) as cur:
        row = await cur.fetchone()
    assert row is not None  # an aggregate always returns one row
    total = row[0]
    pages = max(1, math.ceil(total / per_page))
    page = min(max(1, page), pages)
    offset = (page - 1) * per_page
    async with db.execute(
        f"SELECT user_id, name, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND scope = ? AND game = ?"
        f"{optin} ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
        (*params, per_page, offset),
    ) as cur:
        found = await cur.fetchall()
    rows = [
        {
            "rank": offset + i + 1,
            "name": r[1],
            "rating": display_number(r[2], r[3]),
            "games": r[4],
            "win_rate": r[5] / r[4] if r[4] else 0.0,
            "user_id": r[0],
            "mu": r[2],
            "sigma": r[3],
        }
        for i, r in enumerate(found)
    ]
    return Board(key, rows, page, pages, total)


async def rating_of(db: aiosqlite.Connection, guild_id: int, scope: str, game: str, user_id: int) -> dict | None:
    """A player's rating and rank in one table, or None before their first rated game there."""
    async with db.execute(
        "SELECT mu, sigma, ordinal, games, wins FROM ratings WHERE guild_id = ? AND scope = ? AND game = ?"
        " AND user_id = ?",
        (guild_id, scope, game, user_id),
    ) as cur:
        row = await cur.fetchone()
    if row is None:
        return None
    optin = " AND user_id IN (SELECT user_id FROM global_optin)" if guild_id == GLOBAL else ""
    async with db.execute(
        f"SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND scope = ? AND game = ? AND ordinal > ?{optin}",
        (guild_id, scope, game, row[2]),
    ) as cur:
        count = await cur.fetchone()
    assert count is not None  # an aggregate always returns one row
    above = count[0]
    return {"rating": display_number(row[0], row[1]), "rank": above + 1, "mu": row[0], "sigma": row[1],
            "games": row[3], "wins": row[4]}  # fmt: skip


# --- a player's statistics ---------------------------------------------------------------------------------------


@dataclass
class GameStats:
    game: str
    games: int = 0
    wins: int = 0
    deals: int = 0
    contracts: int = 0
    contracts_made: int = 0
    average_points: float = 0.0
    sweeps: int = 0
    streak: int = 0  # positive: wins in a row, negative: losses in a row (most recent games)
    partner: dict | None = None  # {"user_id", "name", "games", "wins"} the most frequent partner
    rating: dict | None = None  # this server's all-time rating and rank
    global_rating: dict | None = None  # shown only for players who opted in

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def made_rate(self) -> float | None:
        return self.contracts_made / self.contracts if self.contracts else None

    def streak_text(self) -> str:
        if not self.streak:
            return "—"
        return f"{abs(self.streak)} {'win' if self.streak > 0 else 'loss'}{'es' if self.streak < -1 else ''}" + (
            "s" if self.streak > 1 else ""
        )


async def player_stats(
    db: aiosqlite.Connection, guild_id: int, user_id: int, game: str | None = None
) -> list[GameStats]:
    """Statistics per game the player finished on this server (one game when ``game`` is given)."""
    where = f"p.user_id = ? AND r.guild_id = ? AND {_LIVE}" + (" AND r.game = ?" if game else "")
    params: tuple = (user_id, guild_id) + ((game,) if game else ())
    async with db.execute(
        "SELECT r.game, COUNT(*), SUM(p.won), SUM(r.deals), SUM(p.contracts), SUM(p.contracts_made), AVG(p.points),"
        f" SUM(p.sweeps) FROM result_players p JOIN game_results r ON r.id = p.result_id WHERE {where}"
        " GROUP BY r.game ORDER BY COUNT(*) DESC, r.game",
        params,
    ) as cur:
        found = [GameStats(r[0], r[1], r[2] or 0, r[3] or 0, r[4] or 0, r[5] or 0, r[6] or 0.0, r[7] or 0)
                 for r in await cur.fetchall()]  # fmt: skip
    opted = await _opted_in(db, user_id)
    for s in found:
        s.streak = await _streak(db, guild_id, user_id, s.game)
        s.partner = await _favourite_partner(db, guild_id, user_id, s.game)
        s.rating = await rating_of(db, guild_id, ALL, s.game, user_id)
        if opted:
            s.global_rating = await rating_of(db, GLOBAL, ALL, s.game, user_id)
    return found


async def _opted_in(db: aiosqlite.Connection, user_id: int) -> bool:
    async with db.execute("SELECT 1 FROM global_optin WHERE user_id = ?", (user_id,)) as cur:
        return await cur.fetchone() is not None


async def _streak(db: aiosqlite.Connection, guild_id: int, user_id: int, game: str) -> int:
    async with db.execute(
        "SELECT p.won FROM result_players p JOIN game_results r ON r.id = p.result_id"
        f" WHERE p.user_id = ? AND r.guild_id = ? AND r.game = ? AND {_LIVE} ORDER BY r.id DESC LIMIT 500",
        (user_id, guild_id, game),
    ) as cur:
        results = [r[0] for r in await cur.fetchall()]
    if not results:
        return 0
    first = results[0]
    n = 0
    for won in results:
        if won != first:
            break
        n += 1
    return n if first else -n


async def _favourite_partner(db: aiosqlite.Connection, guild_id: int, user_id: int, game: str) -> dict | None:
    async with db.execute(
        "SELECT q.user_id, MAX(q.name), COUNT(*) AS n, SUM(p.won) FROM result_players p"
        " JOIN result_players q ON q.result_id = p.result_id AND q.unit = p.unit AND q.seat != p.seat"
        " JOIN game_results r ON r.id = p.result_id"
        f" WHERE p.user_id = ? AND r.guild_id = ? AND r.game = ? AND q.user_id IS NOT NULL AND {_LIVE}"
        " GROUP BY q.user_id ORDER BY n DESC, SUM(p.won) DESC, q.user_id LIMIT 1",
        (user_id, guild_id, game),
    ) as cur:
        row = await cur.fetchone()
    return None if row is None else {"user_id": row[0], "name": row[1], "games": row[2], "wins": row[3]}


# --- a server's activity -----------------------------------------------------------------------------------------


@dataclass
class ServerStats:
    games_this_week: int = 0
    games_by_game: dict[str, int] = field(default_factory=dict)  # this week
    most_active: list[dict] = field(default_factory=list)  # this week: {"user_id", "name", "games"}
    games_all_time: int = 0


async def server_stats(db: aiosqlite.Connection, guild_id: int, now: datetime | None = None) -> ServerStats:
    since = ((now or datetime.now(UTC)) - timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%S")
    out = ServerStats()
    async with db.execute(
        f"SELECT r.game, COUNT(*) FROM game_results r WHERE r.guild_id = ? AND r.finished_at >= ? AND {_LIVE}"
        " GROUP BY r.game ORDER BY COUNT(*) DESC",
        (guild_id, since),
    ) as cur:
        out.games_by_game = {r[0]: r[1] for r in await cur.fetchall()}
    out.games_this_week = sum(out.games_by_game.values())
    async with db.execute(
        "SELECT p.user_id, MAX(p.name), COUNT(*) AS n FROM game_results r JOIN result_players p ON p.result_id = r.id"
        f" WHERE r.guild_id = ? AND r.finished_at >= ? AND p.user_id IS NOT NULL AND {_LIVE}"
        " GROUP BY p.user_id ORDER BY n DESC, p.user_id LIMIT 5",
        (guild_id, since),
    ) as cur:
        out.most_active = [{"user_id": r[0], "name": r[1], "games": r[2]} for r in await cur.fetchall()]
    async with db.execute(f"SELECT COUNT(*) FROM game_results r WHERE r.guild_id = ? AND {_LIVE}", (guild_id,)) as cur:
        row = await cur.fetchone()
    assert row is not None  # an aggregate always returns one row
    out.games_all_time = row[0]
    return out


async def most_played_game(db: aiosqlite.Connection, guild_id: int) -> str | None:
    async with db.execute(
        "SELECT game FROM ratings WHERE guild_id = ? AND scope = 'all' GROUP BY game ORDER BY SUM(games) DESC LIMIT 1",
        (guild_id,),
    ) as cur:
        row = await cur.fetchone()
    return row[0] if row else None


# --- a player's recent games -------------------------------------------------------------------------------------


async def history(db: aiosqlite.Connection, guild_id: int, user_id: int, limit: int = 10) -> list[dict]:
    """The player's most recent ended games here, newest first, with the all-time rating change of each."""
    async with db.execute(
        "SELECT r.table_id, r.game, r.finished_at, r.status, r.rated, r.unrated_reason, p.place, p.won, p.points,"
        " h.mu_before, h.sigma_before, h.mu_after, h.sigma_after, t.channel_id, t.message_id, x.reason"
        " FROM result_players p JOIN game_results r ON r.id = p.result_id JOIN tables t ON t.id = r.table_id"
        " LEFT JOIN rating_history h ON h.result_id = r.id AND h.guild_id = r.guild_id AND h.scope = 'all'"
        " AND h.user_id = p.user_id"
        " LEFT JOIN removed_games x ON x.result_id = r.id"
        " WHERE p.user_id = ? AND r.guild_id = ? ORDER BY r.id DESC LIMIT ?",
        (user_id, guild_id, limit),
    ) as cur:
        found = await cur.fetchall()
    out = []
    for r in found:
        change = None
        if r[9] is not None:
            change = display_number(r[11], r[12]) - display_number(r[9], r[10])
        out.append(
            {
                "table_id": r[0],
                "game": r[1],
                "finished_at": r[2],
                "status": r[3],
                "rated": bool(r[4]) and r[15] is None,
                "unrated_reason": r[5] if r[15] is None else f"removed: {r[15]}",
                "place": r[6] + 1,
                "won": bool(r[7]),
                "points": r[8],
                "rating_change": change,
                "channel_id": r[13],
                "message_id": r[14],
            }
        )
    return out
