"""Does the master's reading of the play and the auction weigh the TRUE world up or down?

    .venv/bin/python bench/diagnose_weights.py --game five_hundred --deals 6 --opponents expert

Deals are played by ``--opponents`` at every seat (the expert with a fixed number of worlds, or the heuristic).  At
each play decision the deciding seat's view is read as the master reads it (``rules/ai/master._PlayJudge``): the
weight of the real deal replayed (the true world) is compared with the weights of worlds sampled as the master
samples them.  If the reading is informative, the true world weighs more than a typical sample; if the players
read are not the heuristic the reading assumes (an arena against the expert), it may weigh less.  Printed: the
mean of log2(true weight / mean sampled weight), how often the true world weighs less than the sampled median,
and the effective number of worlds (sum w)^2 / sum w^2 as a share of the worlds sampled; then how often a play
judged was a surprise in the true world and in the sampled ones, and the surprise weight that ratio implies.
Figures only.

``--count-worlds S`` instead asks the master (budget S seconds) at every play decision of heuristic deals, weighted
and unweighted, and prints the median worlds it searched, before its solved ending and in it: what the reading
costs in worlds at that budget on this machine.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.ai import master  # noqa: E402
from rules.ai.expert import ExpertPlayer  # noqa: E402
from rules.ai.heuristic import HeuristicPlayer, bidding_filter  # noqa: E402
from rules.ai.knowledge import Knowledge  # noqa: E402
from rules.ai.sampler import sample_world  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY  # noqa: E402
from rules.registry import new_match  # noqa: E402


def weights(view, k, real_cards, first_dealer, real_history, game, rng, samples, calls_only, tally):
    """The true world's weight and the sampled worlds'; ``tally`` gets the plays each judged and its surprises."""
    voids = master.public_voids(view)

    def judge():
        j = master._PlayJudge(view, k, voids)
        if calls_only:
            j.first = 10**9
        return j

    jt = judge()
    m = new_match(game, {}, first_dealer)
    m.start_deal(real_cards)
    for a in real_history:
        jt.observe(m, a)
        m.apply(a)
    accept = bidding_filter(view, k)
    ws = []
    tally["true"][0] += jt.judged
    tally["true"][1] += jt.surprises
    for _ in range(samples):
        j = judge()
        if sample_world(view, rng, k, tries=8, accept=accept, observe=j.observe) is not None:
            ws.append(j.weight)
            tally["sampled"][0] += j.judged
            tally["sampled"][1] += j.surprises
    return jt.weight, ws


def implied_surprise(tally: dict, game: str) -> str:
    """The surprise weight the rates imply (``tally``: plays judged and surprises found, in the true worlds and in
    the sampled ones): a world where the card was surprising against one where it was not, each scaled by how often
    that happens in the true world against a sampled one (a likelihood ratio)."""
    (tj, ts), (sj, ss) = tally["true"], tally["sampled"]
    if not tj or not sj or ts in (0, tj) or ss in (0, sj):
        return "too few plays judged to say"
    true_rate, sampled_rate = ts / tj, ss / sj
    ratio = (true_rate / sampled_rate) / ((1 - true_rate) / (1 - sampled_rate))
    return (
        f"surprised in {true_rate:.0%} of {tj} plays judged in the true world, {sampled_rate:.0%} of {sj} in the "
        f"sampled ones: a surprise is worth {ratio:.2f} of a natural card (SURPRISE is {master.SURPRISE[game]})"
    )


def count_worlds(game: str, deals: int, budget: float) -> None:
    weighted, unweighted = master.MasterPlayer(budget), master.MasterPlayer(budget)
    found: dict[str, list[int]] = {"weighted, early": [], "unweighted, early": [], "weighted, solved": [],
                                   "unweighted, solved": []}  # fmt: skip
    rng = random.Random(3)
    for d in range(deals):
        m = new_match(game, {})
        m.start_deal(m.random_deal(random.Random(100 + d)))
        history = []
        while m.phase not in (BETWEEN_DEALS, GAME_OVER):
            view = build_view(m, m.to_move, history)
            if view.phase == PLAY and len(view.legal) > 1:
                when = "solved" if view.hand_mask.bit_count() <= master.SOLVE_FROM[game] else "early"
                was = game in master.UNWEIGHTED_GAMES
                master.UNWEIGHTED_GAMES.discard(game)
                found[f"weighted, {when}"].append(weighted.decide(view, random.Random(1)).worlds)
                master.UNWEIGHTED_GAMES.add(game)
                found[f"unweighted, {when}"].append(unweighted.decide(view, random.Random(1)).worlds)
                if not was:
                    master.UNWEIGHTED_GAMES.discard(game)
            action = HeuristicPlayer().choose_view(view, rng)
            m.apply(action)
            history.append(action)
    for key, worlds in found.items():
        print(f"{game} at {budget} s, {key}: {len(worlds)} decisions, median {statistics.median(worlds)} worlds")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="five_hundred")
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--opponents", default="expert", choices=("expert", "heuristic"))
    ap.add_argument("--worlds", type=int, default=12, help="the expert opponents' worlds a decision")
    ap.add_argument("--samples", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--calls-only", action="store_true", help="read only the auction, not the play")
    ap.add_argument("--count-worlds", type=float, metavar="S", help="the master's worlds a decision at S seconds")
    args = ap.parse_args()
    if args.count_worlds:
        count_worlds(args.game, args.deals, args.count_worlds)
        return
    player = ExpertPlayer(None, max_worlds=args.worlds) if args.opponents == "expert" else HeuristicPlayer()
    rng = random.Random(args.seed)
    logs, below, eff = [], 0, []
    tally = {"true": [0, 0], "sampled": [0, 0]}  # (plays judged, surprises) in the true worlds and the sampled ones
    for d in range(args.deals):
        probe = new_match(args.game, {})
        first_dealer = rng.randrange(probe.players)
        cards = probe.random_deal(rng)
        m = new_match(args.game, {}, first_dealer)
        m.start_deal(cards)
        history = []
        while m.phase not in (BETWEEN_DEALS, GAME_OVER):
            seat = m.to_move
            view = build_view(m, seat, history)
            others_played = sum(1 for a in history if a.type == "play" and a.seat != seat)
            if view.phase == PLAY and others_played >= 2 and len(view.legal) > 1:
                k = Knowledge(view)
                wt, ws = weights(
                    view, k, cards, first_dealer, history, args.game, rng, args.samples, args.calls_only, tally
                )
                if ws:
                    mean = sum(ws) / len(ws)
                    logs.append(math.log2(wt / mean))
                    below += wt < statistics.median(ws)
                    eff.append(sum(ws) ** 2 / sum(w * w for w in ws) / len(ws))
            action = player.choose_view(view, rng)
            m.apply(action)
            history.append(action)
        print(f"deal {d + 1}: {len(logs)} decisions so far", flush=True)
    n = len(logs)
    print(f"{args.game}, opponents {args.opponents}{' (calls only)' if args.calls_only else ''}: {n} decisions")
    print(
        f"  mean log2(true / mean sampled weight) {sum(logs) / n:+.2f}; true below the sampled median "
        f"{below / n:.0%}; effective worlds {sum(eff) / n:.0%} of those sampled"
    )
    print(f"  {implied_surprise(tally, args.game)}")


if __name__ == "__main__":
    main()
