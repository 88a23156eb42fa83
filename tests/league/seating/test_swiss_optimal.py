"""Two-player Swiss (algorithm 2) against brute force: for every field of 2 to 12 players,
five rounds of random results (wins, losses and draws), each round's pairing is the best
of all pairings (and, for an odd field, of all byes) by the priorities, compared as a
tuple in this order:

1. rematches; 2. the bye's place among the players with the fewest byes, counted from
the bottom of the ranking; 3. the sum of squared score differences; 4. pairs across
score groups; 5. the Dutch order (in a group of g, places i and i + g // 2; across
groups, the distance in the ranking).

The figures are computed here from those definitions, not by the code under test.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction

import pytest

from league.seating import Entrant, PastRound, PastTable, Request, make_seating
from league.seating.base import meetings
from league.seating.swiss import ranking_order

Key = tuple[int, int, Fraction, int, int]


def matchings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for k, partner in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *tail]


def key(
    pairs: Sequence[tuple[int, int]],
    bye: int | None,
    order: Sequence[int],
    points: dict[int, Fraction],
    met: Counter[tuple[int, int]],
    eligible: Sequence[int],
) -> Key:
    place = {p: n for n, p in enumerate(order)}
    rematches = sum(1 for a, b in pairs if met[(min(a, b), max(a, b))])
    bye_place = 0 if bye is None else sorted(eligible, key=place.__getitem__, reverse=True).index(bye)
    squares = sum(((points[a] - points[b]) ** 2 for a, b in pairs), Fraction(0))
    across = sum(1 for a, b in pairs if points[a] != points[b])
    groups: dict[Fraction, list[int]] = {}
    for p in order:
        groups.setdefault(points[p], []).append(p)
    dutch = 0
    for a, b in pairs:
        i, j = sorted((place[a], place[b]))
        if points[a] == points[b]:
            group = groups[points[a]]
            dutch += abs(group.index(order[j]) - group.index(order[i]) - len(group) // 2)
        else:
            dutch += j - i
    return rematches, bye_place, squares, across, dutch


def best_key(
    order: Sequence[int], points: dict[int, Fraction], met: Counter[tuple[int, int]], byes: Counter[int]
) -> Key:
    fewest = min(byes[p] for p in order)
    eligible = [p for p in order if byes[p] == fewest] if len(order) % 2 else []
    options: list[Key] = []
    for bye in eligible or [None]:
        rest = [p for p in order if p != bye]
        options.extend(key(m, bye, order, points, met, eligible) for m in matchings(rest))
    return min(options)


@pytest.mark.parametrize("count", range(2, 13))
def test_every_round_is_optimal_by_the_priorities(count: int) -> None:
    draw = random.Random(count)
    players = tuple(Entrant(n, f"P{n}") for n in range(1, count + 1))
    points = {p.id: Fraction(0) for p in players}
    history: list[PastRound] = []
    for number in range(1, 6):
        standings = tuple(sorted(points, key=lambda p: (-points[p], draw.random()))) if history else ()
        request = Request(players, 2, 2, number, f"brute{count}", tuple(history), standings, dict(points))
        seating = make_seating("swiss", request)
        order = ranking_order(request)
        met = meetings(history)
        byes = Counter(p for past in history for p in past.byes)
        pairs = [(t.seats[0], t.seats[1]) for t in seating.tables]
        bye = seating.byes[0] if seating.byes else None
        fewest = min(byes[p] for p in order)
        eligible = [p for p in order if byes[p] == fewest] if count % 2 else []
        assert key(pairs, bye, order, points, met, eligible) == best_key(order, points, met, byes)
        # results: the first seat wins, loses or draws at random; a bye scores a win
        past = []
        for a, b in pairs:
            outcome = draw.choice(("a", "b", "draw"))
            if outcome == "draw":
                points[a] += Fraction(1, 2)
                points[b] += Fraction(1, 2)
                ranking: tuple[tuple[int, ...], ...] = ((a, b),)
            else:
                winner, loser = (a, b) if outcome == "a" else (b, a)
                points[winner] += 1
                ranking = ((winner,), (loser,))
            past.append(PastTable((a, b), 0, ranking))
        if bye is not None:
            points[bye] += 1
        history.append(PastRound(number, tuple(past), seating.byes))
