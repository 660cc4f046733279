"""One line for a learner: what the player would do and why (``/hint``).

The reason is ``Words`` (a message id with fields, as the engines' refusals), so the bot says it in each player's
language; an action named inside it (the next best move) is kept as an ``Action`` field for the bot to label."""

from __future__ import annotations

import random

from rules.actions import Action
from rules.ai.expert import Decision, ExpertPlayer
from rules.ai.heuristic import heuristic_action
from rules.ai.master import MasterPlayer
from rules.ai.players import DEFAULT_BUDGET_S
from rules.ai.view import SeatView
from rules.errors import Words, marked

HEURISTIC_REASONS = {
    "bidding": marked("bid from the hand's strength"),
    "exchange": marked("keep trumps and aces, throw the small cards of short suits"),
    "trump": marked("name the longest, strongest suit"),
    "deal": marked("expose only with enough trumps in that suit"),
    "play": marked("the usual card play: win with points at stake, else play low"),
}
RULE_OF_THUMB = marked("a rule of thumb")
DECISION_REASONS = {"only move": marked("the only legal move"), "only candidate": marked("the only sensible move")}


def explain_view(level: str, view: SeatView, rng: random.Random, budget_s: float | None = None) -> tuple[Action, Words]:
    budget = DEFAULT_BUDGET_S if budget_s is None else budget_s
    if level in ("expert", "master"):
        player = MasterPlayer(budget) if level == "master" else ExpertPlayer(budget)
        decision = player.decide(view, rng)
        return decision.action, describe_decision(decision, view)
    reason = HEURISTIC_REASONS.get(view.phase, RULE_OF_THUMB)
    return heuristic_action(view, rng), Words(reason)


def describe_decision(d: Decision, view: SeatView) -> Words:
    """Why ``d.action``: the sampled (or likely) deals' verdict, the next best move, and the tricks solved exactly."""
    if not d.stats:
        reason = DECISION_REASONS.get(d.reason) or HEURISTIC_REASONS.get(view.phase, RULE_OF_THUMB)
        return Words(reason)
    best = next(s for s in d.stats if s.action == d.action)
    others = sorted((s for s in d.stats if s is not best and s.n), key=lambda s: -s.mean)
    mean = f"{best.mean:+.0f}"
    # The master's line is for players: whose points they are ("for your side"); the expert's deals are unweighted.
    if view.phase == "play" and best.trick_known:
        pct = round(100 * best.trick_wins / best.trick_known)
        if d.weighted:
            verdict = Words(
                "{pct}% of {n} likely deals win the trick, {mean} points for your side on average",
                pct=pct, n=best.n, mean=mean,
            )  # fmt: skip
        else:
            verdict = Words("{pct}% of {n} sampled deals win the trick, {mean} points on average",
                            pct=pct, n=best.n, mean=mean)  # fmt: skip
    elif d.weighted:
        verdict = Words("averages {mean} points for your side over {n} likely deals", mean=mean, n=best.n)
    else:
        verdict = Words("averages {mean} points over {n} sampled deals", mean=mean, n=best.n)
    if not others and not d.solved:
        return verdict
    alternative: Words | str = ""
    if others:
        alternative = Words(" ({action}: {mean})", action=others[0].action, mean=f"{others[0].mean:+.0f}")
    solved = Words("; the last {n} tricks worked out card by card in each", n=d.solved) if d.solved else ""
    return Words("{verdict}{alternative}{solved}", verdict=verdict, alternative=alternative, solved=solved)
