"""Belote's rollout policies played against each other: the master's sharp one (``PlayInfo.sharp``,
``master.SHARP_ROLLOUTS``, reading the voids shown) and the heuristic's.

    .venv/bin/python bench/belote_policy_duel.py --deals 4000 --seed 20001
    ... --against rollouts     (the heuristic's policy as the expert's rollouts play it: no voids read)

Each deal (the arena's, ``rules/ai/arena.arena_deals``, from ``--seed`` on) is bid by the heuristic player to its
contract (a deal thrown in is skipped), then its card play is played twice: the sharp policy at seats 0 and 2, then at
1 and 3, the other policy at the others.  A deal's margin is the sharp side's score change minus the other side's,
summed over the two sittings; prints the sharp policy's won-lost-tied, its win rate (a tie counts half) and mean
margin with a 95 % interval.  This is how the policy was chosen (docs/ai.md, twenty-sixth session): a policy that
plays better against itself is a better model of good play in the rollouts, but only the paired arena
(``bench/paired_arena.py``) says whether the master is stronger with it.  Figures only.
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.ai.arena import arena_deals  # noqa: E402
from rules.ai.cardplay import pick_card  # noqa: E402
from rules.ai.expert import _fast_play, _rollout_ctx, as_at_the_table, play_info  # noqa: E402
from rules.ai.games import adapter_for  # noqa: E402
from rules.ai.heuristic import HeuristicPlayer  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import PLAY  # noqa: E402
from rules.registry import new_match  # noqa: E402


def bid(seed: int):
    """The arena's deal ``seed`` with the heuristic's auction over, or None if it was thrown in."""
    first_dealer, (cards,) = arena_deals("belote", {}, seed)
    m = new_match("belote", {}, first_dealer)
    m.start_deal(cards)
    history = []
    rng = random.Random(seed)
    player = HeuristicPlayer()
    while m.phase != PLAY:
        if m.phase != "bidding":
            return None
        action = player.choose_view(build_view(m, m.to_move, history), rng)
        m.apply(action)
        history.append(action)
    return m


def sitting(bid_deal, ad, sharp_side: int, other_reads_voids: bool) -> list[int]:
    """Each side's score change with the sharp policy at ``sharp_side``'s seats."""
    w = copy.deepcopy(bid_deal)
    ctx = _rollout_ctx(w, 0)
    played = 0
    voids = [0, 0, 0, 0]
    deals = len(w.deal_results)
    while w.phase == PLAY and len(w.deal_results) == deals:
        trick = ad.world_trick(w)
        info = play_info(w, ad, ctx, trick, w.legal_card_mask(), ad.pack_mask & ~played)
        sharp = (w.to_move & 1) == sharp_side
        if sharp or other_reads_voids:
            as_at_the_table(info, list(voids))
        info.sharp = sharp
        c = pick_card(info)
        played |= 1 << c
        if trick and info.order.es[c] != info.led:
            voids[w.to_move] |= 1 << info.led
        _fast_play(w, c, trick)
    return w.deal_results[-1]["score_change"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--against",
        choices=("table", "rollouts"),
        default="table",
        help="the heuristic's policy as it plays at a table (reading the voids) or in the expert's rollouts",
    )
    args = ap.parse_args()
    ad = adapter_for("belote", {})
    margins = []
    for seed in range(args.seed, args.seed + args.deals):
        m = bid(seed)
        if m is None:
            continue
        margin = 0
        for side in (0, 1):
            score = sitting(m, ad, side, args.against == "table")
            margin += score[side] - score[1 - side]
        margins.append(margin)
    n = len(margins)
    won = sum(x > 0 for x in margins)
    lost = sum(x < 0 for x in margins)
    tied = n - won - lost
    mean = sum(margins) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in margins) / (n - 1))
    print(f"sharp policy against the heuristic's ({args.against}), {n} duplicate deals ({args.deals - n} thrown in):")
    half = 1.96 * sd / math.sqrt(n)
    print(f"  {won}-{lost}-{tied}, win rate {(won + tied / 2) / n:.3f}, mean margin {mean:+.1f} ± {half:.1f}")


if __name__ == "__main__":
    main()
