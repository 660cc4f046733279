"""Five Hundred speed: random full deals per second on one core, through the generic API and the fast path, and the
replay time of a long record.  Run: .venv/bin/python bench/bench_five_hundred.py [seconds per figure] [players]"""

from __future__ import annotations

import random
import sys
import time

from bot.records import GameRecord, replay
from rules.cards import JK, nth_card
from rules.five_hundred import FiveHundred
from rules.game import BETWEEN_DEALS, GAME_OVER, PLAY
from rules.players import RandomPlayer


def generic_deal(match: FiveHundred, rng: random.Random, player: RandomPlayer) -> None:
    """One deal through legal_actions() + apply(Action), as a generic computer player does."""
    match.start_deal(match.random_deal(rng))
    while match.phase not in (BETWEEN_DEALS, GAME_OVER):
        match.apply(player.choose(match, rng))


def fast_deal(match: FiveHundred, rng: random.Random, player: RandomPlayer) -> None:
    """One deal through the fast path: the auction and exchange as Actions, then legal_card_mask() + play_card()."""
    match.start_deal(match.random_deal(rng))
    while match.phase != PLAY and match.phase not in (BETWEEN_DEALS, GAME_OVER):
        match.apply(player.choose(match, rng))
    uniform = rng.random  # faster than randrange, and as good for picking among a handful of cards
    while match.phase == PLAY:
        legal = match.legal_card_mask()
        c = nth_card(legal, int(uniform() * legal.bit_count()))
        suit = None
        if c == JK and match.joker_names_suit():
            suits = match.joker_lead_suits()
            suit = suits[int(uniform() * len(suits))]
        match.play_card(c, suit)


def deals_per_second(run, seconds: float, options: dict) -> tuple[float, int]:
    rng, player = random.Random(1), RandomPlayer()
    match, deals, start = FiveHundred(options), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        if match.phase == GAME_OVER:
            match = FiveHundred(options)
        run(match, rng, player)
        deals += 1
    return deals / (time.perf_counter() - start), deals


def long_record(options: dict, deals: int = 300) -> GameRecord:
    """A long game: a huge target keeps random players at the table for ``deals`` deals."""
    options = {**options, "target": 1_000_000}
    rng, player = random.Random(7), RandomPlayer()
    match = FiveHundred(options)
    record = GameRecord("five_hundred", options, 0)
    while match.phase != GAME_OVER and len(record.deals) < deals:
        cards = match.random_deal(rng)
        match.start_deal(cards)
        record.add_deal(cards)
        while match.phase not in (BETWEEN_DEALS, GAME_OVER):
            action = player.choose(match, rng)
            match.apply(action)
            record.append(action)
    return record


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    options = {"players": int(sys.argv[2])} if len(sys.argv) > 2 else {}
    print(f"Five Hundred, options {options or 'default (3 players)'}")
    rate, n = deals_per_second(generic_deal, seconds, options)
    print(f"generic legal_actions()+apply(): {rate:,.0f} random full deals/s ({n} deals)")
    rate, n = deals_per_second(fast_deal, seconds, options)
    print(f"fast path legal_card_mask()/play_card(): {rate:,.0f} random full deals/s ({n} deals)")
    record = long_record(options)
    actions = sum(len(d.actions) for d in record.deals)
    start = time.perf_counter()
    replay(record)
    took = time.perf_counter() - start
    print(f"replay of a {len(record.deals)}-deal record ({actions} actions): {took * 1000:.1f} ms")


if __name__ == "__main__":
    main()
