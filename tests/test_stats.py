"""bot/ratings/stats.py: leaderboard pages, player statistics, server activity and history, from played games."""

from __future__ import annotations

import random

import bot.storage.results as rs
from bot.ratings import stats
from tests.test_ratings_store import GUILD, manager_for, play, rows, seated, store  # noqa: F401


async def test_leaderboard_pages_and_order(store):  # noqa: F811
    manager = manager_for(store)
    rng = random.Random(2)
    for i in range(8):
        table = await seated(manager, [1 + i, 2 + i, 3 + i])  # 10 different players over the games
        await play(manager, table, rng)
    key = await stats.board_key(store, GUILD, "toy", "all")
    first = await stats.leaderboard(store, key, page=1, per_page=4)
    assert first.total == 10 and first.pages == 3 and len(first.rows) == 4
    second = await stats.leaderboard(store, key, page=2, per_page=4)
    last = await stats.leaderboard(store, key, page=9, per_page=4)  # clamped to the last page
    assert last.page == 3 and len(last.rows) == 2
    everyone = first.rows + second.rows + last.rows
    assert [r["rank"] for r in everyone] == list(range(1, 11))
    ratings = [r["mu"] - 3 * r["sigma"] for r in everyone]
    assert ratings == sorted(ratings, reverse=True)
    assert len({r["user_id"] for r in everyone}) == 10
    assert all(set(r) >= {"rank", "name", "rating", "games", "win_rate"} for r in everyone)

    season = await stats.board_key(store, GUILD, "toy", "season")
    assert season.key == "1" and (await stats.leaderboard(store, season)).total == 10
    month = await stats.board_key(store, GUILD, "toy", "month")
    assert (await stats.leaderboard(store, month)).total == 10
    await rs.start_season(store, GUILD, by=1)
    assert (await stats.leaderboard(store, await stats.board_key(store, GUILD, "toy", "season"))).total == 0
    assert (await stats.leaderboard(store, season)).total == 10  # the old season stays viewable


async def test_global_board_lists_only_opted_in_players(store):  # noqa: F811
    manager = manager_for(store)
    table = await seated(manager, [1, 2, 3])
    await play(manager, table, random.Random(3))
    key = await stats.board_key(store, GUILD, "toy", "global")
    assert (await stats.leaderboard(store, key)).total == 0
    await rs.set_global_optin(store, 2, True)
    board = await stats.leaderboard(store, key)
    assert [r["user_id"] for r in board.rows] == [2]
    await rs.set_global_optin(store, 2, False)
    assert (await stats.leaderboard(store, key)).total == 0


async def test_player_stats_history_and_server_activity(store):  # noqa: F811
    manager = manager_for(store)
    rng = random.Random(4)
    tables = []
    for _ in range(5):
        table = await seated(manager, [1, 2, 3, 4], players=4)
        await play(manager, table, rng)
        tables.append(table)
    results = await rows(
        store,
        "SELECT p.won, r.deals, p.contracts, p.contracts_made, p.points FROM result_players p"
        " JOIN game_results r ON r.id = p.result_id WHERE p.user_id = 1 ORDER BY r.id",
    )
    (s,) = await stats.player_stats(store, GUILD, 1)
    assert s.game == "toy" and s.games == 5
    assert s.wins == sum(r[0] for r in results)
    assert s.deals == sum(r[1] for r in results)
    assert (s.contracts, s.contracts_made) == (sum(r[2] for r in results), sum(r[3] for r in results))
    assert s.average_points == sum(r[4] for r in results) / 5
    expected_streak = 0
    for won, *_ in reversed(results):
        if expected_streak and (won > 0) != (expected_streak > 0):
            break
        expected_streak += 1 if won else -1
    assert s.streak == expected_streak
    assert s.rating is not None and s.rating["games"] == 5 and 1 <= s.rating["rank"] <= 4
    assert s.global_rating is None  # not opted in
    assert s.partner is None  # the toy game is every player for themselves

    past = await stats.history(store, GUILD, 1, limit=3)
    assert [h["table_id"] for h in past] == [t.id for t in reversed(tables)][:3]
    assert all(h["rated"] and h["rating_change"] is not None for h in past)

    await rs.remove_game(store, GUILD, tables[-1].id, by=9, reason="test")
    (s,) = await stats.player_stats(store, GUILD, 1)
    assert s.games == 4
    past = await stats.history(store, GUILD, 1, limit=1)
    assert not past[0]["rated"] and "removed: test" in past[0]["unrated_reason"]

    server = await stats.server_stats(store, GUILD)
    assert server.games_this_week == 4 and server.games_by_game == {"toy": 4}
    assert {p["user_id"] for p in server.most_active} == {1, 2, 3, 4}
    assert await stats.most_played_game(store, GUILD) == "toy"


async def test_favourite_partner_in_a_partnership_game(store):  # noqa: F811
    """Seats 0 and 2 are partners in a four-player Belote; the record's teams drive the statistics."""
    from bot.storage.store import FINISHED

    manager = manager_for(store)
    row = (await seated(manager, [1, 2, 3, 4], players=4)).row
    row.game, row.options = "belote", {}
    deal = {"thrown_in": False, "made": True, "contract": {"seat": 0}, "tricks": [8, 0]}
    output = {"phase": "game_over", "scores": [1010, 300], "winner": 0, "deal_results": [deal]}
    row.id = 999
    await store.write_one(
        "INSERT INTO tables (id, guild_id, channel_id, game, host_id, status) VALUES (999, ?, 5, 'belote', 1, ?)",
        (GUILD, FINISHED),
    )
    await rs.record_end(store, row, output, FINISHED)
    (s,) = await stats.player_stats(store, GUILD, 1, "belote")
    assert s.partner["user_id"] == 3 and s.partner["games"] == 1 and s.sweeps == 1
    assert s.contracts == s.contracts_made == 1 and s.streak == 1
