"""Scoring a deal and deciding the game: the contract's value, 10 per trick, misère, "500 up or 500 down"."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from rules.cards import suit_name
from rules.errors import Term, Words, marked
from rules.five_hundred.bids import ALL_TRICKS_BONUS, Bid

TRICK_POINTS = 10  # "each opponent scores 10 points per trick captured by himself"


@dataclass(slots=True)
class DealScore:
    """What one deal gives each side, and when (trick by trick) the sides that score for tricks got it."""

    change: list[int]
    made: bool | None
    # (trick index, side, points) in the order the tricks were taken: the text's "the trick that gave him 500 first"
    trick_gains: list[tuple[int, int, int]] = field(default_factory=list)
    lines: list[Words] = field(default_factory=list)  # the arithmetic in words, one sentence per side


def side_name(side: int, sides: Sequence[tuple[int, ...]], english: str | None = None) -> Term:
    """A side as its players: "seat 1", or "team 0 (seats 0, 2)" (``english``: how the record says it instead)."""
    seats = sides[side]
    if len(seats) == 1:
        return Term("seat", seats[0], english=english)
    return Term("players", seats, english=english or f"team {side} (seats {', '.join(map(str, seats))})")


def contract_term(bid: Bid) -> Term:
    """A contract as a game word: "7♠", "10NT", "misère" in English; each language writes its own."""
    return Term("contract", bid.contract or f"{bid.tricks}{suit_name(bid.trump)}", english=bid.name)


def score_all_pass(side_of: Sequence[int], sides: Sequence[tuple[int, ...]], trick_winners: Sequence[int]) -> DealScore:
    """ "If all pass ... Each player scores 10 points per trick won by himself." """
    result = DealScore([0] * len(sides), None, [(i, side_of[w], TRICK_POINTS) for i, w in enumerate(trick_winners)], [])
    _add_trick_gains(result, sides, Words("all passed: 10 per trick"))
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
            who = side_name(solo_side, sides)
            result.lines.append(Words("{who} won {bid}: +{value}", who=who, bid=contract_term(bid), value=bid.value))
            return result
        # "In a lost misère the soloist is set back by 250 (520) and each opponent scores 10 per trick taken by
        # the soloist."
        result.change[solo_side] -= bid.value
        lost = marked("{who} lost {bid} (1 trick): -{value}") if len(soloist_tricks) == 1 else LOST_MISERE
        result.lines.append(Words(lost, who=side_name(solo_side, sides), bid=contract_term(bid), n=len(soloist_tricks),
                                  value=bid.value))  # fmt: skip
        for i in soloist_tricks:
            for side in range(len(sides)):
                if side != solo_side:
                    result.trick_gains.append((i, side, TRICK_POINTS))
        _add_trick_gains(result, sides, Words("10 per trick the soloist took"))
        return result
    taken = sum(map(trick_winners.count, declarers))
    result.made = taken >= bid.tricks
    value = bid.value
    if result.made and taken == len(trick_winners) and value < ALL_TRICKS_BONUS:
        value = ALL_TRICKS_BONUS  # "if he succeeds in taking all ten in a contract worth less than 250"
    sign = 1 if result.made else -1
    result.change[solo_side] += sign * value
    verdict = PLAYED[result.made, value != bid.value]
    result.lines.append(Words(verdict, who=side_name(solo_side, sides), bid=contract_term(bid), value=bid.value,
                              taken=taken, change=f"{sign * value:+d}"))  # fmt: skip
    if partner is not None:
        # "The called partner wins or loses half the appropriate score"
        result.change[side_of[partner]] += sign * (value // 2)
        result.lines.append(Words("called partner {seat}: {change}", seat=Term("seat", partner),
                                  change=f"{sign * (value // 2):+d}"))  # fmt: skip
    result.trick_gains = [(i, side_of[w], TRICK_POINTS) for i, w in enumerate(trick_winners) if w not in declarers]
    _add_trick_gains(result, sides, Words("10 per trick"))
    return result


LOST_MISERE = marked("{who} lost {bid} ({n} tricks): -{value}")
PLAYED = {  # (made, all the tricks' bonus) -> the contract's line
    (True, False): marked("{who} bid {bid} ({value}), took {taken}: made, {change}"),
    (True, True): marked("{who} bid {bid} ({value}), took {taken}: made (all the tricks: 250), {change}"),
    (False, False): marked("{who} bid {bid} ({value}), took {taken}: failed, {change}"),
}


def _add_trick_gains(result: DealScore, sides: Sequence[tuple[int, ...]], why: Words) -> None:
    per_side = [0] * len(sides)
    for _, side, points in result.trick_gains:
        per_side[side] += points
    change, lines = result.change, result.lines
    for side, points in enumerate(per_side):
        if points:
            change[side] += points
            lines.append(Words("{who}: +{points} ({why})", who=side_name(side, sides), points=points, why=why))


class GameEnd(NamedTuple):
    over: bool
    winner: int | None = None
    reason: Words | None = None  # why the game ended


GAME_GOES_ON = GameEnd(False)


def decide_game(
    before: Sequence[int],
    score: DealScore,
    contract_sides: Sequence[int],
    target: int,
    sides: Sequence[tuple[int, ...]] = (),
) -> GameEnd:
    """ "Game is either 500 up or 500 down ... If two or more stand to reach 500 in the same deal the soloist scores
    first and wins if he thereby reaches the target; or, if both opponents reach 500 but not the soloist, then the
    winner is the one who took the trick that gave him 500 first."

    ``contract_sides`` are the sides that score the contract, in the order they score (the soloist's side, then a
    called partner); every other side scores trick by trick as ``score.trick_gains`` says.  ``sides`` (their seats)
    lets the reason name a side's players; the record says "side 1".
    """

    def side_of(s: int) -> object:
        return side_name(s, sides, english=str(s)) if sides else s

    after = [b + c for b, c in zip(before, score.change, strict=True)]
    highest = max(after)
    if highest < target and min(after) > -target:
        return GAME_GOES_ON  # the common case, decided at once
    for side in contract_sides:
        if after[side] >= target:
            return GameEnd(True, side, Words("side {side} reached {target} with the contract", side=side_of(side),
                                             target=target))  # fmt: skip
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
            return GameEnd(True, tied[0], Words("side {side} reached {target} first, at trick {trick}",
                                                side=side_of(tied[0]), target=target, trick=first + 1))  # fmt: skip
        # Only a lost misère gives two opponents their points on the same trick: the higher score then wins.
        return GameEnd(
            True,
            _unique_best(after, tied),
            Words("several sides reached {target} at trick {trick}", target=target, trick=first + 1),
        )
    if min(after) <= -target:
        # "or the player with the greatest score if and when one player is reduced to minus 500 or more"
        return GameEnd(
            True, _unique_best(after, range(len(after))), Words("a side fell to -{target} or below", target=target)
        )
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
