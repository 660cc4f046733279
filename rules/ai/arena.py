"""Duplicate matches between two levels: the same deals played again with the sides swapped, to remove card luck.

A *duplicate match* is a fixed sequence of deals (the same cards, the same first dealer) played once per side: level
A holds side 0 and level B the others, then A holds side 1, and so on (Five Hundred's three players: A sits in each
seat in turn).  A's result is the sum over sittings of its side's score change minus the other sides' average; A wins
the match when that sum is positive.  Win rates come with a 95% Wilson interval (a tie counts half).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from rules.actions import Action
from rules.ai.players import make_ai_player
from rules.ai.view import build_view
from rules.game import BETWEEN_DEALS, GAME_OVER
from rules.registry import new_match


@dataclass
class ArenaResult:
    game: str
    a: str
    b: str
    matches: int = 0
    wins: int = 0
    losses: int = 0
    ties: int = 0
    margin: float = 0.0  # A's summed score advantage over all matches
    decisions: dict = field(default_factory=dict)  # level -> list of seconds per decision
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        return (self.wins + 0.5 * self.ties) / self.matches if self.matches else 0.0

    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + 0.5 * self.ties, self.matches)

    def as_dict(self) -> dict:
        lo, hi = self.interval()
        times = {}
        for level, ts in self.decisions.items():
            if ts:
                s = sorted(ts)
                times[level] = {"p50": s[len(s) // 2], "p95": s[min(len(s) - 1, int(0.95 * len(s)))], "n": len(s)}
        return {
            "game": self.game,
            "a": self.a,
            "b": self.b,
            "matches": self.matches,
            "wins": self.wins,
            "losses": self.losses,
            "ties": self.ties,
            "win_rate": round(self.rate, 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "mean_margin": round(self.margin / self.matches, 1) if self.matches else 0.0,
            "decision_seconds": {k: {kk: round(vv, 4) if kk != "n" else vv for kk, vv in v.items()}
                                 for k, v in times.items()},
            "seconds": round(self.seconds, 1),
        }  # fmt: skip


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def deal_score(result: dict) -> list[float]:
    """Each side's gain from one deal.  Da Bai Fen's levels move in steps of one or two, so a side's card points
    (1/200 of a level per point) break the many ties the level table leaves."""
    change = list(result.get("score_change") or [])
    if "opponent_points" in result and "declarers" in result and change:
        d = result["declarers"]
        pts = [0.0, 0.0]
        pts[d] = result.get("declarer_points", 0)
        pts[1 - d] = result["opponent_points"]
        return [change[i] + pts[i] / 200 for i in range(2)]
    return change


def _sides(match) -> list[int]:
    side_of = getattr(match, "side_of", None)
    if isinstance(side_of, (list, tuple)) and len(side_of) == match.players:
        return list(side_of)
    return [s % 2 for s in range(match.players)] if match.players % 2 == 0 else list(range(match.players))


def play_sitting(game, options, first_dealer, deals, levels, players, seed, timing) -> list[float]:
    """Play the deals with ``levels[seat]``; returns each seat's summed score change (its side's)."""
    match = new_match(game, options, first_dealer)
    sides = _sides(match)
    totals = [0.0] * match.players
    rng = random.Random(seed)
    for cards in deals:
        if match.phase == GAME_OVER:
            break
        match.start_deal(cards)
        history: list[Action] = []
        steps = 0
        while match.phase not in (BETWEEN_DEALS, GAME_OVER):
            seat = match.to_move
            assert seat is not None  # someone is to move until the deal ends
            view = build_view(match, seat, history)
            t0 = time.perf_counter()
            action = players[levels[seat]].choose_view(view, rng)
            timing.setdefault(levels[seat], []).append(time.perf_counter() - t0)
            match.apply(action)
            history.append(action)
            steps += 1
            if steps > 2000:
                raise RuntimeError("a deal did not end")
        change = deal_score(match.deal_results[-1])
        for seat in range(match.players):
            if change:
                totals[seat] += change[sides[seat]] if len(change) > max(sides) else 0
    return totals


def arena_deals(game: str, options: dict, seed: int, count: int = 1) -> tuple[int, list]:
    """The first dealer and the ``count`` deals of the arena's duplicate match ``seed``: the same for every
    sitting, and for the diagnosis scripts that replay the arena's deals (bench/)."""
    rng = random.Random(f"arena:{game}:{seed}")
    probe = new_match(game, options)
    first_dealer = rng.randrange(probe.players)
    return first_dealer, [probe.random_deal(rng) for _ in range(count)]


def duplicate_match(game, options, a, b, players, seed, deals_per_match, timing) -> float:
    """A's advantage over B on one set of deals played from every side."""
    probe = new_match(game, options)
    sides = _sides(probe)
    n_sides = len(set(sides))
    first_dealer, deals = arena_deals(game, options, seed, deals_per_match)
    total = 0.0
    for r in range(n_sides):
        levels = [a if sides[s] == r else b for s in range(probe.players)]
        totals = play_sitting(game, options, first_dealer, deals, levels, players, seed * 7919 + r, timing)
        mine = [totals[s] for s in range(probe.players) if sides[s] == r]
        other_sides = {sides[s] for s in range(probe.players) if sides[s] != r}
        others = [next(totals[s] for s in range(probe.players) if sides[s] == o) for o in other_sides]
        total += mine[0] - sum(others) / len(others)
    return total


def run_arena(game: str, options: dict, a: str, b: str, matches: int, seed: int = 0, deals_per_match: int = 4,
              budget_s: float | None = None, progress=None) -> ArenaResult:  # fmt: skip
    players = {level: make_ai_player(level, budget_s) for level in {a, b}}
    result = ArenaResult(game, a, b)
    start = time.perf_counter()
    for i in range(matches):
        margin = duplicate_match(game, options, a, b, players, seed + i, deals_per_match, result.decisions)
        result.matches += 1
        result.margin += margin
        if margin > 0:
            result.wins += 1
        elif margin < 0:
            result.losses += 1
        else:
            result.ties += 1
        if progress is not None:
            progress(result)
    result.seconds = time.perf_counter() - start
    return result
