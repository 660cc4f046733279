"""Leaderboards, statistics and history, from the results tables (the queries: ``bot/storage/stats.py``).

What counts in the statistics: every finished game on the server that was not removed by an administrator, rated
or not (a game against computer players still shows in a player's record).  Cancelled and abandoned games appear in
the history only.  Leaderboards show ratings, so only rated games move them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from bot.ratings.rating import display_number
from bot.storage import stats as queries
from bot.storage.results import ALL, GLOBAL, current_season, is_opted_in, month_scope, season_scope
from bot.storage.store import Store

PAGE_SIZE = 10
PERIODS = ("all", "season", "month", "global")


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


async def board_key(store: Store, guild_id: int, game: str, period: str, key: str | None = None) -> BoardKey:
    """Fill in the current season or month when none is given."""
    if period not in PERIODS:
        raise ValueError(f"unknown period {period!r}")
    if period == "season" and not key:
        key = str(await current_season(store, guild_id))
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


async def leaderboard(store: Store, key: BoardKey, page: int = 1, per_page: int = PAGE_SIZE) -> Board:
    """One page of a leaderboard, best conservative rating first."""
    guild_id, scope = key.where()
    global_board = key.period == "global"
    total = await queries.count_ratings(store, guild_id, scope, key.game, opted_in_only=global_board)
    pages = max(1, math.ceil(total / per_page))
    page = min(max(1, page), pages)
    offset = (page - 1) * per_page
    found = await queries.ratings_page(store, guild_id, scope, key.game, per_page, offset, opted_in_only=global_board)
    rows = [
        {
            "rank": offset + i + 1,
            "name": r.name,
            "rating": display_number(r.mu, r.sigma),
            "games": r.games,
            "win_rate": r.wins / r.games if r.games else 0.0,
            "user_id": r.user_id,
            "mu": r.mu,
            "sigma": r.sigma,
        }
        for i, r in enumerate(found)
    ]
    return Board(key, rows, page, pages, total)


async def rating_of(store: Store, guild_id: int, scope: str, game: str, user_id: int) -> dict | None:
    """A player's rating and rank in one table, or None before their first rated game there."""
    row = await queries.rating_row(store, guild_id, scope, game, user_id)
    if row is None:
        return None
    above = await queries.count_rated_above(store, guild_id, scope, game, row.ordinal)
    return {"rating": display_number(row.mu, row.sigma), "rank": above + 1, "mu": row.mu, "sigma": row.sigma,
            "games": row.games, "wins": row.wins}  # fmt: skip


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


async def player_stats(store: Store, guild_id: int, user_id: int, game: str | None = None) -> list[GameStats]:
    """Statistics per game the player finished on this server (one game when ``game`` is given)."""
    found = [
        GameStats(t.game, t.games, t.wins, t.deals, t.contracts, t.contracts_made, t.average_points, t.sweeps)
        for t in await queries.game_totals(store, guild_id, user_id, game)
    ]
    opted = await is_opted_in(store, user_id)
    for s in found:
        s.streak = _streak(await queries.recent_wins(store, guild_id, user_id, s.game))
        s.partner = await queries.favourite_partner(store, guild_id, user_id, s.game)
        s.rating = await rating_of(store, guild_id, ALL, s.game, user_id)
        if opted:
            s.global_rating = await rating_of(store, GLOBAL, ALL, s.game, user_id)
    return found


def _streak(wins: list[bool]) -> int:
    """Wins (positive) or losses (negative) in a row at the start of ``wins`` (newest first)."""
    if not wins:
        return 0
    first = wins[0]
    n = 0
    for won in wins:
        if won != first:
            break
        n += 1
    return n if first else -n


# --- a server's activity -----------------------------------------------------------------------------------------


@dataclass
class ServerStats:
    games_this_week: int = 0
    games_by_game: dict[str, int] = field(default_factory=dict)  # this week
    most_active: list[dict] = field(default_factory=list)  # this week: {"user_id", "name", "games"}
    games_all_time: int = 0


async def server_stats(store: Store, guild_id: int, now: datetime | None = None) -> ServerStats:
    since = ((now or datetime.now(UTC)) - timedelta(days=7)).strftime("%Y-%m-%dT%H:%M:%S")
    out = ServerStats()
    out.games_by_game = await queries.live_games_by_game(store, guild_id, since)
    out.games_this_week = sum(out.games_by_game.values())
    out.most_active = await queries.most_active_players(store, guild_id, since)
    out.games_all_time = await queries.count_live_games(store, guild_id)
    return out


async def most_played_game(store: Store, guild_id: int) -> str | None:
    return await queries.most_played_game(store, guild_id)


# --- a player's recent games -------------------------------------------------------------------------------------


async def history(store: Store, guild_id: int, user_id: int, limit: int = 10) -> list[dict]:
    """The player's most recent ended games here, newest first, with the all-time rating change of each."""
    out = []
    for g in await queries.past_games(store, guild_id, user_id, limit):
        change = None
        if g.rating_before is not None and g.rating_after is not None:
            change = display_number(*g.rating_after) - display_number(*g.rating_before)
        out.append(
            {
                "table_id": g.table_id,
                "game": g.game,
                "finished_at": g.finished_at,
                "status": g.status,
                "rated": g.rated and g.removed_reason is None,
                "unrated_reason": g.unrated_reason if g.removed_reason is None else f"removed: {g.removed_reason}",
                "place": g.place + 1,
                "won": g.won,
                "points": g.points,
                "rating_change": change,
                "channel_id": g.channel_id,
                "message_id": g.message_id,
            }
        )
    return out
