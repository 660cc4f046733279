"""Minimum-penalty perfect matchings, through networkx's ``max_weight_matching`` (Edmonds' blossom algorithm).

The pairing modules state what they want as a penalty per possible pair, built in layers so that a more important
concern always outweighs every less important one taken together (a fair bye beats avoiding a rematch beats keeping
score groups together beats the seeded draw).  Penalties are integers, so networkx computes exactly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

import networkx as nx

N = TypeVar("N", bound=Hashable)


def layered(*layers: tuple[int, int]) -> list[int]:
    """Weights for penalty layers given as (how many pairs can carry it at once, its largest value per pair), least
    important first: each layer's unit is worth more than every lesser layer summed over a whole round."""
    units, unit = [], 1
    for count, largest in layers:
        units.append(unit)
        unit *= count * largest + 1
    return units


def min_penalty_matching(
    nodes: Sequence[N],
    penalty: Callable[[N, N], int | None],
    rng: random.Random,
) -> list[tuple[N, N]]:
    """A perfect matching of ``nodes`` (an even number) of least total penalty; ``penalty(a, b)`` None forbids the
    pair.  ``rng`` orders the nodes, and so breaks ties between matchings of equal penalty, reproducibly."""
    if len(nodes) % 2:
        raise ValueError("a perfect matching needs an even number of nodes")
    order = list(nodes)
    rng.shuffle(order)
    costs: dict[tuple[int, int], int] = {}
    for i, a in enumerate(order):
        for j in range(i + 1, len(order)):
            cost = penalty(a, order[j])
            if cost is not None:
                costs[i, j] = cost
    if not costs:
        if order:
            raise ValueError("no pair is allowed")
        return []
    top = max(costs.values()) + 1
    graph = nx.Graph()
    graph.add_nodes_from(range(len(order)))
    graph.add_weighted_edges_from((i, j, top - cost) for (i, j), cost in costs.items())
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matched) != len(order):
        raise ValueError("the allowed pairs leave someone unmatched")
    return [(order[i], order[j]) for i, j in sorted((min(i, j), max(i, j)) for i, j in matched)]
