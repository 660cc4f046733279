"""Are the master's values of its calls right?  Its model's value of a bid and of the pass against what they gave.

    nice -n 19 .venv/bin/python bench/calibrate_calls.py --game two_hundred --deals 60 --seed 9001

The arena's duplicate deals (as ``bench/diagnose_arena.py``: the same cards and dealer for a ``--seed``), the first
sitting only (A at side 0).  At each of A's calls that it searched with a pass and a bid among its candidates, three
values of the bid (A's call if a bid, else its best-valued bid) and of the pass, from A's seat:

- *model*: the mean its search gave (sampled worlds, the rest of the auction and the play by the heuristic);
- *heuristic on the real deal*: the same model on the true hands (``master_bids.finish_auction`` and the heuristic's
  play, ``--judges`` times with other random streams): the model without the sampling of the hidden hands;
- *real*: the sitting played on from that call by the arena's own levels (A and B at the budget), once each.

The model minus the heuristic on the real deal is what the sampled worlds add; the heuristic on the real deal minus
the real outcome is what the model of the rest of the deal (the heuristic's calls and play against searching
players) adds.  Printed per deal and as means by the auction's state at the call (opening, over the other side, my
side's bid standing).  Figures only, nothing here is an assertion.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from benchkit import arena_options, set_constants  # noqa: E402

from rules.actions import Action  # noqa: E402
from rules.ai import master_bids  # noqa: E402
from rules.ai.arena import _sides, arena_deals  # noqa: E402
from rules.ai.expert import rollout  # noqa: E402
from rules.ai.games import adapter_for  # noqa: E402
from rules.ai.knowledge import Knowledge  # noqa: E402
from rules.ai.players import make_ai_player  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.game import BETWEEN_DEALS, BIDDING, GAME_OVER  # noqa: E402
from rules.registry import new_match  # noqa: E402


def heuristic_value(m, history: list[Action], call: Action, seed: int) -> float:
    """The calling seat's result on the real deal after ``call``: the heuristic's calls (nobody outbidding their
    own side) and play, as the master's model plays a world."""
    seat = call.seat
    k = Knowledge(build_view(m, seat, history))
    w = m.clone()
    w.apply(call)
    rng = random.Random(seed)
    master_bids.finish_auction(w, [*history, call], rng)
    return rollout(w, seat, k, rng, 0.0)[0]


def real_value(m, history: list[Action], call: Action, levels, players, seed: int) -> float:
    """The calling seat's side's result when the sitting is played on from ``call`` by the arena's levels."""
    w = m.clone()
    h = [*history, call]
    w.apply(call)
    rng = random.Random(seed)
    while w.phase not in (BETWEEN_DEALS, GAME_OVER):
        seat = w.to_move
        a = players[levels[seat]].choose_view(build_view(w, seat, h), rng)
        w.apply(a)
        h.append(a)
    return adapter_for(m.game_id, m.options).utility(w, call.seat, w.deal_results[-1])


def state_at(view, k: Knowledge) -> str:
    if not any(a.type == "bid" for a in view.history):
        return "opening"
    return "my side's bid standing" if master_bids.own_side_holds_bid(view, k) else "over the other side"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    arena_options(ap, game="two_hundred", seed=9001)
    ap.add_argument("--judges", type=int, default=8, help="heuristic plays of the real deal per call")
    args = ap.parse_args()
    set_constants(args.set)
    game = args.game
    players = {lv: make_ai_player(lv, args.budget) for lv in {args.a, args.b}}
    rows: dict[str, list[tuple]] = defaultdict(list)
    for i in range(args.deals):
        seed = args.seed + i
        probe = new_match(game, {})
        sides = _sides(probe)
        first_dealer, (cards,) = arena_deals(game, {}, seed)
        levels = [args.a if sides[s] == 0 else args.b for s in range(probe.players)]
        m = new_match(game, {}, first_dealer)
        m.start_deal(cards)
        history: list[Action] = []
        play_rng = random.Random(seed * 7919)
        while m.phase == BIDDING:
            seat = m.to_move
            view = build_view(m, seat, history)
            if levels[seat] == args.a:
                d = players[args.a].decide(view, play_rng)
                stats = {s.action: s.mean for s in d.stats or []}
                passing = next((a for a in stats if a.type == "pass"), None)
                bids = [a for a in stats if a.type == "bid"]
                if passing is not None and bids:
                    bid = d.action if d.action.type == "bid" else max(bids, key=lambda a: stats[a])
                    k = Knowledge(view)
                    h = {
                        a: statistics.fmean(heuristic_value(m, history, a, j) for j in range(args.judges))
                        for a in (bid, passing)
                    }
                    real = {
                        a: real_value(m, history, a, levels, players, seed * 31 + n)
                        for n, a in enumerate((bid, passing))
                    }
                    row = (stats[bid], stats[passing], h[bid], h[passing], real[bid], real[passing])
                    where = state_at(view, k)
                    rows[where].append(row)
                    called = d.action.type if d.action.value is None else d.action.value
                    print(f"seed {seed} {where:22} A called {called} bid {bid.value}:"
                          f" model {row[0]:+.0f} / pass {row[1]:+.0f}; heuristic on the real deal"
                          f" {row[2]:+.0f} / {row[3]:+.0f}; real {row[4]:+.0f} / {row[5]:+.0f}",
                          flush=True)  # fmt: skip
                action = d.action
            else:
                action = players[levels[seat]].choose_view(view, play_rng)
            m.apply(action)
            history.append(action)
    names = ("model", "heuristic on the real deal", "real")
    for where, rs in sorted(rows.items()):
        print(f"{where}: {len(rs)} calls")
        for j, name in enumerate(names):
            bid = statistics.fmean(r[2 * j] for r in rs)
            gain = statistics.fmean(r[2 * j] - r[2 * j + 1] for r in rs)
            print(f"  {name:27} the bid {bid:+6.1f}, the bid minus the pass {gain:+6.1f}")


if __name__ == "__main__":
    main()
