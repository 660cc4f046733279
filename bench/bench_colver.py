"""Our computer players against a published Belote Contrée program: colver (PyPI, MIT, a Rust engine with agents).

Issue 21 asks to measure against a published bot where one can run here. colver's strongest agents need model
weights fetched from a hub at run time, which this machine cannot reach; what runs without them is its IS-DD agent
("Dede": worlds sampled under the play's hard constraints, each solved double-dummy by its Rust solver) with
uniform worlds, and its rule-based bidders. colver is not a project dependency: install the pinned version into
the venv first (it pulls in numpy only; its hub client is imported only to download models, which this bench
never does):

    .venv/bin/pip install colver==0.11.1 numpy
    .venv/bin/python bench/bench_colver.py --level master --deals 100 --budget 0.1
    .venv/bin/python bench/bench_colver.py --level expert --deals 50 --colver-bid smart --colver-play isdd

Duplicate deals: each deal is played twice, our level at North-South and colver at East-West, then the other
way round, with the same cards and dealer; a deal is won by the side whose two sittings sum to more (the arena's
measure, ``rules.ai.arena``). Our engine is the referee and scores every deal (its default options, with a failed
contract worth 162 like colver's); colver keeps a mirror of the deal (``Env.deal_with_hands``) that is told
every action, and its agent decides from it. Its agent sees the whole mirror; its IS-DD samples the hidden hands
from its seat's view (its own documentation), and we trust that. Every action of one side is checked legal in the
other side's engine: a rule the two read differently stops the run with the position, not a silent fallback.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.actions import Action  # noqa: E402
from rules.ai.arena import deal_score, wilson  # noqa: E402
from rules.ai.players import make_ai_player  # noqa: E402
from rules.ai.view import build_view  # noqa: E402
from rules.belote.auction import POINT_BIDS  # noqa: E402
from rules.cards import RANK_INDEX  # noqa: E402
from rules.game import BETWEEN_DEALS, GAME_OVER  # noqa: E402
from rules.registry import new_match  # noqa: E402

COLVER_VERSION = "0.11.1"
# colver's card index: suit (♠ ♥ ♦ ♣, our order too) × 8 + the rank's place in 7 8 9 J Q K 10 A.
_COLVER_RANKS = tuple(RANK_INDEX[r] for r in ("7", "8", "9", "J", "Q", "K", "10", "A"))
PASS, COUNTER, RECOUNTER, FIRST_CAPOT = 0, 41, 42, 37
OPTIONS = {"failed_points": 162, "deals": 1}  # colver: "a chute marks 162 + the contract", exact, not rounded


def colver_card(card: int) -> int:
    return (card >> 4) * 8 + _COLVER_RANKS.index(card & 15)


def colver_action(action: Action) -> int:
    if action.type == "pass":
        return PASS
    if action.type == "counter":
        return COUNTER
    if action.type == "recounter":
        return RECOUNTER
    if action.type == "bid":
        assert action.suit is not None and action.contract is None, "colver plays suit contracts only"
        if action.value == "capot":
            return FIRST_CAPOT + action.suit
        return 1 + POINT_BIDS.index(int(action.value or 0)) * 4 + action.suit
    if action.type == "play":
        return colver_card(action.cards[0])
    raise ValueError(f"no colver action for {action}")


def our_action(match, code: int) -> Action:
    """The legal action of ours that colver's ``code`` means (the belote announced with it when it can be)."""
    matches = [a for a in match.legal_actions() if colver_action(a) == code]
    if not matches:
        raise RuntimeError(f"colver chose {code}, which our engine does not allow here: {match.legal_actions()}")
    return max(matches, key=lambda a: a.announce is not None)


def colver_spec(bid: str, play: str, budget_s: float) -> str:
    spec = f'[bid]\nstrategy = "{bid}"\n[play]\nmethod = "{play}"\n'
    if play in ("isdd", "ismcts", "smart_ismcts"):
        spec += f"time_ms = {max(1, round(budget_s * 1000))}\n"
    if play == "isdd":
        spec += '[worlds]\nsource = "uniform"\n'
    return spec


def play_sitting(colver, hands, dealer: int, ours_at: int, level_player, spec: str, seed: int, timing: dict) -> list:
    """One deal with our level at the seats of parity ``ours_at``; returns each side's deal score."""
    match = new_match("belote", OPTIONS, dealer)
    match.start_deal(hands)
    env = colver.Env.deal_with_hands(dealer, [[colver_card(c) for c in match.hand(s)] for s in range(4)])
    agents = {s: colver.Agent(spec, seat=s, seed=seed * 4 + s) for s in range(4) if s % 2 != ours_at}
    for agent in agents.values():
        agent.init_deal(env)
    rng = random.Random(seed)
    history: list[Action] = []
    while match.phase not in (BETWEEN_DEALS, GAME_OVER):
        seat = match.to_move
        assert seat is not None and env.current_player() == seat, (seat, env.current_player(), env.to_cfn())
        t0 = time.perf_counter()
        if seat % 2 == ours_at:
            action = level_player.choose_view(build_view(match, seat, history), rng)
            timing.setdefault("ours", []).append(time.perf_counter() - t0)
            code = colver_action(action)
            if code not in env.legal_actions():
                raise RuntimeError(f"colver does not allow our {action} here: {env.to_cfn()}")
        else:
            code = int(agents[seat].action(env))
            timing.setdefault("colver", []).append(time.perf_counter() - t0)
            action = our_action(match, code)
        for agent in agents.values():
            agent.observe(env, code)
        env.step(code)
        match.apply(action)
        history.append(action)
    return deal_score(match.deal_results[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="master", help="our level (master, expert, heuristic)")
    parser.add_argument("--budget", type=float, default=0.1, help="seconds a decision, both sides")
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--colver-bid", default="improved", help="heuristic, improved, smart or maxi (no weights)")
    parser.add_argument("--colver-play", default="isdd", help="isdd (uniform worlds), smart_ismcts, heuristic")
    args = parser.parse_args()
    try:
        import colver
    except ImportError:
        print(f"colver is not installed: .venv/bin/pip install colver=={COLVER_VERSION} numpy", file=sys.stderr)
        return 2
    if colver.__version__ != COLVER_VERSION:
        print(f"this bench maps colver {COLVER_VERSION}'s actions; found {colver.__version__}", file=sys.stderr)
        return 2
    spec = colver_spec(args.colver_bid, args.colver_play, args.budget)
    label = colver.Agent(spec, seat=0).label
    ours = make_ai_player(args.level, args.budget)
    deal_rng = random.Random(f"colver:{args.seed}")
    timing: dict[str, list[float]] = {}
    wins = losses = ties = 0
    margins = []
    started = time.perf_counter()
    for i in range(args.deals):
        probe = new_match("belote", OPTIONS)
        hands, dealer = probe.random_deal(deal_rng), deal_rng.randrange(4)
        margin = 0.0
        for ours_at in (0, 1):
            score = play_sitting(colver, hands, dealer, ours_at, ours, spec, args.seed * 100_003 + i, timing)
            margin += score[ours_at] - score[1 - ours_at]
        margins.append(margin)
        wins, losses, ties = wins + (margin > 0), losses + (margin < 0), ties + (margin == 0)
        if (i + 1) % 10 == 0 or i + 1 == args.deals:
            rate = (wins + ties / 2) / (i + 1)
            print(f"  {i + 1} deals: {wins}-{losses}-{ties}, {rate:.3f}, mean margin {statistics.mean(margins):+.1f}",
                  flush=True)  # fmt: skip
    n = len(margins)
    rate = (wins + ties / 2) / n
    low, high = wilson(wins + ties / 2, n)
    print(f"belote, {args.level} against colver {colver.__version__} '{label}', {n} duplicate deals, "
          f"{args.budget:g} s a decision, {time.perf_counter() - started:.0f} s")  # fmt: skip
    print(f"won-lost-tied {wins}-{losses}-{ties}: win rate {rate:.3f} [95% {low:.3f}, {high:.3f}], "
          f"mean margin {statistics.mean(margins):+.1f} points a deal")  # fmt: skip
    for side, times in sorted(timing.items()):
        times.sort()
        print(f"decision time {side}: p50 {times[len(times) // 2] * 1000:.0f} ms, "
              f"p95 {times[int(len(times) * 0.95)] * 1000:.0f} ms over {len(times)}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
