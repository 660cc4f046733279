"""Where do the master's calls differ from the expert's, and which is better on the real deal?

    .venv/bin/python bench/diagnose_calls.py --games belote --deals 30 --budget 0.1

The expert calls every seat's auction; at each call the master is asked too (the same view).  Each disagreement is
judged on the REAL deal (every hand known): the call is applied, the rest of the auction made by the heuristic's
calls (nobody outbidding their own side, as the master's own model: ``master_bids.finish_auction``) and the deal
played by the heuristic; printed per kind of disagreement (expert's call type -> master's), how many and the summed
difference of the deciding side's result (master's call minus the expert's).  A judge by the heuristic's play, so
it shares the master's model of the rest of the deal; figures only, nothing here is an assertion.

``--dd`` also judges each disagreement by a double-dummy play (the exchange by the heuristic, then every card by the
solver with all hands known: ``rules/ai/dd_worlds.finish``), a judge that does not share the heuristic's play.
``--five-hundred-calls own|own0|weighted`` asks, at Five Hundred, a master whose calls are not the expert's (as they
are since the fifth session, ``EXPERT_CALLS``): ``own`` its contract evaluation (``master_bids``), ``own0`` the same
without its caution, ``weighted`` the expert's bid search over the master's weighted worlds.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.actions import Action  # noqa: E402
from rules.ai import dd_worlds, master_bids  # noqa: E402
from rules.ai import master as master_mod  # noqa: E402
from rules.ai.expert import ExpertPlayer, rollout  # noqa: E402
from rules.ai.games import adapter_for  # noqa: E402
from rules.ai.heuristic import heuristic_action  # noqa: E402
from rules.ai.knowledge import Knowledge  # noqa: E402
from rules.ai.master import MasterPlayer  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import BIDDING, PLAY  # noqa: E402
from rules.registry import new_match  # noqa: E402


def judge(m, history: list[Action], call: Action) -> float:
    """The calling seat's result on the real deal ``m`` after ``call`` (heuristic calls and play after it)."""
    seat = call.seat
    k = Knowledge(build_view(m, seat, history))
    w = m.clone()
    w.apply(call)
    master_bids.finish_auction(w, [*history, call], random.Random(0))
    return rollout(w, seat, k, random.Random(0), 0.0)[0]


def judge_dd(m, history: list[Action], call: Action) -> float | None:
    """The calling seat's result on the real deal after ``call``: the heuristic's calls and exchange, then the cards
    solved double-dummy (None: a solve too large)."""
    seat = call.seat
    w = m.clone()
    h = [*history, call]
    w.apply(call)
    master_bids.finish_auction(w, h, random.Random(0))
    deals = len(w.deal_results)
    while w.phase != PLAY and len(w.deal_results) == deals:
        a = heuristic_action(build_view(w, w.to_move, h), random.Random(0))
        w.apply(a)
        h.append(a)
    while w.phase == PLAY and len(w.deal_results) == deals:
        if not dd_worlds.finish(w, seat, 400_000):
            return None
    return adapter_for(m.game_id, m.options).utility(w, seat, w.deal_results[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="belote,five_hundred,two_hundred")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--budget", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--dd", action="store_true", help="also judge by a double-dummy play of the real deal")
    ap.add_argument("--five-hundred-calls", choices=("own", "own0", "weighted"))
    args = ap.parse_args()
    if args.five_hundred_calls:
        master_mod.EXPERT_CALLS.discard("five_hundred")
        master_mod.UNWEIGHTED_GAMES.discard("five_hundred")
        if args.five_hundred_calls.startswith("own"):
            master_mod.OWN_BIDDING.add("five_hundred")
        if args.five_hundred_calls == "own0":
            master_bids.BID_CAUTION = 0.0
    for game in args.games.split(","):
        expert, master = ExpertPlayer(args.budget), MasterPlayer(args.budget)
        tally: Counter[str] = Counter()
        gain: dict[str, float] = defaultdict(float)
        gain_dd: dict[str, float] = defaultdict(float)
        for d in range(args.deals):
            m = new_match(game, {})
            m.start_deal(m.random_deal(random.Random(args.seed + d)))
            history: list[Action] = []
            while m.phase == BIDDING:
                view = build_view(m, m.to_move, history)
                e = expert.decide(view, random.Random(d)).action
                a = master.decide(view, random.Random(d)).action
                tally["calls"] += 1
                if a != e:
                    kind = f"{e.type}->{a.type}"
                    tally[kind] += 1
                    gain[kind] += judge(m, history, a) - judge(m, history, e)
                    if args.dd:
                        da, de = judge_dd(m, history, a), judge_dd(m, history, e)
                        if da is not None and de is not None:
                            gain_dd[kind] += da - de
                m.apply(e)
                history.append(e)
        print(f"{game}: {dict(tally)}; summed gain on the real deals {({k: round(v) for k, v in gain.items()})}",
              flush=True)  # fmt: skip
        if args.dd:
            print(f"  double-dummy judge: { ({k: round(v) for k, v in gain_dd.items()}) }", flush=True)


if __name__ == "__main__":
    main()
