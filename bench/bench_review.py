"""What Look back, Review and a spectator's Refresh cost: telling a deal (``rules.review.deal_story``) replays the
table's record up to it, so a long game's last deal is the worst case.  Prints, per game, milliseconds to tell the
last deal of a 1,000-action record and to work out what may be looked back at (``rules.lookback.look_back``).

    .venv/bin/python bench/bench_review.py [--actions 1000] [--repeat 10]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_replay import long_record

from rules.lookback import look_back
from rules.registry import games
from rules.review import deal_story


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    for game in (found.id for found in games()):
        record = long_record(game, args.actions, seed=15)
        last = len(record.deals) - 1
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            look_back(deal_story(record, last))
            times.append(time.perf_counter() - start)
        actions = sum(len(d.actions) for d in record.deals)
        print(
            f"{game:13} {len(record.deals):3} deals, {actions:5} actions: tell the last deal and look back "
            f"median {statistics.median(times) * 1000:6.1f} ms, max {max(times) * 1000:6.1f} ms"
        )


if __name__ == "__main__":
    main()
