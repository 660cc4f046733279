"""Replay speed: how long replaying a long record takes, per game (target: 1,000 actions in ≤ 20 ms).

Also prints random full deals per second through the generic API (legal_actions + apply), the path the bot and
`cardtable simulate` use; each game's own bench script measures its fast path.

    .venv/bin/python bench/bench_replay.py [--actions 1000] [--repeat 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rules.players import RandomPlayer, make_player
from rules.records import GameRecord, parse_record, replay
from rules.registry import games, new_match
from rules.simulate import recorded_game


def long_record(game: str, actions: int, seed: int) -> GameRecord:
    """A game between heuristic players (random ones end a game in a few deals), cut to ``actions`` actions; the
    target is raised until one game is long enough."""
    rng = random.Random(seed)
    players = [make_player("heuristic")] * new_match(game).players
    options: dict = {}
    for target in (None, 2000, 5000, 20000):
        if target is not None:
            options = {"target": target} if game != "da_bai_fen" else {"level_step": 20}
        record, _ = recorded_game(game, options, rng, players, max_deals=10_000)
        if sum(len(d.actions) for d in record.deals) >= actions:
            break
    total = 0
    for i, deal in enumerate(record.deals):
        if total + len(deal.actions) >= actions:
            deal.actions = deal.actions[: actions - total]
            record.deals = record.deals[: i + 1]
            return record
        total += len(deal.actions)
    return record


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':14} {'actions':>8} {'replay median ms':>17} {'p95 ms':>8} {'generic deals/s':>16}")
    for game in (found.id for found in games()):
        try:
            record = long_record(game, args.actions, seed=1)
        except Exception as e:  # a game not built yet
            print(f"{game:14} unavailable ({e})")
            continue
        n = sum(len(d.actions) for d in record.deals)
        obj = record.to_json()
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = replay(parse_record(obj))
            times.append((time.perf_counter() - start) * 1000)
            assert result.error is None
        times.sort()
        rng = random.Random(2)
        players = [RandomPlayer()] * new_match(game).players
        start = time.perf_counter()
        deals = 0
        while time.perf_counter() - start < 2.0:
            _, match = recorded_game(game, {}, rng, players, max_deals=50)
            deals += len(match.deal_results)
        per_second = deals / (time.perf_counter() - start)
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"{game:14} {n:>8} {statistics.median(times):>17.2f} {p95:>8.2f} {per_second:>16.0f}")


if __name__ == "__main__":
    main()
