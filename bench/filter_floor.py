"""How far under their bids do the levels' Belote bidders really hold, against the bidding filter's floor?

    nice -n 19 .venv/bin/python bench/diagnose_arena.py --game belote --deals 80 --seed 16001 --calls > arena.log
    .venv/bin/python bench/filter_floor.py arena.log [more logs]

Reads the sittings ``bench/diagnose_arena.py --calls`` printed (seat:level-initial:call), rebuilds each deal's true
hands from its seed (the arena's deal), and for every Belote bid prints ``belote_estimate`` of the bidder's true hand
in the bid's suit minus the bid, by level and by how the bid was made: the auction's first bid, over the other side's
bid, over the partner's bid in another suit, or in a suit the partner bid before.  Then the share of the sittings
whose true deal the filter (``heuristic.bidding_filter``) would reject, with the expert's margins and with each
kind's 5th percentile rounded up to 5 (never under the expert's).  Figures only (docs/ai.md, eighth session).
"""

from __future__ import annotations

import math
import os
import re
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchkit import arena_match  # noqa: E402

from rules.ai.heuristic import belote_estimate  # noqa: E402

SITTING = re.compile(r"^  seed (\d+) A at side (\d): (.*) -> ")
EXPERTS = {"opening": 25, "opp": 25, "partner": 25, "raised": 45}  # the expert's filter: 45 when the partner bid it


def true_hands(seed: int) -> list[tuple[int, ...]]:
    """The arena's Belote deal for ``seed`` (as ``diagnose_arena.py`` and ``rules/ai/arena.py`` deal it)."""
    m, _ = arena_match("belote", seed)
    return [tuple(m.hand(s)) for s in range(4)]


def bids_of(calls: str) -> list[tuple[int, str, int, int]]:
    """The sitting's bids in suits as (seat, level initial, suit, value); passes, counters and capot left out."""
    out = []
    for token in calls.split():
        seat, level, what = token.split(":")
        if what in ("pass", "counter", "recounter") or not what[1:].isdigit():
            continue
        out.append((int(seat), level, int(what[0]), int(what[1:])))
    return out


def kind_of(bids: list[tuple[int, str, int, int]], i: int) -> str:
    seat, _, suit, _ = bids[i]
    if any(b[0] == seat ^ 2 and b[2] == suit for b in bids[:i]):
        return "raised"
    if i == 0:
        return "opening"
    return "partner" if bids[i - 1][0] % 2 == seat % 2 else "opp"


def main() -> None:
    gaps: dict[tuple[str, str], list[float]] = defaultdict(list)
    sittings: list[tuple[list, list]] = []
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                m = SITTING.match(line)
                if not m:
                    continue
                hands = true_hands(int(m.group(1)))
                bids = bids_of(m.group(3))
                if not bids:
                    continue
                rows = []
                for i, (seat, level, suit, value) in enumerate(bids):
                    gap = belote_estimate(hands[seat], suit) - value
                    gaps[(level, kind_of(bids, i))].append(gap)
                    gaps[("both", kind_of(bids, i))].append(gap)
                    rows.append((kind_of(bids, i), gap))
                sittings.append((bids, rows))
    floor = {}
    for (level, kind), values in sorted(gaps.items()):
        v = sorted(values)
        p5 = v[int(0.05 * len(v))]
        under = sum(g < -EXPERTS[kind] for g in v) / len(v)
        print(
            f"{level:5} {kind:8} bids {len(v):4}  5th percentile {p5:+5.0f}  median {v[len(v) // 2]:+5.0f}"
            f"  under the expert's floor (-{EXPERTS[kind]}) {under:.0%}"
        )
        if level == "both":
            floor[kind] = max(EXPERTS[kind], 5 * math.ceil(-p5 / 5))
    for name, margins in (("the expert's margins", EXPERTS), (f"5th percentiles {floor}", floor)):
        rejected = sum(any(g < -margins.get(k, 0) for k, g in rows) for _, rows in sittings)
        print(f"{name}: the true deal rejected in {rejected} of {len(sittings)} sittings with a bid")


if __name__ == "__main__":
    main()
