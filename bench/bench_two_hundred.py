"""Two Hundred speed: random full deals per second on one core, through the generic API and the fast path, and the
replay time of a long record, in CPU time.  Run: .venv/bin/python bench/bench_two_hundred.py [seconds per figure]"""

from __future__ import annotations

import json
import os
import random
import sys
import time

from rules.actions import Action
from rules.cards import nth_card
from rules.game import BETWEEN_DEALS, GAME_OVER
from rules.players import RandomPlayer
from rules.playing import play_deal
from rules.records import GameRecord, parse_record, replay
from rules.two_hundred import TwoHundred


def generic_deal(match: TwoHundred, rng: random.Random, player: RandomPlayer) -> None:
    """One deal through legal_actions() + apply(Action), as a generic computer player does."""
    match.start_deal(match.random_deal(rng))
    while match.phase not in (BETWEEN_DEALS, GAME_OVER):
        match.apply(player.choose(match, rng))


def fast_deal(match: TwoHundred, rng: random.Random, playout: bool = False) -> None:
    """One deal through the fast path: the auction and trump as Actions, then legal_card_mask() + play_card()."""
    match.start_deal(match.random_deal(rng))
    rand = rng.random
    while match.step != "play" and match.phase not in (BETWEEN_DEALS, GAME_OVER):
        legal = match.legal_actions()
        pick = legal[int(rand() * len(legal))]
        if pick.type == "discard":
            pick = Action(pick.seat, "discard", cards=tuple(rng.sample(pick.from_cards, pick.choose)))
        if pick.type == "play":
            match.play_card(pick.cards[0])
        else:
            match.apply(pick)  # type: ignore[arg-type]
    if playout:
        match.random_playout(rng)
        return
    play_card, legal_card_mask = match.play_card, match.legal_card_mask
    while match.step == "play":
        legal = legal_card_mask()
        play_card(nth_card(legal, int(rand() * legal.bit_count())))


def deals_per_second(run, seconds: float, options: dict) -> tuple[float, int]:
    """Deals per second of CPU time (process_time): the figure for one core, even on a machine shared with others."""
    rng = random.Random(1)
    match, deals, start = TwoHundred(options), 0, time.process_time()
    while time.process_time() - start < seconds:
        if match.phase == GAME_OVER or len(match.deal_results) > 200:
            match = TwoHundred(options)
        run(match, rng)
        deals += 1
    return deals / (time.process_time() - start), deals


def playouts_per_second(seconds: float) -> tuple[float, int]:
    """What a Monte-Carlo player does for each sample: copy the position and play the deal out at random."""
    rng = random.Random(2)
    match = TwoHundred()
    match.start_deal(match.random_deal(rng))
    while match.step != "play":
        legal = [a for a in match.legal_actions() if a.type != "play"]
        match.apply(legal[-1] if match.step == "bid" else legal[0])  # type: ignore[arg-type]
    n, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        match.clone().random_playout(rng)
        n += 1
    return n / (time.process_time() - start), n


def long_record(min_actions: int = 1000) -> GameRecord:
    rng, match = random.Random(7), TwoHundred()
    record = GameRecord("two_hundred", {}, 0)
    while sum(len(d.actions) for d in record.deals) < min_actions:
        play_deal(match, [RandomPlayer()] * match.players, rng, record)
    return record


def load_average() -> str:
    """The machine's load (CPU time per figure is fairer than wall time, but a loaded machine still runs slower)."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load average unknown"
    return f"load average {one:.2f} (5 min {five:.2f}) on {os.cpu_count()} CPUs"


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"Python {sys.version.split()[0]}; {load_average()}")
    player = RandomPlayer()
    for label, options in (("standard", {}), ("kitty", {"kitty": True})):
        rate, n = deals_per_second(lambda m, r: generic_deal(m, r, player), seconds, options)
        print(f"{label}: generic legal_actions()+apply(): {rate:,.0f} random full deals/s ({n} deals)")
        rate, n = deals_per_second(fast_deal, seconds, options)
        print(f"{label}: fast path legal_card_mask()+play_card(): {rate:,.0f} random full deals/s ({n} deals)")
        rate, n = deals_per_second(lambda m, r: fast_deal(m, r, playout=True), seconds, options)
        print(f"{label}: fast path with random_playout(): {rate:,.0f} random full deals/s ({n} deals)")
    rate, n = playouts_per_second(seconds)
    print(f"standard: clone() + random_playout() from the first lead: {rate:,.0f} playouts/s ({n} playouts)")
    record = long_record()
    actions = sum(len(d.actions) for d in record.deals)
    parsed = parse_record(json.loads(record.dumps()))
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        replay(parsed)
        best = min(best, time.process_time() - start)
    print(f"replay of a {len(record.deals)}-deal record ({actions} actions): {best * 1000:.1f} ms CPU (best of 5)")
    print(f"at the end: {load_average()}")


if __name__ == "__main__":
    main()
