"""Five Hundred speed: random full deals per second on one core, through the generic API and the fast path, and the
replay time of a long record, all in CPU time.
Run: .venv/bin/python bench/bench_five_hundred.py [seconds per figure] [players]"""

from __future__ import annotations

import random
import sys

from benchkit import deals_per_cpu_second, replay_line

from rules.actions import Action
from rules.cards import JK, nth_card
from rules.five_hundred import FiveHundred
from rules.game import BETWEEN_DEALS, BIDDING, EXCHANGE, GAME_OVER, PLAY
from rules.players import RandomPlayer
from rules.playing import play_game
from rules.records import GameRecord


def generic_deal(match: FiveHundred, rng: random.Random, player: RandomPlayer) -> None:
    """One deal through legal_actions() + apply(Action), as a generic computer player does."""
    match.start_deal(match.random_deal(rng))
    while match.phase not in (BETWEEN_DEALS, GAME_OVER):
        match.apply(player.choose(match, rng))


def fast_deal(match: FiveHundred, rng: random.Random) -> None:
    """One deal through the fast path: the auction and exchange as Actions picked uniformly (as RandomPlayer does,
    with rng.random for rng.randrange, as bench_two_hundred does), then legal_card_mask() + play_card()."""
    match.start_deal(match.random_deal(rng))
    uniform = rng.random  # faster than randrange, and as good for picking among a handful of choices
    apply, legal_actions = match.apply, match.legal_actions
    while match.phase == BIDDING or match.phase == EXCHANGE:
        legal = legal_actions()
        pick = legal[int(uniform() * len(legal))]
        if pick.type == "discard":
            pick = Action(pick.seat, "discard", cards=tuple(rng.sample(pick.from_cards, pick.choose)))
        apply(pick)
    play_card, legal_card_mask = match.play_card, match.legal_card_mask
    while match.phase == PLAY:
        legal = legal_card_mask()
        c = nth_card(legal, int(uniform() * legal.bit_count()))
        if c == JK and match.joker_names_suit():
            suits = match.joker_lead_suits()
            play_card(c, suits[int(uniform() * len(suits))])
        else:
            play_card(c)


def long_record(options: dict, deals: int = 300) -> GameRecord:
    """A long game: a huge target keeps random players at the table for ``deals`` deals."""
    options = {**options, "target": 1_000_000}
    rng, match = random.Random(7), FiveHundred(options)
    record = GameRecord("five_hundred", options, 0)
    play_game(match, [RandomPlayer()] * match.players, rng, record, max_deals=deals)
    return record


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    options = {"players": int(sys.argv[2])} if len(sys.argv) > 2 else {}
    print(f"Five Hundred, options {options or 'default (3 players)'}")
    player = RandomPlayer()
    rate, n = deals_per_cpu_second(lambda: FiveHundred(options), lambda m, r: generic_deal(m, r, player), seconds)
    print(f"generic legal_actions()+apply(): {rate:,.0f} random full deals/s ({n} deals)")
    rate, n = deals_per_cpu_second(lambda: FiveHundred(options), fast_deal, seconds)
    print(f"fast path legal_card_mask()/play_card(): {rate:,.0f} random full deals/s ({n} deals)")
    print(replay_line(long_record(options)))


if __name__ == "__main__":
    main()
