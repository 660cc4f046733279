"""Benchmark: ``/leaderboard`` on a server with 100,000 finished games.

Builds (once, cached under /tmp) a database holding 100,000 rated four-player Belote games between 2,000 players on
one server, with ratings computed by the maintenance recomputation (its time is printed too), then measures:

- the query: ``stats.leaderboard`` for page 1 and a middle page (all time, this season, this month);
- query + render: the same plus ``render_leaderboard`` (the PNG the command sends);
- the whole command through the offline Discord (``/leaderboard``, interaction to response), when possible.

    .venv/bin/python bench/bench_leaderboard.py [--games 100000] [--rebuild]
    .venv/bin/python bench/bench_leaderboard.py --recompute-only   # /ratings recompute while play goes on

``--recompute-only``: on a copy of the database, ``recompute`` runs while a writer does what a game action does
(one single-statement write through the store every 5 ms); prints the recomputation's time, how long it held the
store's write lock, and how long the writes waited (median, p99, max).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import bot.storage.results as rs  # noqa: E402
from bot.presentation import images
from bot.ratings import stats  # noqa: E402
from bot.storage.stats import count_live_games  # noqa: E402
from bot.storage.store import Store  # noqa: E402

GUILD = 4242
PLAYERS = 2000


async def build(path: str, games: int) -> None:
    if os.path.exists(path):
        os.remove(path)
    store = await Store.open(path)
    rng = random.Random(1)
    month = time.strftime("%Y-%m", time.gmtime())
    conn_rows_tables, results, seats = [], [], []
    for g in range(1, games + 1):
        users = rng.sample(range(1, PLAYERS + 1), 4)
        winner = rng.randrange(2)
        conn_rows_tables.append((g, GUILD, "Bench", 1, "belote", "{}", users[0], "finished", 0))
        results.append(
            (g, g, GUILD, "belote", 4, "finished", 1, None, 1, month, f"{month}-01T12:00:00.000Z", 8,
             json.dumps([[0, 2], [1, 3]]), json.dumps([1000, 600] if winner == 0 else [600, 1000]), winner)
        )  # fmt: skip
        for seat, user in enumerate(users):
            unit = seat % 2
            seats.append((g, seat, user, None, f"player{user}", unit, 0 if unit == winner else 1, int(unit == winner),
                          1000 if unit == winner else 600, rng.randrange(3), rng.randrange(2), 0, 8, 0, 8))  # fmt: skip

    def insert(conn) -> None:
        conn.executemany(
            "INSERT INTO tables (id, guild_id, guild_name, channel_id, game, options, host_id, status, first_dealer)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            conn_rows_tables,
        )
        conn.executemany("INSERT INTO game_results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", results)
        conn.executemany(
            "INSERT INTO result_players (result_id, seat, user_id, computer, name, unit, place, won, points,"
            " contracts, contracts_made, sweeps, moves, standin_moves, player_moves) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?, ?, ?, ?, ?, ?)",
            seats,
        )

    await store.in_transaction(insert)
    start = time.perf_counter()
    count = await rs.recompute(store, ["belote"])
    print(f"built {games:,} games; recomputing every rating from the results took {time.perf_counter() - start:.1f} s"
          f" ({count:,} rated games, 4 scopes each)")  # fmt: skip
    await store.close()


def summary(label: str, samples: list[float]) -> None:
    ms = [s * 1000 for s in samples]
    print(f"{label:<44} median {statistics.median(ms):7.2f} ms   p95 {sorted(ms)[int(0.95 * len(ms)) - 1]:7.2f} ms"
          f"   max {max(ms):7.2f} ms")  # fmt: skip


async def measure(path: str, rounds: int) -> None:
    store = await Store.open(path)
    print(f"server {GUILD}: {await count_live_games(store, GUILD):,} finished games")
    for period in ("all", "season", "month"):
        key = await stats.board_key(store, GUILD, "belote", period)
        samples = []
        for i in range(rounds):
            start = time.perf_counter()
            board = await stats.leaderboard(store, key, page=1 + (i % 2) * 100)
            samples.append(time.perf_counter() - start)
        summary(f"query, {period} ({board.total:,} players, {board.pages} pages)", samples)
    from render import render_leaderboard

    key = await stats.board_key(store, GUILD, "belote", "all")
    samples = []
    for i in range(rounds):
        start = time.perf_counter()
        board = await stats.leaderboard(store, key, page=1 + (i % 2) * 100)
        rows = [{k: r[k] for k in ("rank", "name", "rating", "games", "win_rate")} for r in board.rows]
        png = render_leaderboard(rows, title="Belote Contrée — Bench, all time", page=board.page, pages=board.pages)
        samples.append(time.perf_counter() - start)
    summary(f"query + render ({len(png):,} byte PNG)", samples)
    await store.close()


async def through_discord(path: str, rounds: int) -> None:
    """The whole command: the fake Discord dispatches /leaderboard, the bot answers with the image."""
    import shutil
    import sqlite3

    from tests.botkit.harness import BotWorld
    from tests.fakediscord import FakeDiscord

    copy = path + ".discord.db"
    shutil.copyfile(path, copy)
    async with FakeDiscord() as fake:
        with fake.patched():
            world = BotWorld(fake, copy, images_on=True)
            db = sqlite3.connect(copy)  # the bench server becomes the fake's guild
            for table in ("tables", "game_results", "ratings"):
                db.execute(f"UPDATE {table} SET guild_id = ? WHERE guild_id = ?", (world.guild.id, GUILD))
            db.commit()
            db.close()
            async with world.running():
                samples = []
                for _ in range(rounds):
                    start = time.perf_counter()
                    result = await fake.slash(world.alice, world.channel, "leaderboard", {"game": "belote"})
                    await result.wait(10)
                    samples.append(time.perf_counter() - start)
                    assert result.message.attachments, result.content
                summary("through the offline Discord (with image)", samples)


async def recompute_under_play(path: str) -> None:
    import shutil

    copy = path + ".recompute.db"
    shutil.copyfile(path, copy)
    store = await Store.open(copy)
    held: list[float] = []
    swap = getattr(rs, "_swap", None)  # (None: a recompute that holds the lock throughout)

    def timed_swap(*args):
        start = time.perf_counter()
        try:
            return swap(*args)
        finally:
            held.append(time.perf_counter() - start)

    if swap:
        rs._swap = timed_swap
    waits: list[float] = []
    done = asyncio.Event()

    async def writer() -> None:
        while not done.is_set():
            start = time.perf_counter()
            await store.set_message(1, 1)
            waits.append(time.perf_counter() - start)
            await asyncio.sleep(0.005)

    task = asyncio.create_task(writer())
    start = time.perf_counter()
    count = await rs.recompute(store, ["belote"])
    total = time.perf_counter() - start
    done.set()
    await task
    if swap:
        rs._swap = swap
    ms = sorted(w * 1000 for w in waits)
    lock = f"{sum(held):.2f} s ({len(held)} swap(s))" if swap else "throughout"
    print(f"recompute of {count:,} rated games while play goes on: {total:.1f} s; the write lock held {lock};"
          f" {len(ms):,} writes meanwhile waited median {statistics.median(ms):.1f} ms,"
          f" p99 {ms[int(0.99 * len(ms)) - 1]:.1f} ms, max {ms[-1]:.0f} ms")  # fmt: skip
    await store.close()
    os.remove(copy)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--no-discord", action="store_true")
    parser.add_argument("--recompute-only", action="store_true", help="only /ratings recompute during play")
    parser.add_argument("--db", default=None, help="database file (default /tmp/cardtable-bench-leaderboard-N.db)")
    args = parser.parse_args()
    path = args.db or f"/tmp/cardtable-bench-leaderboard-{args.games}.db"
    if args.rebuild or not os.path.exists(path):
        asyncio.run(build(path, args.games))
    if args.recompute_only:
        asyncio.run(recompute_under_play(path))
        return 0
    images.enabled = True
    asyncio.run(measure(path, args.rounds))
    if not args.no_discord:
        try:
            asyncio.run(through_discord(path, max(5, args.rounds // 3)))
        except Exception as e:  # the query figures stand alone
            print(f"through the offline Discord: not measured ({type(e).__name__}: {e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
