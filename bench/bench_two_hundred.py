"""Two Hundred speed: random full deals per second on one core, through the generic API and the fast path, and the
replay time of a long record, in CPU time.  Run: .venv/bin/python bench/bench_two_hundred.py [seconds per figure]"""

from __future__ import annotations

import json
import random
import sys
import time
from functools import partial

from benchkit import deals_per_cpu_second, load_average, replay_line

from rules.actions import Action
from rules.cards import nth_card
from rules.game import BETWEEN_DEALS, GAME_OVER
from rules.players import RandomPlayer
from rules.playing import play_deal
from rules.records import GameRecord, parse_record
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


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"Python {sys.version.split()[0]}; {load_average()}")
    runs = (
        ("generic legal_actions()+apply()", partial(generic_deal, player=RandomPlayer())),
        ("fast path legal_card_mask()+play_card()", fast_deal),
        ("fast path with random_playout()", partial(fast_deal, playout=True)),
    )
    for label, options in (("standard", {}), ("kitty", {"kitty": True})):
        for name, run in runs:
            rate, n = deals_per_cpu_second(partial(TwoHundred, options), run, seconds, max_deals_per_game=200)
            print(f"{label}: {name}: {rate:,.0f} random full deals/s ({n} deals)")
    rate, n = playouts_per_second(seconds)
    print(f"standard: clone() + random_playout() from the first lead: {rate:,.0f} playouts/s ({n} playouts)")
    print(replay_line(parse_record(json.loads(long_record().dumps()))))  # as a record read from a file
    print(f"at the end: {load_average()}")


if __name__ == "__main__":
    main()
