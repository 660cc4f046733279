"""Benchmark: what checking a claim of the remaining tricks costs (rules/claims.py), per game and cards in hand.

Deals of each game are played by the heuristic players; at the first play with N cards in the hand of the seat to
move, that seat claims.  Prints, per game and N: how many claims were proven, only possible (put to the
opponents), impossible, or undecided within the search's budget, and the check's time (median and worst).

    .venv/bin/python bench/bench_claims.py [--deals 20] [--cards 2 4 6 8]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from rules.claims import check_claim  # noqa: E402
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY  # noqa: E402
from rules.players import make_player  # noqa: E402
from rules.registry import match_class  # noqa: E402

GAMES = [("two_hundred", {}), ("five_hundred", {}), ("belote", {}), ("da_bai_fen", {})]


def position(game: str, options: dict, rng: random.Random, cards: int):
    match = match_class(game)(options, 0)
    match.start_deal(match.random_deal(rng))
    player, history = make_player("heuristic"), []
    while match.phase not in (BETWEEN_DEALS, GAME_OVER):
        legal = match.legal_actions()
        if match.phase == PLAY and len(match.hand(match.to_move)) <= cards and all(a.type == "play" for a in legal):
            return match
        action = player.choose(match, rng, history=history)
        match.apply(action)
        history.append(action.to_json())
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--cards", type=int, nargs="+", default=[2, 4, 6, 8])
    args = parser.parse_args()
    head = f"{'game':<14}{'cards':>6}{'proven':>8}{'asked':>7}{'no':>5}{'undecided':>11}"
    print(head + f"{'median ms':>11}{'worst ms':>10}")
    for game, options in GAMES:
        for cards in args.cards:
            rng = random.Random(cards)
            counts = {"proven": 0, "asked": 0, "no": 0, "undecided": 0}
            times = []
            for _ in range(args.deals):
                match = position(game, options, rng, cards)
                if match is None:
                    continue
                start = time.perf_counter()
                check = check_claim(match, match.to_move)
                times.append((time.perf_counter() - start) * 1000)
                kind = (
                    "proven"
                    if check.proven
                    else "asked"
                    if check.possible
                    else "no"
                    if check.possible is False
                    else "undecided"
                )
                counts[kind] += 1
            if times:
                print(
                    f"{game:<14}{cards:>6}{counts['proven']:>8}{counts['asked']:>7}{counts['no']:>5}"
                    f"{counts['undecided']:>11}{statistics.median(times):>11.1f}{max(times):>10.1f}"
                )


if __name__ == "__main__":
    main()
