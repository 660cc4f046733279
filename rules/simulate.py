"""``cardtable simulate``: whole games between computer players, with their records."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from rules.game import GAME_OVER
from rules.playing import play_game
from rules.records import GameRecord
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


def recorded_game(game: str, options: dict, rng: random.Random, players: list, max_deals: int) -> tuple:
    """One game (or its first ``max_deals`` deals) from a random first dealer; returns (record, match)."""
    first_dealer = rng.randrange(new_match(game, options).players)
    match = new_match(game, options, first_dealer)
    record = GameRecord(game, dict(options), first_dealer)
    play_game(match, players, rng, record, max_deals)
    return record, match


def simulate(game: str, options: dict, deals: int, seed: int, players: list) -> tuple[Summary, list[GameRecord]]:
    rng = random.Random(seed)
    summary = Summary(game)
    records = []
    start = time.perf_counter()
    while summary.deals < deals:
        record, match = recorded_game(game, options, rng, players, min(MAX_DEALS_PER_GAME, deals - summary.deals))
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


def run_arena_cli(args, options: dict) -> int:
    """``cardtable simulate --arena A,B``: duplicate matches between two levels, win rate with a 95% interval."""
    import json

    from rules.ai.arena import run_arena

    levels = args.arena.split(",")
    if len(levels) != 2:
        raise ValueError("--arena takes two levels separated by a comma, e.g. heuristic,random")
    from rules.ai.players import make_ai_player

    for level in levels:
        make_ai_player(level)  # an unknown level is an error before anything is played

    def progress(r):
        if not args.json:
            lo, hi = r.interval()
            print(f"  match {r.matches}: {r.wins}-{r.losses}-{r.ties}  win rate {r.rate:.2f} [{lo:.2f}, {hi:.2f}]",
                  flush=True)  # fmt: skip

    result = run_arena(args.game, options, levels[0], levels[1], args.matches, args.seed, args.deals_per_match,
                       args.budget, progress)  # fmt: skip
    info = result.as_dict()
    if args.json:
        print(json.dumps(info))
    else:
        lo, hi = info["ci95"]
        print(f"game: {info['game']}  {info['a']} vs {info['b']}: {info['matches']} duplicate matches "
              f"of {args.deals_per_match} deals")  # fmt: skip
        print(f"{info['a']} won {info['wins']}, lost {info['losses']}, tied {info['ties']}: win rate "
              f"{info['win_rate']:.3f} (95% CI {lo:.3f}-{hi:.3f}); mean margin {info['mean_margin']}")  # fmt: skip
        for level, t in info["decision_seconds"].items():
            p50, p95 = t["p50"] * 1000, t["p95"] * 1000
            print(f"  {level}: decision time p50 {p50:.1f} ms, p95 {p95:.1f} ms ({t['n']} decisions)")
        print(f"time: {info['seconds']} s")
    return 0
