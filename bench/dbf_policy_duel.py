"""Da Bai Fen's rollout policies played against each other: the heuristic's (``dbf_rollout.pick``) and the master's
sharp one (``pick(..., sharp=True)``, ``master.SHARP_ROLLOUTS``).

    .venv/bin/python bench/dbf_policy_duel.py --deals 6000
    ... --aware      (both policies read the voids shown, as the heuristic plays at a table)

Each deal (the arena's, ``rules/ai/arena.arena_deals``, from ``--seed`` on) is brought to the first lead as the
rollouts bring it (the heuristic's exposures and kitty), then played twice: the sharp policy at seats 0 and 2, then at
1 and 3, the heuristic's policy at the others.  A deal's margin is the sharp side's score in the arena's terms (levels,
and a side's card points at 1/200 of a level) summed over the two sittings; prints the sharp policy's won-lost-tied,
its win rate and mean margin.  This is how the policy was chosen (docs/ai.md, twenty-fourth session): a policy that
plays better against itself is a better model of good play in the rollouts, but only the paired arena
(``bench/paired_arena.py``) says whether the master is stronger with it.  Figures only.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.ai import dbf_rollout  # noqa: E402
from rules.ai.arena import arena_deals, deal_score  # noqa: E402
from rules.ai.games import adapter_for  # noqa: E402
from rules.registry import new_match  # noqa: E402


def sitting(first_dealer: int, cards, sharp_side: int, aware: bool) -> list[float]:
    """One sitting: each side's score (``deal_score``) with the sharp policy at ``sharp_side``'s seats."""
    m = new_match("da_bai_fen", {}, first_dealer)
    m.start_deal(cards)
    dbf_rollout.to_play(m, adapter_for("da_bai_fen", {}))
    played = 0
    voids = [0, 0, 0, 0] if aware else None
    while m.phase == "play":
        seat = (m.trick_leader + len(m.trick)) & 3
        c = dbf_rollout.pick(m, played, voids, (seat & 1) == sharp_side)
        played |= 1 << c
        if voids is not None and m.trick and m.order.effective_suit[c] != m.led_suit:
            voids[seat] |= 1 << m.led_suit
        m.play_card(c)
    return deal_score(m.deal_results[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--aware", action="store_true", help="both policies read the voids shown")
    args = ap.parse_args()
    won = lost = tied = 0
    total = 0.0
    for seed in range(args.seed, args.seed + args.deals):
        first_dealer, (cards,) = arena_deals("da_bai_fen", {}, seed)
        margin = 0.0
        for sharp_side in (0, 1):
            score = sitting(first_dealer, cards, sharp_side, args.aware)
            margin += score[sharp_side] - score[1 - sharp_side]
        total += margin
        won += margin > 1e-9
        lost += margin < -1e-9
        tied += abs(margin) <= 1e-9
    rate = (won + tied / 2) / args.deals
    how = "reading the voids" if args.aware else "as the rollouts play (no voids read)"
    print(f"sharp policy against the heuristic's, {args.deals} duplicate deals, {how}:")
    print(f"  {won}-{lost}-{tied}, win rate {rate:.3f}, mean margin {total / args.deals:+.3f} levels a deal")


if __name__ == "__main__":
    main()
