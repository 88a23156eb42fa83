"""Known resolvable designs: schedules in which no two players meet twice, built from
their mathematical definition or kept as small tables, each checked by a test.

A design here is a list of rounds (its parallel classes), each a partition of the
points ``0..v-1`` into blocks (tables) of one size ``k``:

- the affine space AG(d, q) over the finite field GF(q), q a prime power: q^d points,
  lines of q points, one round per direction, (q^d - 1) / (q - 1) rounds (AG(2, q) is
  the affine plane: q² players over q + 1 rounds; AG(3, q): q³ over q² + q + 1);
- Kirkman triple systems KTS(15) (Kirkman's fifteen schoolgirls, a table below) and
  KTS(21) (:func:`kirkman_21`), besides KTS(9) and KTS(27), the affine AG(2, 3) and
  AG(3, 3); 20 players at tables of 4 over 5 rounds, a table below;
- 24 players at tables of 4 over 7 rounds (the 6-4-7 schedule), a base round shifted
  round by round (:func:`shifted_24`);
- 32 players at tables of 4 over 9 rounds: the cosets of nine planes of GF(2)^5 that
  share no nonzero vector (:func:`planes`).

:func:`find_design` picks the design for a field, and :func:`relabel` maps it onto
the players with the tournament's seed, so two events do not get the same tables.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache

Rounds = list[list[list[int]]]

# The irreducible polynomials GF(p^k) is built with (coefficients, lowest power first,
# without the leading one): x² + x + 1, x³ + x + 1.
_MODULUS = {4: (2, (1, 1)), 8: (2, (1, 1, 0))}
FIELDS = (2, 3, 4, 5, 7, 8)


@dataclass(frozen=True)
class Design:
    """``count`` rounds of tables of ``size`` over ``points`` points; :meth:`round`
    builds one (a large affine space is never built whole)."""

    name: str
    points: int
    size: int
    count: int
    build: Callable[[int], tuple[tuple[int, ...], ...]]
    # repeat meetings over all its rounds: 0 for a design proper; a schedule kept for a
    # field without one reaches the counting bound instead
    repeats: int = 0

    def round(self, number: int) -> tuple[tuple[int, ...], ...]:
        return self.build(number)


@cache
def field(q: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """The addition and multiplication tables of GF(q), elements ``0..q-1`` (for
    q = p^k, the polynomial whose coefficients are the base-p digits).

    >>> add, mul = field(4)
    >>> add[2][3], mul[2][3]
    (1, 1)
    """
    if q in _MODULUS:
        p, low = _MODULUS[q]
        k = len(low)
    elif q in FIELDS:
        p, low, k = q, (), 1
    else:
        raise ValueError(f"GF({q}) is not built here (fields: {FIELDS})")

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(k)]

    def number(ds: Sequence[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    def times(x: int, y: int) -> int:
        product = [0] * (2 * k - 1)
        for i, a in enumerate(digits(x)):
            for j, b in enumerate(digits(y)):
                product[i + j] = (product[i + j] + a * b) % p
        # reduce: x^k = -(low terms)
        for power in range(2 * k - 2, k - 1, -1):
            c = product[power]
            if c:
                product[power] = 0
                for i, m in enumerate(low):
                    product[power - k + i] = (product[power - k + i] - c * m) % p
        return number(product[:k])

    add = tuple(
        tuple(number([(a + b) % p for a, b in zip(digits(x), digits(y), strict=True)]) for y in range(q))
        for x in range(q)
    )
    mul = tuple(tuple(times(x, y) for y in range(q)) for x in range(q))
    return add, mul


@cache
def affine(q: int, d: int) -> Design:
    """AG(d, q): points the vectors of GF(q)^d (point ``i`` has the base-q digits of
    ``i`` as coordinates); one round per direction (a nonzero vector whose last nonzero
    coordinate is 1), whose tables are the lines ``{x + t·v}``.

    >>> affine(3, 2).round(0)
    ((0, 1, 2), (3, 4, 5), (6, 7, 8))
    """
    add, mul = field(q)
    count = q**d

    def vector(i: int) -> list[int]:
        return [(i // q**j) % q for j in range(d)]

    def index(v: Sequence[int]) -> int:
        return sum(c * q**j for j, c in enumerate(v))

    directions = [v for v in map(vector, range(1, count)) if next(c for c in reversed(v) if c) == 1]

    def build(number: int) -> tuple[tuple[int, ...], ...]:
        v = directions[number]
        seen = [False] * count
        tables = []
        for start in range(count):
            if seen[start]:
                continue
            x = vector(start)
            line = tuple(index([add[a][mul[t][c]] for a, c in zip(x, v, strict=True)]) for t in range(q))
            for p in line:
                seen[p] = True
            tables.append(line)
        return tuple(tables)

    name = f"the affine {'plane' if d == 2 else 'space'} AG({d},{q})"
    return Design(name, count, q, len(directions), build)


def circle(n: int) -> Design:
    """Pairs for an even ``n``: the circle method, n - 1 rounds in which every two
    players meet once (player n - 1 stays, the others turn).

    >>> circle(4).round(1)
    ((3, 1), (2, 0))
    """
    m = n - 1

    def build(r: int) -> tuple[tuple[int, ...], ...]:
        return ((m, r), *(((r + k) % m, (r - k) % m) for k in range(1, n // 2)))

    return Design("the circle method", n, 2, m, build)


def _table(name: str, text: str, repeats: int = 0) -> Design:
    """A design kept as text: one round a line, tables separated by ``|``."""
    rounds = tuple(
        tuple(tuple(int(p) for p in table.split()) for table in line.split("|"))
        for line in text.strip().splitlines()
    )
    points = 1 + max(p for r in rounds for t in r for p in t)
    return Design(name, points, len(rounds[0][0]), len(rounds), rounds.__getitem__, repeats)


def planes(dimension: int = 5) -> Design:
    """Points GF(2)^5 (32 players) at tables of 4: the cosets of 2-dimensional subspaces
    that share no nonzero vector, one round each. Two points meet at a table of a round
    exactly when their difference lies in its subspace, so no two meet twice. Nine such
    subspaces exist (a partial line spread of PG(4, 2)); a deterministic search finds
    them (the first of each in order of their vectors).

    >>> planes().count
    9
    """
    count = 2**dimension
    subspaces = sorted(
        {frozenset((a, b, a ^ b)) for a in range(1, count) for b in range(a + 1, count)}, key=sorted
    )
    chosen: list[frozenset[int]] = []

    def extend(start: int, used: frozenset[int]) -> bool:
        if len(chosen) == 9:
            return True
        for i in range(start, len(subspaces)):
            if not subspaces[i] & used:
                chosen.append(subspaces[i])
                if extend(i + 1, used | subspaces[i]):
                    return True
                chosen.pop()
        return False

    extend(0, frozenset())

    def build(number: int) -> tuple[tuple[int, ...], ...]:
        a, b, c = sorted(chosen[number])
        return tuple((x, x ^ a, x ^ b, x ^ c) for x in range(count) if x == min(x, x ^ a, x ^ b, x ^ c))

    return Design("cosets of nine disjoint planes of GF(2)^5", count, 4, len(chosen), build)


def cyclic(name: str, size: int, base: Rounds, whole: tuple[tuple[int, ...], ...] = ()) -> Design:
    """A schedule invariant under a shift: players ``3x + i`` for ``x`` in Z_7 and ``i``
    in 0..2, and any players numbered from 21 on, which the shift leaves alone. Rounds
    0-6 are the base round with every ``x`` shifted by ``r``; then each block of
    ``whole`` gives one more round, its seven shifts. The shift sorts the pairs of
    players into orbits of 7; when the base round and the blocks of ``whole`` hold one
    pair of each orbit that may meet, every such pair meets exactly once."""
    count = 3 * 7 + len({p for row in base for t in row for p in t if p >= 21})

    def shift(player: int, r: int) -> int:
        return player if player >= 21 else 3 * ((player // 3 + r) % 7) + player % 3

    def build(r: int) -> tuple[tuple[int, ...], ...]:
        if r < 7:
            return tuple(tuple(shift(p, r) for p in table) for table in base[0])
        return tuple(tuple(shift(p, k) for p in whole[r - 7]) for k in range(7))

    return Design(name, count, size, 7 + len(whole), build)


def shifted_24() -> Design:
    """24 players at tables of 4 over 7 rounds, nobody meeting twice (the 6-4-7 social
    golfer schedule), :func:`cyclic` with three fixed players: the shift sorts the pairs
    that may meet (not two of one ``x``, not two of the fixed three) into 36 orbits, and
    the base round's 36 pairs are one of each. The base round was found by a
    backtracking search over that condition.

    >>> shifted_24().round(1)[0]
    (21, 2, 13, 18)
    """
    base = [
        [[21, 20, 10, 15], [22, 13, 11, 3], [23, 7, 9, 2], [0, 17, 6, 18], [1, 5, 8, 14], [4, 16, 19, 12]]
    ]
    return cyclic("a cyclic 6-4-7 schedule (24 at tables of 4 over 7 rounds)", 4, base)


def kirkman_21() -> Design:
    """A Kirkman triple system KTS(21): 21 players at tables of 3 over 10 rounds,
    every two meeting exactly once; :func:`cyclic` with a base round (21 of the 30
    orbits of pairs) and three rounds that are the shifts of one table each (the other
    9). Found by a backtracking search over that condition.

    >>> kirkman_21().count, kirkman_21().round(7)[1]
    (10, (3, 4, 2))
    """
    base = [[[0, 14, 7], [1, 13, 16], [2, 10, 6], [3, 19, 8], [4, 15, 5], [9, 18, 12], [11, 20, 17]]]
    return cyclic("a Kirkman triple system KTS(21)", 3, base, ((0, 1, 20), (0, 13, 8), (0, 19, 2)))


# Found by this package's own search (league.seating.plan, long runs) and checked by
# tests/league/seating/test_designs.py: every round a partition, no pair twice.
KIRKMAN_15 = """
0 6 10 | 1 3 13 | 2 9 12 | 4 8 11 | 5 7 14
0 4 5 | 1 10 11 | 2 3 8 | 6 9 14 | 7 12 13
0 3 9 | 1 8 14 | 2 7 10 | 4 6 13 | 5 11 12
0 2 14 | 1 5 6 | 3 4 7 | 8 10 12 | 9 11 13
0 7 11 | 1 2 4 | 3 6 12 | 5 8 9 | 10 13 14
0 8 13 | 1 7 9 | 2 6 11 | 3 5 10 | 4 12 14
0 1 12 | 2 5 13 | 3 11 14 | 4 9 10 | 6 7 8
"""
TWENTY_AT_4 = """
0 4 14 18 | 1 3 9 12 | 2 7 8 17 | 5 13 16 19 | 6 10 11 15
0 7 11 13 | 1 5 14 17 | 2 10 12 19 | 3 15 16 18 | 4 6 8 9
0 3 6 17 | 1 2 4 13 | 5 7 12 15 | 8 10 14 16 | 9 11 18 19
0 1 8 15 | 2 5 6 18 | 3 7 14 19 | 4 11 12 16 | 9 10 13 17
0 2 9 16 | 1 7 10 18 | 3 5 8 11 | 4 15 17 19 | 6 12 13 14
"""
# 12 at tables of 4 over 5 rounds cannot avoid repeats: this schedule has 24, the
# counting bound (every pair meets, 24 pairs twice); found by the round robin's search.
TWELVE_AT_4 = """
0 1 6 11 | 2 5 7 10 | 3 4 8 9
0 4 8 10 | 1 3 5 6 | 2 7 9 11
0 3 7 10 | 1 2 4 6 | 5 8 9 11
0 4 5 7 | 1 6 9 10 | 2 3 8 11
0 2 5 9 | 1 6 7 8 | 3 4 10 11
"""
TABLES: tuple[Design, ...] = (
    _table("a schedule of 12 at tables of 4 over 5 rounds", TWELVE_AT_4, repeats=24),
    _table("a Kirkman triple system KTS(15)", KIRKMAN_15),
    _table("a schedule of 20 at tables of 4 over 5 rounds", TWENTY_AT_4),
    shifted_24(),
    kirkman_21(),
)


@cache
def _planes() -> Design:
    return planes()


def find_design(players: int, sizes: Sequence[int], byes: int, rounds: int | None = None) -> Design | None:
    """A design for ``players`` at tables of ``sizes`` with nobody sitting out, the one
    with the most rounds when several fit; a schedule with repeats (kept because no
    design exists) only for exactly its number of ``rounds``."""
    if byes or not sizes or min(sizes) != max(sizes):
        return None
    size = sizes[0]
    fitting = [
        d for d in TABLES if d.points == players and d.size == size and (d.repeats == 0 or d.count == rounds)
    ]
    if size == 2 and players % 2 == 0:
        fitting.append(circle(players))
    elif size == 4 and players == 32:
        fitting.append(_planes())
    elif size in FIELDS:
        d = round(math.log(players, size)) if players > 1 else 0
        if d >= 2 and size**d == players:
            fitting.append(affine(size, d))
    return max(fitting, key=lambda design: design.count, default=None)


def relabel(design: Design, players: Sequence[int], rounds: int, rng: random.Random) -> Rounds:
    """``rounds`` of the design's rounds (all when it has fewer) drawn by ``rng``, its
    points mapped onto ``players`` and its tables in a drawn order."""
    mapping = list(players)
    rng.shuffle(mapping)
    # the whole order drawn, then cut: the same first rounds whatever ``rounds`` is
    order = list(range(design.count))
    rng.shuffle(order)
    drawn = []
    for number in order[:rounds]:
        tables = [[mapping[p] for p in table] for table in design.round(number)]
        rng.shuffle(tables)
        drawn.append(tables)
    return drawn
