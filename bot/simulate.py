"""``cardtable simulate``: whole games between computer players, with their records."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from bot.records import GameRecord
from rules.game import BETWEEN_DEALS, GAME_OVER
from rules.registry import new_match

MAX_DEALS_PER_GAME = 2000  # a safety net: random play always ends a game long before this


@dataclass
class Summary:
    game: str
    games: int = 0
    games_finished: int = 0
    deals: int = 0
    thrown_in: int = 0
    contracts: int = 0
    contracts_made: int = 0
    final_scores: list[list[int]] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict:
        n = len(self.final_scores)
        width = len(self.final_scores[0]) if n else 0
        return {
            "game": self.game,
            "games": self.games,
            "games_finished": self.games_finished,
            "deals": self.deals,
            "thrown_in": self.thrown_in,
            "contracts": self.contracts,
            "contracts_made": self.contracts_made,
            "made_rate": round(self.contracts_made / self.contracts, 3) if self.contracts else None,
            "average_final_scores": [round(sum(s[i] for s in self.final_scores) / n, 1) for i in range(width)],
            "seconds": round(self.seconds, 3),
            "deals_per_second": round(self.deals / self.seconds, 1) if self.seconds else None,
        }


def play_game(game: str, options: dict, rng: random.Random, players: list, max_deals: int) -> tuple:
    """One game (or its first ``max_deals`` deals); returns (record, match)."""
    probe = new_match(game, options)
    first_dealer = rng.randrange(probe.players)
    match = new_match(game, options, first_dealer)
    record = GameRecord(game, dict(options), first_dealer)
    while match.phase != GAME_OVER and len(record.deals) < max_deals:
        cards = match.random_deal(rng)
        match.start_deal(cards)
        record.add_deal(cards)
        while match.phase not in (BETWEEN_DEALS, GAME_OVER):
            action = players[match.to_move].choose(match, rng)
            match.apply(action)
            record.append(action)
    return record, match


def simulate(game: str, options: dict, deals: int, seed: int, players: list) -> tuple[Summary, list[GameRecord]]:
    rng = random.Random(seed)
    summary = Summary(game)
    records = []
    start = time.perf_counter()
    while summary.deals < deals:
        record, match = play_game(game, options, rng, players, min(MAX_DEALS_PER_GAME, deals - summary.deals))
        records.append(record)
        summary.games += 1
        summary.games_finished += match.phase == GAME_OVER
        summary.deals += len(match.deal_results)
        summary.final_scores.append(match.scores())
        for result in match.deal_results:
            summary.thrown_in += bool(result.get("thrown_in"))
            made = result.get("made")
            if made is not None:
                summary.contracts += 1
                summary.contracts_made += bool(made)
    summary.seconds = time.perf_counter() - start
    return summary, records
