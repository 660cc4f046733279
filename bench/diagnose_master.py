"""Where do the master and the expert choose differently, and who was right?

    .venv/bin/python bench/diagnose_master.py --games da_bai_fen --deals 20 --budget 0.1

Deals are played by the heuristic; at each of this script's sample points (a decision of the play with at most
``--judge-from`` cards in the hand to move, and any bid) both levels are asked for the same view.  Where they
disagree and the real deal is small enough, each choice is judged on the REAL deal (every hand known): the rest of the
deal is played along a double-dummy line (rules/ai/dd_worlds.finish) and scored by the engine for the deciding seat's
side.  Printed: worlds searched per decision, how often the two disagree, and, of the judged disagreements, how
often each level's choice scored more.  Figures only; nothing here is an assertion.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.actions import Action  # noqa: E402
from rules.ai import dd_worlds  # noqa: E402
from rules.ai.expert import ExpertPlayer, describe_action  # noqa: E402
from rules.ai.games import adapter_for  # noqa: E402
from rules.ai.heuristic import HeuristicPlayer  # noqa: E402
from rules.ai.master import MasterPlayer  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY  # noqa: E402
from rules.registry import new_match  # noqa: E402


def judge(m, seat: int, action: Action, max_nodes: int) -> float | None:
    """The deciding seat's utility when ``action`` is played in the real deal and the rest solved double-dummy."""
    w = m.clone()
    w.apply(action)
    deal = len(w.deal_results)
    while w.phase == PLAY and len(w.deal_results) == deal:
        if not dd_worlds.finish(w, seat, max_nodes):
            return None
    if len(w.deal_results) == deal:
        return None
    ad = adapter_for(m.game_id, m.options)
    return ad.utility(w, seat, w.deal_results[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="belote,five_hundred,two_hundred,da_bai_fen")
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--budget", type=float, default=0.1)
    ap.add_argument("--judge-from", type=int, default=6, help="judge play decisions with at most this many cards")
    ap.add_argument("--max-nodes", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--verbose", action="store_true", help="print each judged disagreement")
    args = ap.parse_args()
    for game in args.games.split(","):
        master, expert = MasterPlayer(args.budget), ExpertPlayer(args.budget)
        worlds: dict[str, list[int]] = {"master": [], "expert": []}
        tally: Counter[str] = Counter()
        gain = {"master": 0.0, "expert": 0.0}
        for d in range(args.deals):
            rng = random.Random(f"{args.seed}:{game}:{d}")
            m = new_match(game, {})
            m.start_deal(m.random_deal(rng))
            history: list[Action] = []
            h = HeuristicPlayer()
            while m.phase not in (BETWEEN_DEALS, GAME_OVER):
                seat = m.to_move
                assert seat is not None
                view = build_view(m, seat, history)
                ad = adapter_for(game, m.options)
                bidding = m.phase == "bidding"
                small = m.phase == PLAY and ad.world_hand_mask(m, seat).bit_count() <= args.judge_from
                if (bidding or small) and len(view.legal) > 1:
                    dm = master.decide(view, random.Random(d))
                    de = expert.decide(view, random.Random(d))
                    worlds["master"].append(dm.worlds)
                    worlds["expert"].append(de.worlds)
                    phase = "bid" if bidding else "play"
                    tally[f"{phase} decisions"] += 1
                    if dm.action != de.action:
                        tally[f"{phase} disagree"] += 1
                        if small:
                            vm = judge(m, seat, dm.action, args.max_nodes)
                            ve = judge(m, seat, de.action, args.max_nodes)
                            if vm is not None and ve is not None:
                                tally["judged"] += 1
                                if args.verbose:
                                    left = ad.world_hand_mask(m, seat).bit_count()
                                    print(f"  deal {d} seat {seat} {left} cards: master {describe_action(dm.action)} "
                                          f"({dm.worlds} worlds, solved {dm.solved}) -> {vm:.0f}; expert "
                                          f"{describe_action(de.action)} ({de.worlds} worlds) -> {ve:.0f}")  # fmt: skip
                                gain["master"] += vm
                                gain["expert"] += ve
                                if vm > ve:
                                    tally["master right"] += 1
                                elif ve > vm:
                                    tally["expert right"] += 1
                                else:
                                    tally["equal"] += 1
                a = h.choose_view(view, rng)
                m.apply(a)
                history.append(a)
        mw = sorted(worlds["master"]) or [0]
        ew = sorted(worlds["expert"]) or [0]
        print(f"{game}: worlds per decision median master {mw[len(mw) // 2]} / expert {ew[len(ew) // 2]}; "
              f"{dict(tally)}; summed utility of judged choices master {gain['master']:.1f} "
              f"expert {gain['expert']:.1f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
