"""Results and ratings in the store: written with the game's end, idempotent, crash-safe, recomputable."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import textwrap

import pytest

import bot.storage.results as rs
import tests.botkit.toy  # noqa: F401  (registers the toy game)
from bot.storage.engines import open_store
from bot.storage.player_settings import PlayerSettings
from bot.storage.store import CANCELLED, FINISHED, PLAYING, Store
from bot.tables.service import Refusal, TableManager
from rules.game import GAME_OVER

GUILD, OTHER_GUILD = 7, 8


@pytest.fixture
async def store(database):
    s = await open_store(database)
    yield s
    await s.close()


@pytest.fixture
async def sqlite_store(tmp_path):
    """For the recomputation from a second connection's snapshot, which only SQLite's WAL file offers (on
    PostgreSQL the work is done in the one transaction, which holds only the ratings' lock)."""
    s = await Store.open(str(tmp_path / "snapshot.db"))
    yield s
    await s.close()


def manager_for(store, seed=1):
    return TableManager(store, None, ai_delay=0, rng=random.Random(seed))


async def seated(manager, users, *, guild=GUILD, computers=0, players=None):
    players = players or len(users) + computers
    host = users[0]
    table = await manager.create(
        game="toy",
        options={"players": players},
        preset=None,
        host_id=host,
        host_name=f"u{host}",
        channel_id=5,
        guild_id=guild,
        guild_name="Club",
    )
    for u in users[1:]:
        await manager.join(table.id, u, f"u{u}")
    for _ in range(computers):
        await manager.add_computer(table.id, host)
    await manager.start(table.id, host)
    return table


async def play(manager, table, rng, *, stop_before_last=False):
    """Random legal actions by the seated humans until the game ends (or just before its last action)."""
    users = {s: r.user_id for s, r in table.seats.items()}
    for user_id in users.values():  # every card by these players: none played for them (their forced cards too)
        if user_id is not None:
            await manager.set_player_settings(user_id, PlayerSettings(auto_play=False))
    for _ in range(2000):
        await asyncio.sleep(0)
        match = table.match
        if match.phase == GAME_OVER:
            return None
        seat = match.to_move
        legal = [a for a in match.legal_actions() if a.seat == seat]
        if table.is_computer(seat) or not legal:  # (or between deals: the next one is being saved)
            await asyncio.sleep(0.001)
            continue
        action = rng.choice(legal)
        if stop_before_last:
            probe = match.clone()
            probe.apply(action)
            if probe.phase == GAME_OVER:
                return users[seat], action
        body = action.to_json()
        del body["seat"]
        await manager.act(table.id, users[seat], body, expected_version=table.version)
    raise AssertionError("the game did not end")


async def rows(store, sql, params=()):
    return [tuple(r) for r in await store.fetch_all(sql, params)]


async def ratings_table(store):
    return await rows(store, "SELECT * FROM ratings ORDER BY guild_id, scope, game, user_id")


async def history_table(store):
    return await rows(store, "SELECT * FROM rating_history ORDER BY result_id, guild_id, scope, user_id")


async def test_a_finished_game_is_recorded_and_rated_with_its_end(store):
    manager = manager_for(store)
    table = await seated(manager, [1, 2])
    await play(manager, table, random.Random(1))
    (result,) = await rows(store, "SELECT table_id, guild_id, status, rated, winner, season FROM game_results")
    assert result[:4] == (table.id, GUILD, FINISHED, 1) and result[5] == 1
    winner_user = table.seats[result[4]].user_id
    scopes = await rows(store, "SELECT guild_id, scope, user_id, games, wins FROM ratings ORDER BY 1, 2, 3")
    month = (await rows(store, "SELECT month FROM game_results"))[0][0]
    expected_scopes = {(0, "all"), (GUILD, "all"), (GUILD, "season:1"), (GUILD, f"month:{month}")}
    assert {(g, s) for g, s, *_ in scopes} == expected_scopes
    for _, _, user, games, wins in scopes:
        assert games == 1 and wins == (user == winner_user)
    assert len(await history_table(store)) == 8


async def test_games_with_a_computer_or_cancelled_are_recorded_unrated(store):
    manager = manager_for(store)
    with_ai = await seated(manager, [1], computers=1)
    await play(manager, with_ai, random.Random(2))
    for _ in range(100):
        await asyncio.sleep(0.001)
        if with_ai.status == FINISHED:
            break
    cancelled = await seated(manager, [1, 2])
    await manager.cancel(cancelled.id, 1, admin=True)  # a running game: a server admin's moderation
    got = await rows(store, "SELECT table_id, status, rated, unrated_reason FROM game_results ORDER BY table_id")
    assert got[0][:3] == (with_ai.id, FINISHED, 0) and "computer player" in got[0][3]
    assert got[1][:3] == (cancelled.id, CANCELLED, 0) and "cancelled" in got[1][3]
    assert await ratings_table(store) == []
    assert (await store.load_table(cancelled.id)).status == CANCELLED


async def test_writing_a_result_twice_counts_it_once(store):
    manager = manager_for(store)
    table = await seated(manager, [1, 2])
    await play(manager, table, random.Random(3))
    before = await ratings_table(store)
    assert await rs.record_end(store, table.row, table.match.output(), FINISHED) is None
    assert await rs.reconcile(store) == []
    assert await ratings_table(store) == before
    assert len(await rows(store, "SELECT * FROM game_results")) == 1


@pytest.mark.parametrize("where", ["action", "status", "result", "players", "ratings"])
async def test_a_crash_between_the_writes_loses_nothing_and_counts_nothing_twice(database, where):
    path = database
    store = await open_store(path)
    manager = manager_for(store)
    table = await seated(manager, [1, 2])
    user, last = await play(manager, table, random.Random(4), stop_before_last=True)
    body = last.to_json()
    del body["seat"]

    def crash(at):
        if at == where:
            raise RuntimeError(f"injected crash after {at}")

    rs.between_writes = crash
    try:
        with pytest.raises(Refusal, match="could not be saved"):
            await manager.act(table.id, user, body)
    finally:
        rs.between_writes = None
    assert await rows(store, "SELECT * FROM game_results") == []
    assert await ratings_table(store) == []
    assert (await store.load_table(table.id)).status == PLAYING
    await manager.close()
    await store.close()

    # The restart: the table is rebuilt from the store, the last card is played again and counted once.
    store = await open_store(path)
    manager = manager_for(store)
    (resumed,) = await manager.resume_all()
    assert resumed.match.phase != GAME_OVER
    await manager.act(resumed.id, user, body)
    assert (await store.load_table(table.id)).status == FINISHED
    assert len(await rows(store, "SELECT * FROM game_results")) == 1
    assert {r[8] for r in await ratings_table(store)} == {1}  # every rating row counts one game
    await store.close()


KILLER = textwrap.dedent(
    """
    import asyncio, os, random, sys
    sys.path.insert(0, {root!r})
    import tests.botkit.toy
    import bot.storage.results as rs
    from bot.storage.engines import open_store
    from tests.test_ratings_store import manager_for, seated, play

    async def main():
        store = await open_store({path!r})
        manager = manager_for(store)
        table = await seated(manager, [1, 2])
        user, last = await play(manager, table, random.Random(5), stop_before_last=True)
        body = last.to_json()
        del body["seat"]
        print(table.id, user, flush=True)
        rs.between_writes = lambda at: os._exit(9) if at == {where!r} else None
        await manager.act(table.id, user, body)

    asyncio.run(main())
    """
)


@pytest.mark.parametrize("where", ["result", "ratings"])
async def test_a_killed_process_between_the_writes_leaves_the_game_to_be_finished(database, where):
    """The process dies (no rollback, no clean-up) inside the game-end transaction; the restart finishes it."""
    path = database
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    script = KILLER.format(root=root, path=path, where=where)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=root)
    assert proc.returncode == 9, proc.stderr
    table_id, user = map(int, proc.stdout.split())
    store = await open_store(path)
    try:
        assert await rows(store, "SELECT * FROM game_results") == []
        manager = manager_for(store)
        (table,) = await manager.resume_all()
        await play(manager, table, random.Random(99))
        assert len(await rows(store, "SELECT * FROM game_results WHERE table_id = ?", (table_id,))) == 1
        assert {r[8] for r in await ratings_table(store)} == {1}
    finally:
        await store.close()


async def play_many(store, n, seed=0):
    rng = random.Random(seed)
    manager = manager_for(store, seed)
    users = [1, 2, 3, 4, 5]
    tables = []
    for i in range(n):
        size = rng.choice([2, 3, 4])
        who = rng.sample(users, size)
        table = await seated(manager, who, guild=GUILD if i % 3 else OTHER_GUILD)
        await play(manager, table, rng)
        tables.append(table)
        if i == n // 2:
            await rs.start_season(store, GUILD, by=1)
    return tables


async def test_recomputing_all_ratings_gives_the_same_table(store):
    await play_many(store, 12)
    ratings, history = await ratings_table(store), await history_table(store)
    assert len({r[1] for r in ratings}) >= 4  # all, two seasons, a month
    assert any(r[1] == "season:2" for r in ratings)
    assert await rs.recompute(store) == 12
    assert await ratings_table(store) == ratings
    assert await history_table(store) == history


async def test_removing_a_game_recomputes_without_it_and_is_logged(store):
    tables = await play_many(store, 6, seed=1)
    victim = next(t for t in tables if t.row.guild_id == GUILD)
    await rs.remove_game(store, GUILD, victim.id, by=1, reason="players colluded")
    after = await ratings_table(store)
    assert sum(r[8] for r in after if r[0] == 0) == sum(len(t.seats) for t in tables) - len(victim.seats)
    assert await rs.recompute(store) == 5
    assert await ratings_table(store) == after
    (entry,) = await rows(store, "SELECT guild_id, user_id, event, detail FROM rating_log WHERE event = 'remove'")
    assert entry[:3] == (GUILD, 1, "remove") and "players colluded" in entry[3]
    with pytest.raises(LookupError, match="already removed"):
        await rs.remove_game(store, GUILD, victim.id, by=1, reason="again")
    with pytest.raises(LookupError, match="no recorded result"):
        await rs.remove_game(store, OTHER_GUILD, victim.id, by=1, reason="wrong server")


async def full_recompute(store):
    """The reference: everything rebuilt inside one transaction."""
    return await store.in_transaction(lambda conn: rs._recompute(conn, rs._all_games(conn)))


async def test_recompute_from_a_snapshot_counts_the_games_that_end_meanwhile(sqlite_store):
    """The ratings are computed from a snapshot outside the write lock; games that end before the swap are rated in
    it, on top of the snapshot, in result order: the same tables as a full recomputation, nothing counted twice."""
    store = sqlite_store
    tables = await play_many(store, 8, seed=3)
    path = await rs._database_file(store)
    assert path
    snap = await asyncio.to_thread(rs._plan, path, None)
    assert snap.upserts and not any(snap.upserts.values()) and not any(snap.deletes.values())  # nothing to fix
    manager = manager_for(store, seed=4)
    for who in ([1, 2, 3, 4], [2, 5]):
        await play(manager, await seated(manager, who), random.Random(len(who)))
    incremental = await ratings_table(store), await history_table(store)
    assert await store.in_transaction(rs._swap, snap, None) == len(tables) + 2
    assert (await ratings_table(store), await history_table(store)) == incremental
    assert await full_recompute(store) == len(tables) + 2
    assert (await ratings_table(store), await history_table(store)) == incremental


async def test_recompute_repairs_wrong_rows_and_a_removal_meanwhile_makes_the_snapshot_stale(sqlite_store):
    store = sqlite_store
    tables = await play_many(store, 8, seed=5)
    ratings, history = await ratings_table(store), await history_table(store)
    await store.write_all(
        [
            ("UPDATE ratings SET mu = mu + 1, games = games + 1", ()),
            ("UPDATE rating_history SET mu_after = 0 WHERE user_id % 2 = 0", ()),
            (
                "INSERT INTO rating_history SELECT result_id, guild_id, 'month:1999-01', user_id, mu_before,"
                " sigma_before, mu_after, sigma_after FROM rating_history LIMIT 2",
                (),
            ),
        ]
    )
    assert await rs.recompute(store) == len(tables)
    assert (await ratings_table(store), await history_table(store)) == (ratings, history)
    path = await rs._database_file(store)
    snap = await asyncio.to_thread(rs._plan, path, None)
    victim = next(t for t in tables if t.row.guild_id == GUILD)
    await rs.remove_game(store, GUILD, victim.id, by=1, reason="test")
    with pytest.raises(rs._StaleSnapshot):
        await store.in_transaction(rs._swap, snap, None)
    after = await ratings_table(store), await history_table(store)
    assert await rs.recompute(store) == len(tables) - 1
    assert (await ratings_table(store), await history_table(store)) == after


async def test_removing_a_game_from_a_snapshot_gives_the_full_recomputation(store):
    """``remove_game`` computes the game's ratings without it outside the write lock, then removes it and writes
    them in one transaction: the same tables as removing it and recomputing everything inside one transaction."""
    tables = await play_many(store, 8, seed=7)
    victim = next(t for t in tables if t.row.guild_id == GUILD)
    result = await rs.remove_game(store, GUILD, victim.id, by=1, reason="test")
    assert result["table_id"] == victim.id
    after = await ratings_table(store), await history_table(store)
    assert not [r for r in after[1] if r[0] == result["id"]]
    assert await full_recompute(store) == len(tables) - 1
    assert (await ratings_table(store), await history_table(store)) == after


async def test_a_finished_table_without_a_result_is_recorded_at_start_up(store):
    """A database written before results existed (or by the plain action path) is reconciled once."""
    manager = manager_for(store)
    table = await seated(manager, [1, 2])
    user, last = await play(manager, table, random.Random(6), stop_before_last=True)
    record = table.record
    await store.append_action(table.id, len(record.deals) - 1, len(record.deals[-1].actions), last.to_json(),
                              finished=True)  # fmt: skip
    assert await rows(store, "SELECT * FROM game_results") == []
    assert await rs.reconcile(store) == [table.id]
    assert await rs.reconcile(store) == []
    (result,) = await rows(store, "SELECT status, rated FROM game_results")
    assert result == (FINISHED, 1)


async def test_seasons_keep_the_old_ones(store):
    assert await rs.current_season(store, GUILD) == 1
    assert await rs.start_season(store, GUILD, by=1) == 2
    assert await rs.start_season(store, GUILD, by=1) == 3
    assert [s["number"] for s in await rs.seasons(store, GUILD)] == [1, 2, 3]
    assert await rs.current_season(store, OTHER_GUILD) == 1
