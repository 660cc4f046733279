"""Da Bai Fen speed: random full deals per CPU second on one core, through the generic API and the fast paths, and
the replay time of a long record.  Run: .venv/bin/python bench/bench_da_bai_fen.py [seconds per figure]"""

from __future__ import annotations

import random
import sys

from benchkit import deals_per_cpu_second, replay_line

from rules.actions import Action
from rules.cards import nth_card
from rules.da_bai_fen import DaBaiFen
from rules.game import BETWEEN_DEALS, EXCHANGE, GAME_OVER, PLAY
from rules.players import RandomPlayer
from rules.playing import play_game
from rules.records import GameRecord


def generic_deal(match: DaBaiFen, rng: random.Random, player: RandomPlayer) -> None:
    """One deal through legal_actions() + apply(Action), as a generic computer player does."""
    match.start_deal(match.random_deal(rng))
    while match.phase not in (BETWEEN_DEALS, GAME_OVER):
        match.apply(player.choose(match, rng))


def fast_deal(match: DaBaiFen, rng: random.Random) -> None:
    """One deal through the fast path: draw_card(), the discard as an Action, legal_card_mask() + play_card()."""
    match.start_deal(match.random_deal(rng))
    match.draw_rest()
    if match.phase == "deal":
        match.draw_card()  # the starter turns the kitty over
    if match.phase == EXCHANGE:
        leader = match.leader
        match.apply(Action(leader, "discard", cards=tuple(rng.sample(match.hand(leader), 6))))
    rand = rng.random
    while match.phase == PLAY:
        legal = match.legal_card_mask()
        match.play_card(nth_card(legal, int(rand() * legal.bit_count())))


def playout_deal(match: DaBaiFen, rng: random.Random) -> None:
    """One deal through playout(): the whole random deal inside the engine, as Monte Carlo players use it."""
    match.start_deal(match.random_deal(rng))
    match.playout(rng)


def long_record() -> GameRecord:
    rng, match = random.Random(7), DaBaiFen()
    record = GameRecord("da_bai_fen", {}, 0)
    play_game(match, [RandomPlayer()] * match.players, rng, record, max_deals=40)
    return record


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    player = RandomPlayer()
    rate, n = deals_per_cpu_second(DaBaiFen, lambda m, r: generic_deal(m, r, player), seconds)
    print(f"generic legal_actions()+apply(): {rate:,.0f} random full deals/s ({n} deals)")
    rate, n = deals_per_cpu_second(DaBaiFen, fast_deal, seconds)
    print(f"fast path draw_rest()/legal_card_mask()/play_card(): {rate:,.0f} random full deals/s ({n} deals)")
    rate, n = deals_per_cpu_second(DaBaiFen, playout_deal, seconds)
    print(f"fast path playout(): {rate:,.0f} random full deals/s ({n} deals)")
    print(replay_line(long_record()))


if __name__ == "__main__":
    main()
