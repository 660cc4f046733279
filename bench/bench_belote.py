"""Belote benchmark: random full deals per second on one core, and the replay time of a long record.

Run: .venv/bin/python bench/bench_belote.py [seconds per measure, default 3]

A "full deal" is everything the engine does for one deal: a random deal of the cards (``random_deal`` +
``start_deal``), the auction and the eight tricks between random players, and the scoring.  Two variants:

- generic: every action through ``legal_actions()`` and ``apply(Action)`` (what ``RandomPlayer`` does);
- fast: the auction as above, the play through ``legal_card_mask()`` / ``play_card(card, announce)``, the path
  computer players use when they choose each card;
- rollout: the auction as above, then ``play_out(rng)`` finishes the deal with random legal cards (the Monte-Carlo
  rollout of the computer players).
"""

from __future__ import annotations

import random
import sys
import time

from benchkit import replay_line

from rules.belote import Belote
from rules.cards import KING, QUEEN, card
from rules.game import BIDDING, PLAY
from rules.players import RandomPlayer
from rules.playing import play_game
from rules.records import GameRecord

OPTIONS = {"target": 10**9}  # the game never ends: every deal is a full deal
KINGS_AND_QUEENS = sum(1 << card(rank, suit) for rank in (KING, QUEEN) for suit in range(4))


def play_generic(match: Belote, rng: random.Random) -> None:
    while match.phase == BIDDING or match.phase == PLAY:
        legal = match.legal_actions()
        match.apply(legal[int(rng.random() * len(legal))])


def play_fast(match: Belote, rng: random.Random) -> None:
    rand = rng.random
    while match.phase == BIDDING:
        legal = match.legal_actions()
        match.apply(legal[int(rand() * len(legal))])
    legal = match.legal_card_mask()
    while legal:
        for _ in range(int(rand() * legal.bit_count())):
            legal &= legal - 1
        card = (legal & -legal).bit_length() - 1
        announce = KINGS_AND_QUEENS >> card & 1 and match.belote_mask() >> card & 1  # announce every belote
        legal = match.play_card(card, announce)


def play_rollout(match: Belote, rng: random.Random) -> None:
    rand = rng.random
    while match.phase == BIDDING:
        legal = match.legal_actions()
        match.apply(legal[int(rand() * len(legal))])
    match.play_out(rng)


def deals_per_second(play, seconds: float, seed: int = 1, batch: int = 300) -> tuple[float, float]:
    """(best, median) rate over batches of ``batch`` deals, in CPU time of this process (the machine is shared:
    CPU time is what one core spends, whatever the other processes do)."""
    rng = random.Random(seed)
    match = Belote(OPTIONS)
    rates = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or len(rates) < 3:
        start = time.process_time()
        for _ in range(batch):
            match.start_deal(match.random_deal(rng))
            play(match, rng)
        rates.append(batch / (time.process_time() - start))
    rates.sort()
    return rates[-1], rates[len(rates) // 2]


def long_record(deals: int, seed: int = 7) -> GameRecord:
    rng, match = random.Random(seed), Belote(OPTIONS)
    record = GameRecord("belote", dict(OPTIONS), 0)
    play_game(match, [RandomPlayer()] * match.players, rng, record, max_deals=deals)
    return record


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"belote: random full deals per second, one core ({seconds:g} s each; best / median batch)")
    for name, play in (
        ("generic  legal_actions() + apply()        ", play_generic),
        ("fast     legal_card_mask() + play_card()  ", play_fast),
        ("rollout  auction as above, then play_out()", play_rollout),
    ):
        best, median = deals_per_second(play, seconds)
        print(f"  {name}: {best:7.0f} / {median:7.0f} deals/s")
    print(f"  {replay_line(long_record(500))}")


if __name__ == "__main__":
    main()
