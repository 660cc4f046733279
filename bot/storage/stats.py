"""The read-only queries behind leaderboards, statistics and history (``bot/ratings/stats.py`` shapes them).

What counts as a *live* result: a finished game that no administrator removed.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.results import GLOBAL
from bot.storage.store import Store

_LIVE = "r.status = 'finished' AND NOT EXISTS (SELECT 1 FROM removed_games x WHERE x.result_id = r.id)"
_OPTED_IN = " AND user_id IN (SELECT user_id FROM global_optin)"


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    wins: int


@dataclass(frozen=True)
class GameTotals:
    """A player's sums over their live results of one game on one server."""

    game: str
    games: int
    wins: int
    deals: int
    contracts: int
    contracts_made: int
    average_points: float
    sweeps: int


@dataclass(frozen=True)
class PastGame:
    """One ended game in a player's history, with the all-time rating before and after it (when it was rated)."""

    table_id: int
    game: str
    finished_at: str
    status: str
    rated: bool
    unrated_reason: str | None
    place: int  # 0 for the winners
    won: bool
    points: int
    rating_before: tuple[float, float] | None  # (mu, sigma)
    rating_after: tuple[float, float] | None
    channel_id: int
    message_id: int | None
    removed_reason: str | None


async def count_ratings(store: Store, guild_id: int, scope: str, game: str, *, opted_in_only: bool = False) -> int:
    optin = _OPTED_IN if opted_in_only else ""
    row = await store.fetch_one(
        f"SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND scope = ? AND game = ?{optin}", (guild_id, scope, game)
    )
    return int(row[0]) if row else 0


async def ratings_page(
    store: Store, guild_id: int, scope: str, game: str, limit: int, offset: int, *, opted_in_only: bool = False
) -> list[RatingRow]:
    """Best conservative rating first (one indexed range scan)."""
    optin = _OPTED_IN if opted_in_only else ""
    rows = await store.fetch_all(
        "SELECT user_id, name, mu, sigma, ordinal, games, wins FROM ratings WHERE guild_id = ? AND scope = ?"
        f" AND game = ?{optin} ORDER BY ordinal DESC, user_id LIMIT ? OFFSET ?",
        (guild_id, scope, game, limit, offset),
    )
    return [RatingRow(*r) for r in rows]


async def rating_row(store: Store, guild_id: int, scope: str, game: str, user_id: int) -> RatingRow | None:
    row = await store.fetch_one(
        "SELECT user_id, name, mu, sigma, ordinal, games, wins FROM ratings WHERE guild_id = ? AND scope = ?"
        " AND game = ? AND user_id = ?",
        (guild_id, scope, game, user_id),
    )
    return RatingRow(*row) if row else None


async def count_rated_above(store: Store, guild_id: int, scope: str, game: str, ordinal: float) -> int:
    """How many players of the table rank above ``ordinal`` (on the global table: of those who opted in)."""
    optin = _OPTED_IN if guild_id == GLOBAL else ""
    row = await store.fetch_one(
        f"SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND scope = ? AND game = ? AND ordinal > ?{optin}",
        (guild_id, scope, game, ordinal),
    )
    return int(row[0]) if row else 0


async def game_totals(store: Store, guild_id: int, user_id: int, game: str | None = None) -> list[GameTotals]:
    """Per game the player finished on this server (one game when ``game`` is given), most played first."""
    where = f"p.user_id = ? AND r.guild_id = ? AND {_LIVE}" + (" AND r.game = ?" if game else "")
    params: tuple = (user_id, guild_id) + ((game,) if game else ())
    rows = await store.fetch_all(
        "SELECT r.game, COUNT(*), SUM(p.won), SUM(r.deals), SUM(p.contracts), SUM(p.contracts_made), AVG(p.points),"
        f" SUM(p.sweeps) FROM result_players p JOIN game_results r ON r.id = p.result_id WHERE {where}"
        " GROUP BY r.game ORDER BY COUNT(*) DESC, r.game",
        params,
    )
    return [GameTotals(r[0], r[1], r[2] or 0, r[3] or 0, r[4] or 0, r[5] or 0, r[6] or 0.0, r[7] or 0) for r in rows]


async def recent_wins(store: Store, guild_id: int, user_id: int, game: str, limit: int = 500) -> list[bool]:
    """Whether the player won each of their latest live games of ``game`` here, newest first."""
    rows = await store.fetch_all(
        "SELECT p.won FROM result_players p JOIN game_results r ON r.id = p.result_id"
        f" WHERE p.user_id = ? AND r.guild_id = ? AND r.game = ? AND {_LIVE} ORDER BY r.id DESC LIMIT ?",
        (user_id, guild_id, game, limit),
    )
    return [bool(r[0]) for r in rows]


async def favourite_partner(store: Store, guild_id: int, user_id: int, game: str) -> dict | None:
    """The player's most frequent partner in live games: {"user_id", "name", "games", "wins"}."""
    row = await store.fetch_one(
        "SELECT q.user_id, MAX(q.name), COUNT(*) AS n, SUM(p.won) FROM result_players p"
        " JOIN result_players q ON q.result_id = p.result_id AND q.unit = p.unit AND q.seat != p.seat"
        " JOIN game_results r ON r.id = p.result_id"
        f" WHERE p.user_id = ? AND r.guild_id = ? AND r.game = ? AND q.user_id IS NOT NULL AND {_LIVE}"
        " GROUP BY q.user_id ORDER BY n DESC, SUM(p.won) DESC, q.user_id LIMIT 1",
        (user_id, guild_id, game),
    )
    return None if row is None else {"user_id": row[0], "name": row[1], "games": row[2], "wins": row[3]}


async def live_games_by_game(store: Store, guild_id: int, since: str) -> dict[str, int]:
    """Live games on the server that ended at or after ``since`` (ISO time), per game, most played first."""
    rows = await store.fetch_all(
        f"SELECT r.game, COUNT(*) FROM game_results r WHERE r.guild_id = ? AND r.finished_at >= ? AND {_LIVE}"
        " GROUP BY r.game ORDER BY COUNT(*) DESC",
        (guild_id, since),
    )
    return {r[0]: r[1] for r in rows}


async def most_active_players(store: Store, guild_id: int, since: str, limit: int = 5) -> list[dict]:
    """Who played the most live games on the server since ``since``: {"user_id", "name", "games"}."""
    rows = await store.fetch_all(
        "SELECT p.user_id, MAX(p.name), COUNT(*) AS n FROM game_results r JOIN result_players p ON p.result_id = r.id"
        f" WHERE r.guild_id = ? AND r.finished_at >= ? AND p.user_id IS NOT NULL AND {_LIVE}"
        " GROUP BY p.user_id ORDER BY n DESC, p.user_id LIMIT ?",
        (guild_id, since, limit),
    )
    return [{"user_id": r[0], "name": r[1], "games": r[2]} for r in rows]


async def count_live_games(store: Store, guild_id: int) -> int:
    row = await store.fetch_one(f"SELECT COUNT(*) FROM game_results r WHERE r.guild_id = ? AND {_LIVE}", (guild_id,))
    return int(row[0]) if row else 0


async def most_played_game(store: Store, guild_id: int) -> str | None:
    """The game with the most rated games on the server, by its players' all-time counts."""
    row = await store.fetch_one(
        "SELECT game FROM ratings WHERE guild_id = ? AND scope = 'all' GROUP BY game ORDER BY SUM(games) DESC LIMIT 1",
        (guild_id,),
    )
    return row[0] if row else None


async def past_games(store: Store, guild_id: int, user_id: int, limit: int) -> list[PastGame]:
    """The player's most recent ended games here (any status, removed ones too), newest first."""
    rows = await store.fetch_all(
        "SELECT r.table_id, r.game, r.finished_at, r.status, r.rated, r.unrated_reason, p.place, p.won, p.points,"
        " h.mu_before, h.sigma_before, h.mu_after, h.sigma_after, t.channel_id, t.message_id, x.reason"
        " FROM result_players p JOIN game_results r ON r.id = p.result_id JOIN tables t ON t.id = r.table_id"
        " LEFT JOIN rating_history h ON h.result_id = r.id AND h.guild_id = r.guild_id AND h.scope = 'all'"
        " AND h.user_id = p.user_id"
        " LEFT JOIN removed_games x ON x.result_id = r.id"
        " WHERE p.user_id = ? AND r.guild_id = ? ORDER BY r.id DESC LIMIT ?",
        (user_id, guild_id, limit),
    )
    return [
        PastGame(
            table_id=r[0],
            game=r[1],
            finished_at=r[2],
            status=r[3],
            rated=bool(r[4]),
            unrated_reason=r[5],
            place=r[6],
            won=bool(r[7]),
            points=r[8],
            rating_before=None if r[9] is None else (r[9], r[10]),
            rating_after=None if r[9] is None else (r[11], r[12]),
            channel_id=r[13],
            message_id=r[14],
            removed_reason=r[15],
        )
        for r in rows
    ]
