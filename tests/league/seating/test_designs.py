"""The known designs: every round of each is a partition of its points into tables of
its size, and no two points share a table twice; relabelling keeps that and differs
by seed; :func:`find_design` picks one only for a field it fits."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from league.seating.designs import TABLES, Design, affine, circle, field, find_design, planes, relabel

AFFINE = [(3, 2), (4, 2), (5, 2), (7, 2), (8, 2), (3, 3), (4, 3), (5, 3), (2, 4), (4, 4)]


def check(design: Design, rounds: int | None = None) -> None:
    """Every round a partition into tables of the design's size; no pair meets twice
    (a schedule kept with repeats: exactly its repeats, and every pair meets)."""
    met: Counter[tuple[int, int]] = Counter()
    for number in range(design.count if rounds is None else rounds):
        tables = design.round(number)
        assert sorted(p for t in tables for p in t) == list(range(design.points)), design.name
        assert {len(t) for t in tables} == {design.size}
        for table in tables:
            met.update(combinations(sorted(table), 2))
    assert sum(m - 1 for m in met.values()) == design.repeats
    if design.repeats:
        assert len(met) == design.points * (design.points - 1) // 2


@pytest.mark.parametrize(("q", "d"), AFFINE, ids=lambda v: str(v))
def test_affine_spaces_are_resolvable_designs(q: int, d: int) -> None:
    design = affine(q, d)
    assert (design.points, design.size, design.count) == (q**d, q, (q**d - 1) // (q - 1))
    # AG(4, 4) has 85 rounds of 256 players: its first ten are enough to check here
    check(design, 10 if q**d > 125 else None)
    if d == 2:
        # every pair meets once: the affine plane is a 2-(q², q, 1) design
        assert design.count * (q**2 // q) * q * (q - 1) // 2 == q**2 * (q**2 - 1) // 2


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8])
def test_fields_are_fields(q: int) -> None:
    add, mul = field(q)
    for x in range(q):
        assert add[0][x] == x and mul[1][x] == x
        assert sum(1 for y in range(q) if add[x][y] == 0) == 1
        if x:
            assert sum(1 for y in range(q) if mul[x][y] == 1) == 1  # an inverse
    for x, y, z in combinations(range(q), 3):
        assert mul[x][add[y][z]] == add[mul[x][y]][mul[x][z]]


@pytest.mark.parametrize("design", [*TABLES, planes(), circle(12)], ids=lambda d: d.name)
def test_tables_and_constructions_are_resolvable(design: Design) -> None:
    check(design)


def test_kirkman_and_the_published_sizes() -> None:
    assert find_design(15, [3] * 5, 0).name == "a Kirkman triple system KTS(15)"  # type: ignore[union-attr]
    assert find_design(21, [3] * 7, 0).name == "a Kirkman triple system KTS(21)"  # type: ignore[union-attr]
    assert find_design(16, [4] * 4, 0).name == "the affine plane AG(2,4)"  # type: ignore[union-attr]
    assert find_design(27, [3] * 9, 0).count == 13  # type: ignore[union-attr]
    assert find_design(32, [4] * 8, 0).count == 9  # type: ignore[union-attr]
    assert find_design(64, [4] * 16, 0).name == "the affine space AG(3,4)"  # type: ignore[union-attr]
    # not a fit: byes, mixed sizes, a count that is no design's
    assert find_design(16, [4] * 4, 1) is None
    assert find_design(13, [4, 3, 3, 3], 0) is None
    assert find_design(24, [4] * 6, 0).count == 7  # type: ignore[union-attr]
    assert find_design(28, [4] * 7, 0) is None


def test_relabelling_keeps_the_design_and_depends_on_the_seed() -> None:
    design = affine(4, 2)
    players = list(range(101, 117))
    one = relabel(design, players, 5, random.Random("one"))
    two = relabel(design, players, 5, random.Random("two"))
    assert one != two
    assert relabel(design, players, 5, random.Random("one")) == one
    # fewer rounds asked: the same first rounds
    assert relabel(design, players, 3, random.Random("one")) == one[:3]
    met = [frozenset(pair) for row in one for t in row for pair in combinations(t, 2)]
    assert len(met) == len(set(met)) == 120
