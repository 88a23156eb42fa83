"""Two-player Swiss pairing as a maximum-weight perfect matching (networkx's
``max_weight_matching``, Edmonds' blossom algorithm with weights) with strict
priorities, each worth more than everything below it together:

1. the fewest rematches (pairs that met before);
2. the bye (odd fields) to the lowest-ranked player among those with the fewest byes,
   as low as the rematches allow;
3. the least sum over pairs of their score difference squared;
4. the fewest players paired outside their score group;
5. the Dutch order: in a score group of ``g`` players, the one at place ``i`` of the
   group meets the one at ``i + g // 2`` (top half against bottom half); a pair across
   groups, the nearest in the ranking.

A pair's cost is ``c1·B1 + c2·B2 + c3·B3 + c4·B4 + c5``, the ``B`` large enough that no
sum of lower terms over a whole pairing reaches the next; the weight is a constant less
the cost, so the heaviest perfect matching is the cheapest pairing. Integers only:
networkx compares them exactly.

A field's pairs are looked for among the ``window`` nearest places in the ranking and
around each player's Dutch partner; the rematches of the result are compared with the
fewest possible (a maximum-cardinality matching of the pairs that have not met, over
the whole field), and the window is doubled until they agree, up to the whole field.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from math import lcm

from league.seating.base import PlayerId
from league.seating.v1.matching import best_pairing

BYE = -1
WINDOW = 6


def pair_costs(
    order: Sequence[PlayerId], points: Mapping[PlayerId, Fraction], times: Callable[[PlayerId, PlayerId], int]
) -> Callable[[int, int], tuple[int, int, int, int]]:
    """The cost terms 1, 3, 4, 5 of pairing places ``i < j`` of ``order`` (best first)."""
    scale = lcm(*(Fraction(points.get(p, 0)).denominator for p in order)) if order else 1
    score = [int(Fraction(points.get(p, 0)) * scale) for p in order]
    group_start: list[int] = []
    group_size: dict[int, int] = {}
    for i, s in enumerate(score):
        group_start.append(group_start[-1] if i and score[i - 1] == s else i)
        group_size[group_start[i]] = group_size.get(group_start[i], 0) + 1

    def cost(i: int, j: int) -> tuple[int, int, int, int]:
        a, b = order[i], order[j]
        if group_start[i] == group_start[j]:
            g = group_size[group_start[i]]
            dutch = abs(j - i - g // 2)
            return int(times(a, b) > 0), 0, 0, dutch
        return int(times(a, b) > 0), (score[i] - score[j]) ** 2, 1, j - i

    return cost


def swiss_pairs(
    order: Sequence[PlayerId],
    points: Mapping[PlayerId, Fraction],
    times: Callable[[PlayerId, PlayerId], int],
    bye_eligible: Sequence[PlayerId] = (),
    window: int = WINDOW,
) -> tuple[list[tuple[PlayerId, PlayerId]], PlayerId | None]:
    """The pairs (higher-ranked first) of ``order`` (best first), and the player with
    the bye when the count is odd (one of ``bye_eligible``)."""
    import networkx as nx  # here, not at the top: only a two-player Swiss round needs it

    n = len(order)
    odd = n % 2 == 1
    if odd and not bye_eligible:
        raise ValueError("an odd field needs players who may have the bye")
    if n < 2:
        return [], (order[0] if odd else None)
    cost = pair_costs(order, points, times)
    # the bye's rank: 0 for the lowest ranked eligible player
    eligible = {p: k for k, p in enumerate(sorted(bye_eligible, key=order.index, reverse=True))}
    fewest = _fewest_rematches(order, times, odd, eligible)
    top_score = max((cost(0, j)[1] for j in range(1, n)), default=0)
    b4 = n * n + 1
    b3 = (n + 1) * b4
    b2 = (n * max(top_score, 1) + 1) * b3
    b_bye = (n + 1) * b2
    b1 = (n + 1) * b_bye
    while True:
        costs: list[tuple[int, int, int]] = []
        for i in range(n):
            for j in _candidates(i, n, window, cost) if window < n else range(i + 1, n):
                c1, c2, c3, c4 = cost(i, j)
                costs.append((i, j, c1 * b1 + c2 * b2 + c3 * b3 + c4))
        if odd:
            costs.extend((order.index(p), BYE, k * b_bye) for p, k in eligible.items())
        # the heaviest matching is the cheapest: every weight the most cost less its own
        top = max(c for _, _, c in costs) + 1
        graph: nx.Graph[int] = nx.Graph()
        graph.add_weighted_edges_from((i, j, top - c) for i, j, c in costs)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        pairs = [(min(i, j), max(i, j)) for i, j in matching if BYE not in (i, j)]
        bye = next((order[max(i, j)] for i, j in matching if BYE in (i, j)), None)
        perfect = 2 * len(matching) == n + odd
        if (perfect and sum(times(order[i], order[j]) > 0 for i, j in pairs) == fewest) or window >= n:
            break
        window *= 2
    pairs.sort()
    return [(order[i], order[j]) for i, j in pairs], bye


def _candidates(
    i: int, n: int, window: int, cost: Callable[[int, int], tuple[int, int, int, int]]
) -> list[int]:
    """Places after ``i`` worth an edge: the ``window`` next ones, and those around the
    Dutch partner of ``i`` in its score group."""
    near = set(range(i + 1, min(n, i + window + 1)))
    # the Dutch partner: where the dutch term of cost(i, j) is 0 within i's group
    for j in range(i + 1, n):
        _, _, c3, c4 = cost(i, j)
        if c3:
            break
        if c4 == 0:
            near.update(range(max(i + 1, j - window), min(n, j + window + 1)))
            break
    return sorted(near)


def _fewest_rematches(
    order: Sequence[PlayerId],
    times: Callable[[PlayerId, PlayerId], int],
    odd: bool,
    eligible: Mapping[PlayerId, int],
) -> int:
    """The fewest rematch pairs any pairing of the field has (maximum cardinality
    matching of the pairs that never met; the players left over meet again)."""
    count = len(order) + odd
    bye = len(order)

    def allowed(a: int, b: int) -> bool:
        if bye in (a, b):
            return order[min(a, b)] in eligible
        return times(order[a], order[b]) == 0

    def candidates(a: int, rest: Sequence[int]) -> Sequence[int]:
        return rest

    _, repeats = best_pairing(count, allowed, candidates)
    return repeats
