"""How long is a bidder in its suit, in the real deals and in the worlds sampled just after its bid?

    nice -n 19 .venv/bin/python bench/diagnose_bid_lengths.py --deals 150
    nice -n 19 .venv/bin/python bench/diagnose_bid_lengths.py --game five_hundred --deals 300 --seed 65000
    nice -n 19 .venv/bin/python bench/diagnose_bid_lengths.py --deals 40 --weights     (the master's weights, read)

Deals start as the arena's (``rules/ai/arena.arena_deals``, seeds from ``--seed``) and their auctions are called by
``--level`` at every seat (``--budget`` seconds a decision).  For each bid in a suit the bidder's partner had not bid
before: the cards of that suit in the bidder's hand, and in ``--worlds`` worlds sampled from the next seat's view
with the bidding filter (as the expert and the master sample them); at Five Hundred the Joker and the left bower
count in the suit (``master.bid_suit_cards``).  The ratio of the two is what the master's
``BID_LENGTH_WEIGHTS`` reads (docs/ai.md, issue 21's seventeenth session).

``--weights``: instead, along the deals played on by ``--level`` (auction and play), the true deal's
``BID_LENGTH_WEIGHTS`` weight over the mean weight of the master's sampled worlds, at every third decision with a
choice where another seat has bid.  Figures only.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchkit import arena_match  # noqa: E402

from rules.ai.heuristic import bidding_filter  # noqa: E402
from rules.ai.knowledge import Knowledge  # noqa: E402
from rules.ai.master import MasterPlayer, bid_suit_cards, suits_bid  # noqa: E402
from rules.ai.players import make_ai_player  # noqa: E402
from rules.ai.sampler import sample_world  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER  # noqa: E402


def lengths(args, player) -> None:
    real: Counter[int] = Counter()
    sampled: Counter[int] = Counter()
    for i in range(args.deals):
        m, cards = arena_match(args.game, args.seed + i)
        history = []
        rng = random.Random(i)
        while m.phase == BIDDING:
            a = player.choose_view(build_view(m, m.to_move, history), rng)
            m.apply(a)
            history.append(a)
            if a.type != "bid" or not isinstance(a.value, int) or a.suit is None or a.suit >= 4 or a.contract:
                continue
            view = build_view(m, (a.seat + 1) % m.players, history)
            k = Knowledge(view)
            if (a.seat, a.suit) not in suits_bid(view, k):
                continue  # a raise of its partner's suit
            suit_cards = bid_suit_cards(args.game, a.suit)
            real[(k.ad.world_hand_mask(m, a.seat) & suit_cards).bit_count()] += 1
            for _ in range(args.worlds):
                w = sample_world(view, rng, k, tries=8, accept=bidding_filter(view, k))
                if w is not None:
                    sampled[(k.ad.world_hand_mask(w, a.seat) & suit_cards).bit_count()] += 1
    n_real, n_sampled = sum(real.values()), max(1, sum(sampled.values()))
    print(f"{args.game}: {n_real} bids in a suit the partner had not bid, {args.deals} deals (seeds {args.seed}+)")
    print("cards of the suit: share of real bidders / of sampled worlds (ratio)")
    for n in range(9):
        r, s = real[n] / n_real, sampled[n] / n_sampled
        if r or s:
            print(f"  {n}: {r:.3f} / {s:.3f}" + (f"  ({r / s:.2f})" if s else ""))


def weights(args, player) -> None:
    ratios = []
    for i in range(args.deals):
        m, cards = arena_match(args.game, args.seed + i)
        history = []
        rng = random.Random(i)
        while m.phase not in (BETWEEN_DEALS, GAME_OVER):
            view = build_view(m, m.to_move, history)
            k = Knowledge(view)
            if len(view.legal) > 1 and len(history) % 3 == 0 and suits_bid(view, k):
                master = MasterPlayer(None)
                own = master._weight_of_bids(view, k, cards.hands)
                got = []
                for _ in range(args.worlds):
                    dealt: list[list[list[int]]] = []  # each world tried: its hands as dealt
                    if sample_world(view, rng, k, tries=8, accept=bidding_filter(view, k), dealt=dealt.append):
                        got.append(master._weight_of_bids(view, k, dealt[-1]))
                if got:
                    ratios.append(own / statistics.mean(got))
            a = player.choose_view(view, rng)
            m.apply(a)
            history.append(a)
    print(f"{args.game}: {len(ratios)} decisions, {args.deals} deals (seeds {args.seed}+)")
    print(
        f"  the true deal's weight over the sampled worlds' mean: mean {statistics.mean(ratios):.2f}, "
        f"median {statistics.median(ratios):.2f}, under 1 in {sum(r < 1 for r in ratios) / len(ratios):.0%}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="belote", choices=["belote", "five_hundred"])
    ap.add_argument("--deals", type=int, default=150)
    ap.add_argument("--seed", type=int, default=62000)
    ap.add_argument("--level", default="expert")
    ap.add_argument("--budget", type=float, default=0.02)
    ap.add_argument("--worlds", type=int, default=10)
    ap.add_argument("--weights", action="store_true")
    args = ap.parse_args()
    player = make_ai_player(args.level, args.budget)
    (weights if args.weights else lengths)(args, player)


if __name__ == "__main__":
    main()
