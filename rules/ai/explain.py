"""One line for a learner: what the player would do and why (``/hint``)."""

from __future__ import annotations

import random

from rules.actions import Action
from rules.ai.expert import Decision, ExpertPlayer, describe_action
from rules.ai.heuristic import heuristic_action
from rules.ai.master import MasterPlayer
from rules.ai.players import DEFAULT_BUDGET_S
from rules.ai.view import SeatView

HEURISTIC_REASONS = {
    "bidding": "bid from the hand's strength",
    "exchange": "keep trumps and aces, throw the small cards of short suits",
    "trump": "name the longest, strongest suit",
    "deal": "expose only with enough trumps in that suit",
    "play": "the usual card play: win with points at stake, else play low",
}


def explain_view(level: str, view: SeatView, rng: random.Random, budget_s: float | None = None) -> tuple[Action, str]:
    budget = DEFAULT_BUDGET_S if budget_s is None else budget_s
    if level in ("expert", "master"):
        player = MasterPlayer(budget) if level == "master" else ExpertPlayer(budget)
        decision = player.decide(view, rng)
        return decision.action, describe_decision(decision, view)
    action = heuristic_action(view, rng)
    return action, f"{describe_action(action)}: {HEURISTIC_REASONS.get(view.phase, 'a rule of thumb')}"


def _points(game: str) -> str:
    return {"da_bai_fen": "score", "five_hundred": "points"}.get(game, "points")


def describe_decision(d: Decision, view: SeatView) -> str:
    name = describe_action(d.action)
    if not d.stats:
        reason = {"only move": "the only legal move", "only candidate": "the only sensible move"}.get(d.reason)
        return f"{name}: {reason or HEURISTIC_REASONS.get(view.phase, 'a rule of thumb')}"
    best = next(s for s in d.stats if s.action == d.action)
    others = sorted((s for s in d.stats if s is not best and s.n), key=lambda s: -s.mean)
    unit = _points(view.game)
    deals = "likely deals" if d.weighted else "sampled deals"
    unit += " for your side" if d.weighted else ""  # the master's line is for players: whose points they are
    if view.phase == "play" and best.trick_known:
        pct = round(100 * best.trick_wins / best.trick_known)
        line = f"{name}: {pct}% of {best.n} {deals} win the trick, {best.mean:+.0f} {unit} on average"
    else:
        line = f"{name}: averages {best.mean:+.0f} {unit} over {best.n} {deals}"
    if others:
        alt = others[0]
        line += f" ({describe_action(alt.action)}: {alt.mean:+.0f})"
    if d.solved:
        line += f"; the last {d.solved} tricks worked out card by card in each"
    return line
