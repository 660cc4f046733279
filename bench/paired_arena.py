"""A lever measured with less noise than the arena: the same duplicate deals played by the master as committed and by
the master with the lever, both against the expert, every level searching a fixed number of worlds a decision.

    nice -n 19 .venv/bin/python bench/paired_arena.py --game da_bai_fen --matches 100 --seed 24001 \\
        --variant rules.ai.master.MasterPlayer.cautious_games='{"da_bai_fen": 0.5, "belote": 1.0}'
    ... --cache /tmp/control.json     (the control's results by seed, reused by the next lever on the same deals)

Why: at a time budget each decision's worlds depend on the machine's load, so two runs of the same deals part at the
first decision and one set of 100 deals moves by about ±0.1 between reruns (docs/ai.md, nineteenth session).  With
``worlds`` fixed (``make_ai_player(level, worlds=N)``) the arena is deterministic given its seed, so the control and
the variant play every deal alike until the lever first changes a decision; a deal the lever never touches ends the
same, and only the deals it touches carry noise.  The expert is the same in both runs.

Measure a lever on deals that did not choose the control's code: a lever kept because it did well on some deals is
lucky on them, and a later change to the same part of the code touches the same deals and regresses there, starting
behind.  At Da Bai Fen, 0.55 for ``SURPRISE`` did -0.030 on 25001-25200 (where the weighting by the play had been
kept for +0.055 and +0.070) and -0.0175 on 200 fresh deals (docs/ai.md, twenty-third session).

Choose ``--worlds`` near what the lever's decisions see at the arena's budget: at 0.1 s on this machine, two runs at
a time, the master's Belote calls median 32 worlds, its card play before the ending 50 (p10 24, p90 81), the solved
ending 75 (12 heuristic deals, twentieth session).  A lever whose effect depends on the worlds (a caution, a weight)
measured at fewer worlds than the arena's may not hold there.  The Belote card-play caution kept in the
twenty-first session did +0.033 +- 0.033 over 600 deals at 50 worlds; in the arena at 0.1 s the code with it won
0.595 over 1000 deals against 0.577 without (other deals), a gain of that size, below what the arena resolves.

``--streams``: every decision draws from a generator of its own, seeded by one draw from the sitting's.  Without
it the levels share the sitting's generator, so a lever that changes how many random draws a decision makes (more
or fewer worlds, a filter or weight that rejects more sampled hands) shifts every later decision's worlds, and every
deal ends differently (a lever written for a run, giving Belote's calls three times the worlds, changed all of its
first 19 deals); with it the same lever changed 111 of 200.  Its control is cached under its own key (with it the
same deals are played otherwise).

A ``--variant`` replaces the whole value: ``MasterPlayer.cautious_games='{"da_bai_fen": 0.5}'`` also drops Belote's
caution, so give every game's entry (``'{"da_bai_fen": 0.5, "belote": 1.0}'``).

Prints each run's won-lost-tied against the expert, how many deals ended differently, and the paired difference
(variant minus control) of the win score (1, ½, 0 a deal) and of the margin, with 95 % intervals from the per-deal
differences.  Figures only: the arena at the time budget (``cardtable simulate --arena``) stays the measure of the
goal.  ``--variant`` takes the ``--set`` form of the other scripts (``MODULE.NAME=VALUE``, a Python literal).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchkit import restore_constants, set_constants  # noqa: E402

from rules.ai.arena import ArenaResult, duplicate_match  # noqa: E402
from rules.ai.players import make_ai_player  # noqa: E402


class OwnStreams:
    """A player whose every decision draws from a generator of its own, seeded by one draw from the sitting's (see
    ``--streams``)."""

    def __init__(self, player) -> None:
        self.player = player

    def choose_view(self, view, rng: random.Random):
        return self.player.choose_view(view, random.Random(rng.getrandbits(64)))


def play(game: str, seed: int, worlds: int, timing: dict, streams: bool = False) -> float:
    """The master's margin over the expert on the arena's duplicate match ``seed`` (one deal, both sittings)."""
    players = {level: make_ai_player(level, worlds=worlds) for level in ("master", "expert")}
    if streams:
        players = {level: OwnStreams(p) for level, p in players.items()}
    return duplicate_match(game, {}, "master", "expert", players, seed, 1, timing)


def win_score(margin: float) -> float:
    return 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0


def mean_interval(diffs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95 % normal interval."""
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    return mean, 1.96 * math.sqrt(var / n)


def record(game: str, margins: list[float]) -> str:
    """Won-lost-tied, win rate and mean margin as the arena counts them (``ArenaResult``)."""
    r = ArenaResult(game, "master", "expert", matches=len(margins), margin=sum(margins))
    r.wins = sum(m > 0 for m in margins)
    r.losses = sum(m < 0 for m in margins)
    r.ties = r.matches - r.wins - r.losses
    return f"{r.wins}-{r.losses}-{r.ties} ({r.rate:.3f}), mean margin {r.margin / r.matches:+.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--matches", type=int, default=100)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--worlds", type=int, default=30, help="worlds a decision, both levels (default 30)")
    ap.add_argument("--variant", action="append", default=[], metavar="MODULE.NAME=VALUE")
    ap.add_argument("--cache", help="a JSON file of the control's margins by seed: read, and extended")
    ap.add_argument(
        "--streams",
        action="store_true",
        help="each decision draws from its own generator (for a lever that changes how many worlds a decision draws)",
    )
    args = ap.parse_args()
    if not args.variant:
        ap.error("give the lever: --variant MODULE.NAME=VALUE")
    key = f"{args.game}:{args.worlds}" + (":streams" if args.streams else "")
    cache: dict = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
    known = cache.setdefault(key, {})
    control: list[float] = []
    variant: list[float] = []
    timing: dict = {}
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.matches):
        if str(seed) not in known:
            known[str(seed)] = play(args.game, seed, args.worlds, {}, args.streams)
            if args.cache:
                with open(args.cache, "w") as f:
                    json.dump(cache, f)
        control.append(known[str(seed)])
        old = set_constants(args.variant)
        try:
            variant.append(play(args.game, seed, args.worlds, timing, args.streams))
        finally:
            restore_constants(old)
        c, v = control[-1], variant[-1]
        print(f"{seed}: control {c:+.2f}  variant {v:+.2f}{'' if c == v else '  *'}", flush=True)
    pairs = list(zip(control, variant, strict=True))
    n = len(pairs)
    differ = sum(c != v for c, v in pairs)
    wins, half = mean_interval([win_score(v) - win_score(c) for c, v in pairs])
    margins, mhalf = mean_interval([v - c for c, v in pairs])
    times = sorted(timing.get("master", [0.0]))
    p95 = times[int(0.95 * (len(times) - 1))]
    lever = " ".join(args.variant)
    print(f"\n{args.game}, seeds {args.seed}-{args.seed + n - 1}, {args.worlds} worlds a decision: {lever}")
    print(f"control  {record(args.game, control)}")
    print(f"variant  {record(args.game, variant)}")
    print(f"deals ended differently: {differ} of {n}")
    print(f"win rate variant - control: {wins:+.3f} ± {half:.3f} (95 %)")
    print(f"margin variant - control:   {margins:+.2f} ± {mhalf:.2f} (95 %)")
    print(f"variant master's decision p95 {p95 * 1000:.0f} ms; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
