"""Scoring a deal and deciding the game: the contract's value, 10 per trick, misère, "500 up or 500 down"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from rules.five_hundred.bids import ALL_TRICKS_BONUS, Bid

TRICK_POINTS = 10  # "each opponent scores 10 points per trick captured by himself"


@dataclass(slots=True)
class DealScore:
    """What one deal gives each side, and when (trick by trick) the sides that score for tricks got it."""

    change: list[int]
    made: bool | None
    # (trick index, side, points) in the order the tricks were taken: the text's "the trick that gave him 500 first"
    trick_gains: list[tuple[int, int, int]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def side_name(side: int, sides: Sequence[tuple[int, ...]]) -> str:
    seats = sides[side]
    return f"seat {seats[0]}" if len(seats) == 1 else f"team {side} (seats {', '.join(map(str, seats))})"


def score_all_pass(side_of: Sequence[int], sides: Sequence[tuple[int, ...]], trick_winners: Sequence[int]) -> DealScore:
    """ "If all pass ... Each player scores 10 points per trick won by himself." """
    result = DealScore([0] * len(sides), None, [(i, side_of[w], TRICK_POINTS) for i, w in enumerate(trick_winners)], [])
    _add_trick_gains(result, sides, "all passed: 10 per trick")
    return result


def score_contract(
    bid: Bid,
    soloist: int,
    partner: int | None,
    declarers: frozenset[int],
    side_of: Sequence[int],
    sides: Sequence[tuple[int, ...]],
    trick_winners: Sequence[int],
) -> DealScore:
    """Score a played contract.  ``declarers`` are the soloist, his partners and a called partner."""
    result = DealScore([0] * len(sides), None, [], [])
    solo_side = side_of[soloist]
    if bid.misere:
        soloist_tricks = [i for i, w in enumerate(trick_winners) if w == soloist]
        result.made = not soloist_tricks
        if result.made:
            # "each opponent scores 10 points per trick captured by himself, except in a won misère"
            result.change[solo_side] += bid.value
            result.lines.append(f"{side_name(solo_side, sides)} won {bid.name}: +{bid.value}")
            return result
        # "In a lost misère the soloist is set back by 250 (520) and each opponent scores 10 per trick taken by
        # the soloist."
        result.change[solo_side] -= bid.value
        took = f"{len(soloist_tricks)} trick{'s' if len(soloist_tricks) != 1 else ''}"
        result.lines.append(f"{side_name(solo_side, sides)} lost {bid.name} ({took}): "
                            f"-{bid.value}")  # fmt: skip
        for i in soloist_tricks:
            for side in range(len(sides)):
                if side != solo_side:
                    result.trick_gains.append((i, side, TRICK_POINTS))
        _add_trick_gains(result, sides, "10 per trick the soloist took")
        return result
    taken = sum(map(trick_winners.count, declarers))
    result.made = taken >= bid.tricks
    value = bid.value
    if result.made and taken == len(trick_winners) and value < ALL_TRICKS_BONUS:
        value = ALL_TRICKS_BONUS  # "if he succeeds in taking all ten in a contract worth less than 250"
    sign = 1 if result.made else -1
    result.change[solo_side] += sign * value
    verdict = "made" if result.made else "failed"
    extra = " (all the tricks: 250)" if value != bid.value else ""
    result.lines.append(f"{side_name(solo_side, sides)} bid {bid.describe()}, took {taken}: {verdict}{extra}, "
                        f"{sign * value:+d}")  # fmt: skip
    if partner is not None:
        # "The called partner wins or loses half the appropriate score"
        result.change[side_of[partner]] += sign * (value // 2)
        result.lines.append(f"called partner seat {partner}: {sign * (value // 2):+d}")
    result.trick_gains = [(i, side_of[w], TRICK_POINTS) for i, w in enumerate(trick_winners) if w not in declarers]
    _add_trick_gains(result, sides, "10 per trick")
    return result


def _add_trick_gains(result: DealScore, sides: Sequence[tuple[int, ...]], why: str) -> None:
    per_side = [0] * len(sides)
    for _, side, points in result.trick_gains:
        per_side[side] += points
    change, lines = result.change, result.lines
    for side, points in enumerate(per_side):
        if points:
            change[side] += points
            lines.append(f"{side_name(side, sides)}: +{points} ({why})")


class GameEnd(NamedTuple):
    over: bool
    winner: int | None = None
    reason: str = ""


GAME_GOES_ON = GameEnd(False)


def decide_game(before: Sequence[int], score: DealScore, contract_sides: Sequence[int], target: int) -> GameEnd:
    """ "Game is either 500 up or 500 down ... If two or more stand to reach 500 in the same deal the soloist scores
    first and wins if he thereby reaches the target; or, if both opponents reach 500 but not the soloist, then the
    winner is the one who took the trick that gave him 500 first."

    ``contract_sides`` are the sides that score the contract, in the order they score (the soloist's side, then a
    called partner); every other side scores trick by trick as ``score.trick_gains`` says.
    """
    after = [b + c for b, c in zip(before, score.change, strict=True)]
    highest = max(after)
    if highest < target and min(after) > -target:
        return GAME_GOES_ON  # the common case, decided at once
    for side in contract_sides:
        if after[side] >= target:
            return GameEnd(True, side, f"side {side} reached {target} with the contract")
    running = list(before)
    reached_at: dict[int, int] = {}
    for trick, side, points in score.trick_gains if highest >= target else ():  # the tricks in order
        running[side] += points
        if running[side] >= target and side not in reached_at:
            reached_at[side] = trick
    if reached_at:
        first = min(reached_at.values())
        tied = [side for side, trick in reached_at.items() if trick == first]
        if len(tied) == 1:
            return GameEnd(True, tied[0], f"side {tied[0]} reached {target} first, at trick {first + 1}")
        # Only a lost misère gives two opponents their points on the same trick: the higher score then wins.
        return GameEnd(True, _unique_best(after, tied), f"several sides reached {target} at trick {first + 1}")
    if min(after) <= -target:
        # "or the player with the greatest score if and when one player is reduced to minus 500 or more"
        return GameEnd(True, _unique_best(after, range(len(after))), f"a side fell to -{target} or below")
    return GAME_GOES_ON


def _unique_best(scores: Sequence[int], sides) -> int | None:
    """The side with the greatest score among ``sides``; None when several share it."""
    best, leader = None, None
    for s in sides:
        if best is None or scores[s] > best:
            best, leader = scores[s], s
        elif scores[s] == best:
            leader = None
    return leader
