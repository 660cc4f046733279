"""What do the Belote calls say about the hands, in the real deals and in the worlds the levels sample?

    nice -n 19 .venv/bin/python bench/diagnose_belote_calls.py --deals 150 --seed 62060          (after each call)
    nice -n 19 .venv/bin/python bench/diagnose_belote_calls.py --first-card --deals 200 --seed 66000

Deals start as the arena's (``rules/ai/arena.arena_deals``) and their auctions are called by ``--level`` at every
seat (``--budget`` seconds a decision).

Default, after each call: the caller's hand in the real deal against ``--worlds`` worlds sampled from the next seat's
view with the bidding filter, weighted as the master weighs them (``BID_LENGTH_WEIGHTS``).  Calls: a bid in a suit
the partner had not bid, a raise of the partner's suit, a pass as the first call or over the other side's bid.
Features: the cards of the suit (for a pass: of its longest), its jack and nine, the aces of the other suits; and the
shares of (jack, nine) held by the bidders and of aces held by the passers.

``--first-card``: at the first card, from a random seat's view, each other bidder's ``belote_estimate`` in its suit
minus its bid, by kind (the auction's first bid, over the other side's, over the partner's in another suit, in a
suit the partner bid before), bucketed, in the real deals and in the worlds sampled with ``--margins`` (the filter's
margins by kind), weighted by ``BID_LENGTH_WEIGHTS``; and how often the expert's filter and the one with
``--margins`` reject the real deal.  Figures only (docs/ai.md, issue 21's eighteenth session).
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchkit import arena_match  # noqa: E402
from filter_floor import kind_of  # noqa: E402

from rules.ai.heuristic import belote_estimate, bidding_filter  # noqa: E402
from rules.ai.knowledge import Knowledge  # noqa: E402
from rules.ai.master import MasterPlayer, suits_bid  # noqa: E402
from rules.ai.players import make_ai_player  # noqa: E402
from rules.ai.sampler import sample_world  # noqa: E402
from rules.ai.view import SeatView, build_view  # noqa: E402
from rules.cards import ACE, JACK, R9, card  # noqa: E402
from rules.game import BIDDING, PLAY  # noqa: E402

GAP_BUCKETS = (-60, -40, -20, 0, 20)
FEATURES = ("length", "jack", "nine", "aces")


def features(hand: list[int], suit: int | None) -> dict[str, int]:
    """The hand's length, jack, nine in ``suit`` (None: its longest, the jack breaking ties), and other aces."""
    if suit is None:
        suit = max(range(4), key=lambda s: (sum(c >> 4 == s for c in hand), card(JACK, s) in hand))
    return {
        "length": sum(c >> 4 == suit for c in hand),
        "jack": int(card(JACK, suit) in hand),
        "nine": int(card(R9, suit) in hand),
        "aces": sum(card(ACE, s) in hand for s in range(4) if s != suit),
    }


def auction(m, level, rng: random.Random):
    """The deal's auction called by ``level``: each call with the history before it."""
    history = []
    while m.phase == BIDDING:
        a = level.choose_view(build_view(m, m.to_move, history), rng)
        m.apply(a)
        history.append(a)
        yield a, history


def kind_of_call(a, history) -> tuple[str, int | None] | None:
    """The call's kind as read here, and its suit; None for a call not read (counters, passes after a counter, a
    pass while the partner's bid stands, bids with no suit)."""
    before = [b for b in history[:-1] if b.type == "bid"]
    if a.type == "bid" and isinstance(a.value, int) and a.suit is not None and a.suit < 4:
        raised = any(b.seat == a.seat ^ 2 and b.suit == a.suit for b in before)
        return ("raise" if raised else "bid"), a.suit
    if a.type == "pass" and not any(b.type == "counter" for b in history[:-1]):
        if not before:
            return "pass first", None
        if not any(b.seat == a.seat ^ 2 for b in before):
            return "pass over the other side", None
    return None


def after_each_call(args, level) -> None:
    real: dict[str, list[dict]] = defaultdict(list)
    sampled: dict[str, list[tuple[dict, float]]] = defaultdict(list)
    for i in range(args.deals):
        m, cards = arena_match("belote", args.seed + i)
        rng = random.Random(i)
        for a, history in auction(m, level, rng):
            kind = kind_of_call(a, history)
            if kind is None:
                continue
            name, suit = kind
            view = build_view(m, (a.seat + 1) % 4, history)
            k = Knowledge(view)
            real[name].append(features(cards.hands[a.seat], suit))
            master = MasterPlayer(None)
            weighted = bool(suits_bid(view, k))
            for _ in range(args.worlds):
                dealt: list[list[list[int]]] = []
                if sample_world(view, rng, k, tries=8, accept=bidding_filter(view, k), dealt=dealt.append):
                    weight = master._weight_of_bids(view, k, dealt[-1]) if weighted else 1.0
                    sampled[name].append((features(dealt[-1][a.seat], suit), weight))
    print(f"belote: {args.deals} deals (seeds {args.seed}+), auctions of the {args.level}; real / weighted worlds")
    for name, rows in real.items():
        worlds = sampled[name]
        total = sum(w for _, w in worlds) or 1.0
        print(f"  {name}: {len(rows)} calls, {len(worlds)} worlds")
        for f in FEATURES:
            mean_real = statistics.mean(r[f] for r in rows)
            mean_sampled = sum(r[f] * w for r, w in worlds) / total
            print(f"    {f:6}: {mean_real:.2f} / {mean_sampled:.2f}")
        pairs = [("jack", "nine")] if name == "bid" else [] if name == "raise" else [("aces",)]
        for keys in pairs:

            def key_of(r: dict, keys: tuple[str, ...] = keys) -> tuple[int, ...]:
                return tuple(r[key] for key in keys)

            values = sorted({key_of(r) for r in rows} | {key_of(r) for r, _ in worlds})
            for v in values:
                r_share = sum(key_of(r) == v for r in rows) / len(rows)
                s_share = sum(w for r, w in worlds if key_of(r) == v) / total
                print(f"    {'+'.join(keys)} {v}: {r_share:.3f} / {s_share:.3f}")


def bids_by_kind(view: SeatView) -> list[tuple[int, int, int, str]]:
    """(seat, suit, value, kind) of each other seat's bid in a suit, its kind as ``bench/filter_floor.py`` reads it."""
    bids = [
        (a.seat, "", a.suit, a.value)
        for a in view.history
        if a.type == "bid" and isinstance(a.value, int) and a.suit is not None
    ]
    return [
        (seat, suit, value, kind_of(bids, i))
        for i, (seat, _, suit, value) in enumerate(bids)
        if seat != view.seat and suit < 4
    ]


def at_first_card(args, level) -> None:
    real: dict[str, list[float]] = defaultdict(lambda: [0.0] * (len(GAP_BUCKETS) + 1))
    sampled: dict[str, list[float]] = defaultdict(lambda: [0.0] * (len(GAP_BUCKETS) + 1))
    views = rejected_expert = rejected_margins = 0
    for i in range(args.deals):
        m, cards = arena_match("belote", args.seed + i)
        rng = random.Random(i)
        history = []
        for _a, history in auction(m, level, rng):  # noqa: B007 (the whole auction's history, once it ends)
            pass
        if m.phase != PLAY:
            continue
        view = build_view(m, rng.randrange(4), history)
        k = Knowledge(view)
        bids = bids_by_kind(view)
        if not bids:
            continue
        needs = [(seat, suit, value - args.margins[kind]) for seat, suit, value, kind in bids]

        def loose(hands) -> bool:
            return all(belote_estimate(hands[s], t) >= need for s, t, need in needs)  # noqa: B023

        expert_filter = bidding_filter(view, k)
        views += 1
        rejected_expert += expert_filter is not None and not expert_filter(cards.hands)
        rejected_margins += not loose(cards.hands)
        master = MasterPlayer(None)
        for seat, suit, value, kind in bids:
            gap = belote_estimate(cards.hands[seat], suit) - value
            real[kind][sum(gap >= b for b in GAP_BUCKETS)] += 1
        for _ in range(args.worlds):
            dealt: list[list[list[int]]] = []
            if sample_world(view, rng, k, tries=8, accept=loose, dealt=dealt.append):
                weight = master._weight_of_bids(view, k, dealt[-1]) / args.worlds
                for seat, suit, value, kind in bids:
                    gap = belote_estimate(dealt[-1][seat], suit) - value
                    sampled[kind][sum(gap >= b for b in GAP_BUCKETS)] += weight
    print(f"belote: {args.deals} deals (seeds {args.seed}+), auctions of the {args.level}, at the first card")
    print(
        f"  the real deal rejected in {views} views: by the expert's filter {rejected_expert}, "
        f"with margins {args.margins} {rejected_margins}"
    )
    edges = ["< -60"] + [f"[{lo}, {hi})" for lo, hi in zip(GAP_BUCKETS, GAP_BUCKETS[1:], strict=False)] + [">= 20"]
    print("  the estimate minus the bid, share of the real bids / of the worlds' (weighted): " + ", ".join(edges))
    for kind, shares in real.items():
        n, s = sum(shares), sum(sampled[kind]) or 1.0
        cells = " ".join(f"{r / n:.2f}/{w / s:.2f}" for r, w in zip(shares, sampled[kind], strict=True))
        print(f"    {kind:8} {int(n):4} bids  {cells}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=62060)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--budget", type=float, default=0.02)
    ap.add_argument("--worlds", type=int, default=12)
    ap.add_argument("--first-card", action="store_true")
    ap.add_argument(
        "--margins",
        type=ast.literal_eval,
        default={"opening": 30, "opp": 60, "partner": 75, "raised": 85},
        help="the filter's margins by kind at the first card (a Python dict)",
    )
    args = ap.parse_args()
    level = make_ai_player(args.level, args.budget)
    (at_first_card if args.first_card else after_each_call)(args, level)


if __name__ == "__main__":
    main()
