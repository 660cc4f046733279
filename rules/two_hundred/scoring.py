"""Scoring a deal and deciding the game.

"If the contractor's team has at least as many card points as the final bid, the total value of the cards in their
tricks is added to their cumulative score. If the number of card points they took is less than the bid, the amount
of the bid is subtracted from their cumulative score.  The opposing team add whatever card points they took in tricks
to their cumulative score, with one exception: if the contractor's opponents currently have a cumulative score of
100 or more, then they can score for points in their tricks only if at least one member of their team bid during the
auction."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import Term, Words, marked

from .bidding import HUNDRED_FOR_TWO_HUNDRED
from .table import TOTAL_POINTS


@dataclass(frozen=True)
class ScoringRules:
    target: int
    threshold: int  # "the threshhold beyond which you are 'required to bid'"
    qualifying_bid: int  # the lowest bid that counts as having bid (1: any bid)
    within_margin: int | None
    lose_at: int
    both_reach_target: str
    win_only_by_contract: bool
    drop_out: bool


def scoring_rules(options: dict, drop_out: bool) -> ScoringRules:
    target = options["target"]
    threshold = options["must_bid_threshold"]
    return ScoringRules(
        target=target,
        threshold=target - 100 if threshold is None else threshold,
        qualifying_bid=max(options["qualifying_bid"] or 0, 1),
        within_margin=options["within_margin"],
        lose_at=options["lose_at"] or target,
        both_reach_target=options["both_reach_target"],
        win_only_by_contract=options["win_only_by_contract"],
        drop_out=drop_out,
    )


@dataclass
class Side:
    """The units playing together in one deal (side 0 is the contractor's), their card points and best bid."""

    units: tuple[int, ...]
    points: int
    best_bid: int  # the highest bid or keep made by one of its players (0: all passed)


def contract_made(bid: int, points: int) -> bool:
    if bid == HUNDRED_FOR_TWO_HUNDRED:
        return points >= TOTAL_POINTS  # "commits the contractor's team to win all 100 points in tricks"
    return points >= bid


def contractor_change(bid: int, points: int) -> int:
    if contract_made(bid, points):
        return HUNDRED_FOR_TWO_HUNDRED if bid == HUNDRED_FOR_TWO_HUNDRED else points  # "They score 200 points"
    return -TOTAL_POINTS if bid == HUNDRED_FOR_TWO_HUNDRED else -bid  # "loses just 100 points"


def defender_scores(rules: ScoringRules, score_before: int, side: Side, made: bool) -> bool:
    """Whether a defending unit at ``score_before`` scores its side's points."""
    if rules.within_margin is not None:
        # "A team that is within 50 ... of the target score cannot score unless they actually win the bidding and
        # play the contract or defeat (box) the contractor."
        return score_before < rules.target - rules.within_margin or not made
    # "they can score for points in their tricks only if at least one member of their team bid"; "Some players
    # require a team to have bid at least 60 to qualify"
    return score_before < rules.threshold or side.best_bid >= rules.qualifying_bid


def score_deal(
    rules: ScoringRules,
    scores: list[int],
    sides: list[Side],
    bid: int,
    multiplier: int,
    unit_seats: Sequence[tuple[int, ...]] = (),
) -> tuple[list[int], bool, list[Words]]:
    """Score changes per unit, whether the contract was made, and the arithmetic in words (one sentence per side;
    ``unit_seats``, the seats playing for each unit, lets a language name the players where English names roles)."""
    change = [0] * len(scores)
    contract = sides[0]
    made = contract_made(bid, contract.points)
    delta = contractor_change(bid, contract.points) * multiplier
    for u in contract.units:
        change[u] = delta

    def who(units: tuple[int, ...], english: str) -> object:
        if not unit_seats:
            return english
        return Term("players", tuple(sorted({s for u in units for s in unit_seats[u]})), english=english)

    said = CONTRACTORS[made, multiplier == 2]
    words = [Words(said, who=who(contract.units, "contractors"), points=contract.points, bid=bid, change=f"{delta:+d}")]
    defending = [u for side in sides[1:] for u in side.units]
    for side in sides[1:]:
        for u in side.units:
            # players' words: "defenders" when one side defends, else the side's letter (as the score lines say)
            side_words = who((u,), "defenders" if len(defending) == 1 else f"team {'ABCDEF'[u]}")
            if defender_scores(rules, scores[u], side, made):
                change[u] = side.points * multiplier
                words.append(Words("{who} took {points}: {change}", who=side_words, points=side.points,
                                   change=f"{change[u]:+d}"))  # fmt: skip
            else:
                words.append(Words("{who} took {points} but score nothing (at {score} without having bid)",
                                   who=side_words, points=side.points, score=scores[u]))  # fmt: skip
    return change, made, words


# The contractors' sentence, by (made, no trumps).
CONTRACTORS = {
    (True, False): marked("{who} took {points} of bid {bid}: made, {change}"),
    (False, False): marked("{who} took {points} of bid {bid}: failed, {change}"),
    (True, True): marked("{who} took {points} of bid {bid}: made, {change} x2 (no trumps)"),
    (False, True): marked("{who} took {points} of bid {bid}: failed, {change} x2 (no trumps)"),
}


@dataclass
class GameEnd:
    over: bool = False
    winner: int | None = None
    drop: tuple[int, ...] = ()


def _best(scores: list[int], candidates: list[int], contractor: int) -> int | None:
    best = max(scores[u] for u in candidates)
    top = [u for u in candidates if scores[u] == best]
    if len(top) == 1:
        return top[0]
    return contractor if contractor in top else None


def game_end(rules: ScoringRules, scores: list[int], active: list[int], contracting: tuple[int, ...],
             contractor: int, made: bool | None) -> GameEnd:  # fmt: skip
    """ "The first team to achieve a score of 200 points or more wins the game. If both teams reach 200 or more on the
    same deal then the bidding team wins.  The game also ends if one team reaches a negative score of 200 or worse
    while the other team's score is positive or zero."""
    target, lose_at = rules.target, -rules.lose_at
    if all([lose_at < scores[u] < target for u in active]):
        return GameEnd()  # the usual case: nobody at the target or at -lose_at
    reached = [u for u in active if scores[u] >= target]
    if rules.win_only_by_contract:
        reached = [u for u in reached if made and u in contracting]
    if reached:
        candidates = reached
        if rules.both_reach_target == "contractor":
            candidates = [u for u in reached if u in contracting] or reached
        winner = _best(scores, candidates, contractor if rules.both_reach_target == "contractor" else -1)
        if winner is not None:
            return GameEnd(True, winner)
        # "It's unclear what happens in this version if the scores are equal ... Perhaps another deal is played"
    losers = [u for u in active if scores[u] <= -rules.lose_at]
    others = [u for u in active if u not in losers]
    if not losers or not any(scores[u] >= 0 for u in others):
        return GameEnd()
    if len(active) == 2:
        return GameEnd(True, others[0])
    if rules.drop_out:
        # "the losing team drops out while the other two teams keep their scores and continue playing"
        if len(others) == 1:
            return GameEnd(True, others[0], tuple(losers))
        return GameEnd(False, None, tuple(losers))
    return GameEnd(True, _best(scores, others, -1))
