"""Pairing each format's rounds: Swiss and mêlée as weighted matchings, round robin by the circle method, single
elimination (the double elimination's brackets are in ``double.py``).  Pure: entrants are ints, the seed is stored
with the round, and the same inputs always give the same round (``round_rng``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.tournaments.matching import layered, min_penalty_matching
from bot.tournaments.plan import History, Pairing, RoundPlan, pair_key, round_rng
from bot.tournaments.whist import whist_round

BYE = -1  # the matching's stand-in for "nobody": whoever is paired with it has the bye


def _score_groups(entrants: Sequence[int], scores: Mapping[int, float]) -> dict[int, int]:
    """Each entrant's score group, 0 the leaders: distances in groups keep the penalties small whatever the scale."""
    ordered = sorted({scores.get(e, 0) for e in entrants}, reverse=True)
    index = {s: i for i, s in enumerate(ordered)}
    return {e: index[scores.get(e, 0)] for e in entrants}


def swiss_round(
    entrants: Sequence[int],
    scores: Mapping[int, float],
    history: History,
    seed: int,
    round_no: int,
) -> RoundPlan:
    """Head-to-head tables, by priority: the bye (if the field is odd) to someone with the fewest byes; no rematch
    while one can be avoided; the bye to the lowest score; opponents from the same score group, else the nearest;
    the seeded draw among equals."""
    rng = round_rng(seed, round_no)
    field = sorted(set(entrants))
    if len(field) < 2:
        raise ValueError("a round needs at least two entrants")
    group = _score_groups(field, scores)
    bottom = max(group.values())
    fewest = min(history.byes[e] for e in field)
    nodes = field + ([BYE] if len(field) % 2 else [])
    pairs = len(nodes) // 2
    most_met = max((history.opponents[pair_key(a, b)] for a in field for b in field if a < b), default=0)
    most_byes = max(history.byes[e] for e in field) - fewest
    unit_score, unit_low, unit_rematch, unit_bye = layered(
        (pairs, bottom * bottom), (1, bottom), (pairs, most_met), (1, most_byes)
    )

    def penalty(a: int, b: int) -> int:
        if BYE in (a, b):
            e = b if a == BYE else a
            return unit_bye * (history.byes[e] - fewest) + unit_low * (bottom - group[e])
        gap = group[a] - group[b]
        return unit_rematch * history.opponents[pair_key(a, b)] + unit_score * gap * gap

    tables, byes = [], []
    for a, b in min_penalty_matching(nodes, penalty, rng):
        if BYE in (a, b):
            byes.append(b if a == BYE else a)
        else:
            # The higher-placed entrant sits first (side 0); between equals the draw decided the order.
            tables.append(Pairing(((a,), (b,)) if group[a] <= group[b] else ((b,), (a,))))
    return RoundPlan(tuple(tables), tuple(byes))


def melee_round(
    players: Sequence[int],
    history: History,
    seed: int,
    round_no: int,
    *,
    scores: Mapping[int, float] | None = None,
    field_at_start: Sequence[int] | None = None,
    placement_seed: int | None = None,
) -> RoundPlan:
    """Individual entry at partnership tables: partners redrawn each round, never the same partner twice while it can
    be avoided, then opponents met as rarely as possible.  ``scores`` given: a Swiss of individuals (partners and
    tables from near scores); otherwise a mêlée's open draw.  When the field is still the one that started and its
    size has a balanced whist schedule, the round is that schedule's (everyone partners everyone once, opposes
    everyone twice), the players placed on it by ``placement_seed`` (the tournament's, the same every round; by
    default ``seed``)."""
    field = sorted(set(players))
    if len(field) < 4:
        raise ValueError("a partnership table needs four players")
    if scores is None and field_at_start is not None and sorted(set(field_at_start)) == field:
        scheduled = whist_round(field, seed if placement_seed is None else placement_seed, round_no)
        if scheduled is not None:
            return scheduled
    rng = round_rng(seed, round_no)
    group = _score_groups(field, scores or {})
    bottom = max(group.values())
    # Byes: whoever has had fewest, then (Swiss) the lowest scores, then the draw.
    sitting = len(field) % 4
    tiebreak = {e: rng.random() for e in field}
    by_claim = sorted(field, key=lambda e: (history.byes[e], -group[e], tiebreak[e]))
    byes = tuple(sorted(by_claim[:sitting]))
    playing = [e for e in field if e not in byes]

    most_partnered = max((history.partners[pair_key(a, b)] for a in playing for b in playing if a < b), default=0)
    halves = len(playing) // 2
    unit_score, unit_repeat = layered((halves, bottom * bottom), (halves, most_partnered))

    def partner_penalty(a: int, b: int) -> int:
        gap = group[a] - group[b]
        return unit_repeat * history.partners[pair_key(a, b)] + unit_score * gap * gap

    teams = min_penalty_matching(playing, partner_penalty, rng)
    most_met = max((history.opponents[pair_key(a, b)] for a in playing for b in playing if a < b), default=0)
    quarters = len(teams) // 2
    unit_team_score, unit_met = layered((quarters, 4 * bottom * bottom), (quarters, 4 * most_met))

    def table_penalty(x: tuple[int, int], y: tuple[int, int]) -> int:
        met = sum(history.opponents[pair_key(a, b)] for a in x for b in y)
        gap = (group[x[0]] + group[x[1]]) - (group[y[0]] + group[y[1]])
        return unit_met * met + unit_team_score * min(gap * gap, 4 * bottom * bottom)

    tables = tuple(Pairing((x, y)) for x, y in min_penalty_matching(teams, table_penalty, rng))
    return RoundPlan(tables, byes)


def round_robin(entrants: Sequence[int], seed: int) -> list[RoundPlan]:
    """Every entrant meets every other once (the circle method); with an odd field each has one bye."""
    rng = round_rng(seed, 0, "round robin")
    field = sorted(set(entrants))
    rng.shuffle(field)
    ring: list[int] = field + ([BYE] if len(field) % 2 else [])
    rounds = []
    for r in range(len(ring) - 1):
        tables, byes = [], []
        for i in range(len(ring) // 2):
            a, b = ring[i], ring[-1 - i]
            if BYE in (a, b):
                byes.append(b if a == BYE else a)
            else:
                # Alternate who sits first so nobody is always side 0.
                tables.append(Pairing(((a,), (b,)) if (r + i) % 2 == 0 else ((b,), (a,))))
        rounds.append(RoundPlan(tuple(tables), tuple(byes)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def groups(entrants_by_seed: Sequence[int], count: int) -> list[list[int]]:
    """Entrants (best first) dealt into ``count`` groups in a snake, so each group gets a fair share of the best."""
    if count < 1:
        raise ValueError("at least one group")
    out: list[list[int]] = [[] for _ in range(count)]
    for i, e in enumerate(entrants_by_seed):
        lap, pos = divmod(i, count)
        out[pos if lap % 2 == 0 else count - 1 - pos].append(e)
    return out


def bracket_positions(size: int) -> list[int]:
    """Seed numbers (1 best) in bracket order for a power-of-two bracket: 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def bracket(entrants_by_seed: Sequence[int]) -> list[int | None]:
    """The first round's slots of a single-elimination bracket; None is a bye, which the top seeds get."""
    size = 1
    while size < len(entrants_by_seed):
        size *= 2
    return [entrants_by_seed[s - 1] if s <= len(entrants_by_seed) else None for s in bracket_positions(size)]


def elimination_round(slots: Sequence[int | None]) -> RoundPlan:
    tables, byes = [], []
    for i in range(0, len(slots), 2):
        a, b = slots[i], slots[i + 1]
        if a is not None and b is not None:
            tables.append(Pairing(((a,), (b,))))
        elif a is not None or b is not None:
            byes.append(a if a is not None else b)
    return RoundPlan(tuple(tables), tuple(e for e in byes if e is not None))


def advance(slots: Sequence[int | None], winners: set[int]) -> list[int | None]:
    """The next round's slots: each pair's winner (or the entrant who had the bye)."""
    out: list[int | None] = []
    for i in range(0, len(slots), 2):
        pair = [e for e in (slots[i], slots[i + 1]) if e is not None]
        if len(pair) == 2:
            won = [e for e in pair if e in winners]
            if len(won) != 1:
                raise ValueError(f"the match between {pair[0]} and {pair[1]} needs exactly one winner")
            out.append(won[0])
        else:
            out.append(pair[0] if pair else None)
    return out
