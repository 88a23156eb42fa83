"""Balanced random seating: tables that repeat as few earlier meetings as possible,
then fair first dealers and seat positions.

The round adds ``(m + 1)² - m² = 2m + 1`` to the repeat cost for every pair that has
met ``m`` times and sits together again, and the number of pairs at the tables is
fixed by the sizes; so minimising :func:`~league.seating.base.repeat_cost` is
minimising the sum of ``m`` over the pairs seated together. A seeded search does that:
a few restarts, each a random assignment improved by simulated annealing over swaps of
two players at different tables (a fixed budget of proposals, so the result depends
on the seed and nothing else), then a descent until no swap helps.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import permutations

from core.messages import Message
from league.seating import notes as say
from league.seating.base import (
    PastRound,
    PlayerId,
    Request,
    Seating,
    Table,
    choose_byes,
    meetings,
    repeat_cost,
    table_sizes,
)

METHOD = "balanced"
RESTARTS = 4
# swap proposals per player in each restart: a fixed budget, so the seed alone decides
PROPOSALS_PER_PLAYER = 300
# seat orders are tried exhaustively up to this size, greedily above it
EXHAUSTIVE_ORDER = 7


def seat(request: Request) -> Seating:
    sizes, bye_count = table_sizes(len(request.players), request.table_min, request.table_max)
    byes, bye_notes = choose_byes(request, bye_count)
    sitting = [p.id for p in request.players if p.id not in set(byes)]
    met = meetings(request.history)
    rng = request.rng(METHOD)
    groups = best_grouping(sitting, sizes, met, rng)
    dealt, positions = seat_history(request.history)
    tables = []
    for group in groups:
        order = seat_order(group, dealt, positions, rng)
        tables.append(Table(tuple(order), tuple(table_notes(request, order, met, dealt))))
    cost = repeat_cost((t.seats for t in tables), met)
    repeats = sum(1 for t in tables for pair in pairs(t.seats) if met[pair])
    notes = [*bye_notes, say.repeat_cost(cost, repeats)]
    return Seating(METHOD, tuple(tables), tuple(byes), tuple(notes))


def pairs(seats: Iterable[PlayerId]) -> list[tuple[PlayerId, PlayerId]]:
    """The pairs of a table, smaller id first (the key :func:`meetings` uses)."""
    ordered = sorted(seats)
    return [(a, b) for i, a in enumerate(ordered) for b in ordered[i + 1 :]]


def best_grouping(
    players: Sequence[PlayerId],
    sizes: Sequence[int],
    met: Mapping[tuple[PlayerId, PlayerId], int],
    rng: random.Random,
    restarts: int = RESTARTS,
    proposals_per_player: int = PROPOSALS_PER_PLAYER,
) -> list[list[PlayerId]]:
    """``players`` split into tables of ``sizes`` with the least sum of earlier meetings
    over the pairs seated together (found by search, not proven least)."""
    n = len(players)
    if not sizes:
        return []
    weight = [[met.get((min(a, b), max(a, b)), 0) for b in players] for a in players]
    best: list[int] | None = None
    best_score = math.inf
    for _ in range(restarts):
        order = list(range(n))
        rng.shuffle(order)
        where = [0] * n
        start = 0
        for t, size in enumerate(sizes):
            for i in order[start : start + size]:
                where[i] = t
            start += size
        score = _anneal(where, len(sizes), weight, rng, proposals_per_player * n)
        if score < best_score:
            best, best_score = where[:], score
        if best_score == 0:
            break
    assert best is not None
    groups: list[list[PlayerId]] = [[] for _ in sizes]
    for i, t in enumerate(best):
        groups[t].append(players[i])
    return groups


def _anneal(
    where: list[int], tables: int, weight: list[list[int]], rng: random.Random, proposals: int
) -> int:
    """Improve ``where`` (player index -> table) in place; return its score (the sum of
    ``weight`` over pairs at one table)."""
    n = len(where)
    members: list[list[int]] = [[] for _ in range(tables)]
    for i, t in enumerate(where):
        members[t].append(i)
    # toward[i][t]: the weight player i has toward table t's players
    toward = [[0] * tables for _ in range(n)]
    for i in range(n):
        row = weight[i]
        for j in range(n):
            if j != i:
                toward[i][where[j]] += row[j]
    score = sum(toward[i][where[i]] for i in range(n)) // 2
    if tables < 2 or score == 0:
        return score

    def swap(a: int, b: int) -> None:
        ta, tb = where[a], where[b]
        wa, wb = weight[a], weight[b]
        for p in range(n):
            moved = wa[p] - wb[p]
            toward[p][ta] -= moved
            toward[p][tb] += moved
        where[a], where[b] = tb, ta
        members[ta][members[ta].index(a)] = b
        members[tb][members[tb].index(b)] = a

    def delta(a: int, b: int) -> int:
        ta, tb = where[a], where[b]
        return toward[b][ta] + toward[a][tb] - toward[a][ta] - toward[b][tb] - 2 * weight[a][b]

    # a temperature that accepts a worsening by one often at first and rarely at the end
    heat, cooling = 1.5, (0.02 / 1.5) ** (1 / max(proposals, 1))
    best, best_where = score, where[:]
    randrange, random_ = rng.randrange, rng.random
    for _ in range(proposals):
        a = randrange(n)
        b = randrange(n)
        heat *= cooling
        if where[a] == where[b]:
            continue
        change = delta(a, b)
        if change <= 0 or random_() < math.exp(-change / heat):
            swap(a, b)
            score += change
            if score < best:
                best, best_where = score, where[:]
                if best == 0:
                    break
    if best_where != where:
        for i in range(n):
            if where[i] != best_where[i]:
                j = next(j for j in members[best_where[i]] if where[j] != best_where[j])
                swap(i, j)
        score = best
    # descend: take any improving swap until there is none
    improved = True
    while improved and score:
        improved = False
        for a in range(n):
            for b in range(a + 1, n):
                if where[a] != where[b] and delta(a, b) < 0:
                    score += delta(a, b)
                    swap(a, b)
                    improved = True
    return score


def seat_history(history: Iterable[PastRound]) -> tuple[Counter[PlayerId], dict[PlayerId, Counter[int]]]:
    """How often each player dealt first, and how often each sat at each position
    counted from the first dealer (0 = dealt first, 1 = next, ...)."""
    dealt: Counter[PlayerId] = Counter()
    positions: dict[PlayerId, Counter[int]] = {}
    for past in history:
        for table in past.tables:
            dealt[table.seats[table.first_dealer]] += 1
            for i, player in enumerate(table.seats):
                positions.setdefault(player, Counter())[(i - table.first_dealer) % len(table.seats)] += 1
    return dealt, positions


def seat_order(
    group: Sequence[PlayerId],
    dealt: Mapping[PlayerId, int],
    positions: Mapping[PlayerId, Mapping[int, int]],
    rng: random.Random,
) -> list[PlayerId]:
    """``group`` in seat order: seat 0 (deals first) for whoever has dealt first least
    often, then each player at the position they have had least often; ties by a
    seeded draw."""
    drawn = list(group)
    rng.shuffle(drawn)
    fewest = min(dealt.get(p, 0) for p in drawn)
    dealers = [p for p in drawn if dealt.get(p, 0) == fewest]

    def sat(player: PlayerId, position: int) -> int:
        return positions.get(player, {}).get(position, 0)

    best: list[PlayerId] = []
    best_cost = math.inf
    for dealer in dealers:
        rest = [p for p in drawn if p != dealer]
        if len(drawn) <= EXHAUSTIVE_ORDER:
            for order in permutations(rest):
                cost = sum(sat(p, i + 1) for i, p in enumerate(order))
                if cost < best_cost:
                    best, best_cost = [dealer, *order], cost
        else:
            # too many orders to try: fill the seats in turn with who has sat there least
            chosen, cost = [dealer], 0
            for position in range(1, len(drawn)):
                counts = [sat(p, position) for p in rest]
                pick = rest.pop(counts.index(min(counts)))
                chosen.append(pick)
                cost += sat(pick, position)
            if cost < best_cost:
                best, best_cost = chosen, cost
    return best


def table_notes(
    request: Request,
    order: Sequence[PlayerId],
    met: Mapping[tuple[PlayerId, PlayerId], int],
    dealt: Mapping[PlayerId, int],
) -> list[Message]:
    notes = [say.deals_first(order[0], dealt.get(order[0], 0))]
    again = [(a, b, met[(a, b)]) for a, b in pairs(order) if met.get((a, b), 0)]
    notes += [say.repeat_meeting(a, b, m + 1) for a, b, m in again]
    if not again:
        notes.append(say.no_repeats())
    return notes
