"""What do the levels lay away in a hidden discard, and how far are the sampled worlds from it?

    .venv/bin/python bench/diagnose_discards.py --game da_bai_fen --deals 40
    .venv/bin/python bench/diagnose_discards.py --game five_hundred --deals 60

Deals start as the arena's (``rules/ai/arena.arena_deals``, seeds from ``--seed``) and are played by the expert at
every seat (``--budget`` seconds a decision) up to the first card of the play.  For each deal with a hidden discard:

- what the discard held (trumps, point cards, side aces): the levels' own discards, which the master's
  ``PLAUSIBLE_DISCARDS`` rule is read from;
- from the seat after the taker, the taker's trumps in hand and the points laid away, in the true deal and on
  average over ``--worlds`` sampled worlds, uniform (as the expert samples them) and with the rule
  (``master.never_discarded``);
- at Da Bai Fen, also the taker's trumps among the 12 cards it drew (before it took the kitty; in the worlds, its
  cards split at random between its draw and the kitty, as ``sampler.rebuild`` lays them out): the leader of a
  first deal is the seat whose exposure made trumps.

Figures only (docs/ai.md, issue 21's sixteenth and twenty-third sessions).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchkit import arena_match  # noqa: E402

from rules.ai.heuristic import bidding_filter  # noqa: E402
from rules.ai.knowledge import Knowledge  # noqa: E402
from rules.ai.master import lay_away, never_discarded  # noqa: E402
from rules.ai.players import make_ai_player  # noqa: E402
from rules.ai.sampler import allocate, sample_world  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.cards import ACE  # noqa: E402
from rules.game import PLAY  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="da_bai_fen", choices=["da_bai_fen", "five_hundred", "two_hundred"])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=40000)
    ap.add_argument("--budget", type=float, default=0.05)
    ap.add_argument("--worlds", type=int, default=20)
    args = ap.parse_args()
    expert = make_ai_player("expert", args.budget)
    held = {"discards": 0, "with a trump": 0, "with a point card": 0, "with a side ace": 0}
    trumps: dict[str, list[float]] = {"true": [], "uniform": [], "rule": [], "ranked": []}
    drawn: dict[str, list[float]] = {"true": [], "uniform": [], "rule": [], "ranked": []}
    points: dict[str, list[float]] = {"true": [], "uniform": [], "rule": [], "ranked": []}
    for i in range(args.deals):
        m, cards = arena_match(args.game, args.seed + i)
        history = []
        rng = random.Random(i)
        hands_drawn = None
        while m.phase not in (PLAY, "between_deals", "game_over"):
            if args.game == "da_bai_fen" and m.phase != "deal" and hands_drawn is None:
                hands_drawn = list(m.hands)
                hands_drawn[m.leader] &= ~m.kitty  # the leader has picked the kitty up
            a = expert.choose_view(build_view(m, m.to_move, history), rng)
            m.apply(a)
            history.append(a)
        discards = [a for a in history if a.type == "discard" and a.cards]
        if m.phase != PLAY or not discards:
            continue
        taker = discards[-1].seat
        view = build_view(m, (taker + 1) % m.players, history)
        k = Knowledge(view)
        order = k.order
        laid = discards[-1].cards
        held["discards"] += 1
        held["with a trump"] += any(order.es[c] == order.trump for c in laid)
        held["with a point card"] += any(order.pts[c] > 0 for c in laid)
        held["with a side ace"] += any(c < 64 and c & 15 == ACE and order.es[c] != order.trump for c in laid)

        trump_mask = sum(1 << c for c in range(len(order.es)) if order.es[c] == order.trump)
        trumps["true"].append((k.ad.world_hand_mask(m, taker) & trump_mask).bit_count())
        if hands_drawn is not None:
            drawn["true"].append((hands_drawn[taker] & trump_mask).bit_count())
        points["true"].append(sum(order.pts[c] for c in laid))
        accept = bidding_filter(view, k)
        rule = never_discarded(k)
        for name, kept, ranked in (("uniform", 0, None), ("rule", rule, None), ("ranked", rule, lay_away)):
            t, p, d = [], [], []
            for _ in range(args.worlds):
                dealt: list[list[list[int]]] = []
                w = sample_world(view, rng, k, accept=accept, kept=kept, lay_away=ranked, dealt=dealt.append)
                if w is not None:
                    t.append((k.ad.world_hand_mask(w, taker) & trump_mask).bit_count())
                    d.append(sum(1 for c in dealt[-1][taker] if trump_mask >> c & 1))
                alloc = allocate(k, rng) if ranked else None
                alloc = alloc and ranked(k, alloc, rng)
                alloc = alloc or (allocate(k, rng, kept) if kept else None)
                alloc = alloc or allocate(k, rng)
                if alloc is not None:
                    p.append(sum(order.pts[c] for c in range(len(order.es)) if alloc.discards[taker] >> c & 1))
            if t and p:
                trumps[name].append(statistics.mean(t))
                points[name].append(statistics.mean(p))
                if hands_drawn is not None:
                    drawn[name].append(statistics.mean(d))
    print(f"{args.game}: the expert's hidden discards over {args.deals} deals (seeds {args.seed}+)")
    print("  " + ", ".join(f"{k} {v}" for k, v in held.items()))
    rows_of = [("the taker's trumps in hand", trumps), ("points laid away", points)]
    if drawn["true"]:
        rows_of.append(("the taker's trumps among the cards it drew", drawn))
    for what, rows in rows_of:
        print(f"  {what}: " + ", ".join(f"{k} {statistics.mean(v):.2f}" for k, v in rows.items() if v))


if __name__ == "__main__":
    main()
