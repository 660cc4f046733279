"""Scoring one deal (FFB rules §10 and the project's rule decisions), as a pure function.

Each side's *total* is its card points (with the dix de der, 100 for the last trick of a capot) and its belote.
The contract is made when the takers' total reaches the bid and is greater than the defenders' total; a capot
contract is made only by taking all eight tricks.

Default scoring ("points made"), no rounding; ``base`` is 160 (option ``failed_points``: 162):

- made, not countered: takers total + contract value; defenders their total;
- failed, not countered: defenders base + contract value; takers nothing;
- countered (x2) / recountered (x4): made → takers (base + value) x m, defenders 0; failed → defenders
  (base + value) x m, takers 0;
- a belote is "invincible": its 20 always go to the side that announced it, never multiplied.

Options: ``scoring: "announced"`` gives made takers the contract value only (x m when countered) and the
defenders nothing but their belote; ``rounding`` rounds each side's result to the nearest ten (5 up);
``litige`` holds the takers' points over when both totals are equal (see ``score_deal``).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.errors import Words, marked


@dataclass(slots=True)
class DealTally:
    """What the play produced, seen from the contract."""

    takers: int  # team 0 or 1
    value: int  # the contract value (capot: 250)
    capot: bool  # a capot contract
    multiplier: int  # 1, 2 (countered) or 4 (recountered)
    card_points: tuple[int, int]  # per team, dix de der included
    tricks: tuple[int, int]  # per team
    belote: tuple[int, int]  # per team: 20 for an announced belote (more only at tout atout)


@dataclass(frozen=True)
class ScoringRules:
    base: int = 160  # what "all the points" are worth in a failed or countered contract
    announced: bool = False  # score only the contract value when made
    rounding: bool = False  # round each side's result to the nearest ten
    litige: bool = False  # equal totals: the takers' points are held over to the next deal's winner


@dataclass(slots=True)
class DealScore:
    score_change: tuple[int, int]
    made: bool
    litige: bool
    totals: tuple[int, int]  # per team: card points + belote
    held_over: int  # points held over after this deal (litige option)
    explain: str
    words: tuple[Words, ...] = ()  # ``explain`` as sentences the bot translates


# Why a contract (not a capot) was made or not: (reached the value, more than the defenders) -> the sentence.
WHY = {
    (True, True): marked("takers {took} reached {value} and are more than defenders {gave}"),
    (True, False): marked("takers {took} reached {value} and are not more than defenders {gave}"),
    (False, True): marked("takers {took} did not reach {value} and are more than defenders {gave}"),
    (False, False): marked("takers {took} did not reach {value} and are not more than defenders {gave}"),
}


def round_to_ten(points: int) -> int:
    """Nearest ten, a 5 rounds up: 84 → 80, 85 → 90."""
    return (points + 5) // 10 * 10


def _made_how(t: DealTally, rules: ScoringRules, takers: int) -> str:
    """The arithmetic of a made contract's score, in words."""
    m = t.multiplier
    if m == 1:
        return f"{t.value}" if rules.announced else f"{t.card_points[takers]} + {t.value}"
    return f"{t.value} x {m}" if rules.announced else f"({rules.base} + {t.value}) x {m}"


def score_deal(t: DealTally, rules: ScoringRules, held: int = 0) -> DealScore:
    takers, defenders = t.takers, 1 - t.takers
    totals = (t.card_points[0] + t.belote[0], t.card_points[1] + t.belote[1])
    took, gave = totals[takers], totals[defenders]
    m = t.multiplier
    if t.capot:
        made = t.tricks[takers] == 8
        why = "takers took all eight tricks" if made else f"takers took {t.tricks[takers]} of the eight tricks, not all"
        said = [Words("takers took all eight tricks") if made else
                Words("takers took {n} of the eight tricks, not all", n=t.tricks[takers])]  # fmt: skip
    else:
        made = took >= t.value and took > gave
        reach = "reached" if took >= t.value else "did not reach"
        beat = "more than" if took > gave else "not more than"
        why = f"takers {took} {reach} {t.value} and are {beat} defenders {gave}"
        said = [Words(WHY[took >= t.value, took > gave], took=took, value=t.value, gave=gave)]
    litige = rules.litige and not t.capot and took == gave and took >= t.value

    # What each side scores if the contract is made (belote apart).
    if m == 1:
        takers_made = t.value if rules.announced else t.card_points[takers] + t.value
        defenders_made = 0 if rules.announced else t.card_points[defenders]
    else:
        takers_made = t.value * m if rules.announced else (rules.base + t.value) * m
        defenders_made = 0

    change = [0, 0]
    change[takers] = t.belote[takers]
    change[defenders] = t.belote[defenders]
    if litige:
        change[defenders] += defenders_made
        held_after = held + takers_made
        result = f"litige: equal totals {took}-{gave}; {takers_made} held over for the next deal's winner"
        said.append(Words("litige: equal totals {took}-{gave}; {held} held over for the next deal's winner",
                          took=took, gave=gave, held=takers_made))  # fmt: skip
        winner = None
    elif made:
        change[takers] += takers_made
        change[defenders] += defenders_made
        held_after = 0
        result = f"made: takers {_made_how(t, rules, takers)} = {takers_made}, defenders {defenders_made}"
        said.append(Words("made: takers {how} = {score}, defenders {defenders}", how=_made_how(t, rules, takers),
                          score=takers_made, defenders=defenders_made))  # fmt: skip
        winner = takers
    else:
        failed_award = (rules.base + t.value) * m
        change[defenders] += failed_award
        held_after = 0
        how = f"{rules.base} + {t.value}" if m == 1 else f"({rules.base} + {t.value}) x {m}"
        result = f"failed: defenders {how} = {failed_award}, takers 0"
        said.append(Words("failed: defenders {how} = {award}, takers 0", how=how, award=failed_award))
        winner = defenders
    if winner is not None and held:
        change[winner] += held
        result += f"; +{held} held over from a litige"
        said.append(Words("+{held} held over from a litige", held=held))
    if any(t.belote):
        result += "; belote " + ", ".join(f"+{b} to team {'AB'[i]}" for i, b in enumerate(t.belote) if b)
        said += [Words("belote +{points} to team {team}", points=b, team="AB"[i]) for i, b in enumerate(t.belote) if b]
    if rules.rounding:
        rounded = [round_to_ten(x) for x in change]
        if rounded != change:
            result += f"; rounded {change[0]}/{change[1]} to {rounded[0]}/{rounded[1]}"
            said.append(Words("rounded {a}/{b} to {c}/{d}", a=change[0], b=change[1], c=rounded[0], d=rounded[1]))
        change = rounded
    return DealScore(
        (change[0], change[1]), made and not litige, litige, totals, held_after, f"{why}; {result}", tuple(said)
    )
