"""Pairing players two by two: the best pairing in a preference order among those with
the fewest repeat meetings.

A greedy pass can paint itself into a corner (the last players left have all met), so
the choice is checked against a perfect matching kept alongside: Edmonds' blossom
algorithm (augmenting paths through odd cycles) finds the largest set of pairs that
have not met, and each tentative pair is accepted only if the remaining players can
still be matched as well. That makes the result rematch-free whenever any rematch-free
pairing exists, at the cost of one augmenting-path search per rejected candidate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

NONE = -1


class _Blossom:
    """Maximum-cardinality matching on vertices ``0..n-1`` (Edmonds, the array form with
    ``base``/``parent`` labels). ``alive`` removes vertices without rebuilding."""

    def __init__(self, adjacency: list[list[int]]) -> None:
        self.adjacency = adjacency
        self.size = len(adjacency)
        self.mate = [NONE] * self.size
        self.alive = [True] * self.size
        self.parent: list[int] = []
        self.base: list[int] = []

    def augment_from(self, root: int) -> bool:
        """Search an augmenting path from the exposed ``root``; flip it if found."""
        end = self._find_path(root)
        if end == NONE:
            return False
        vertex = end
        while vertex != NONE:
            before = self.parent[vertex]
            after = self.mate[before]
            self.mate[vertex] = before
            self.mate[before] = vertex
            vertex = after
        return True

    def _find_path(self, root: int) -> int:
        size, mate, alive = self.size, self.mate, self.alive
        used = [False] * size
        self.parent = parent = [NONE] * size
        self.base = base = list(range(size))
        used[root] = True
        queue = [root]
        head = 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for to in self.adjacency[v]:
                if not alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != NONE and parent[mate[to]] != NONE):
                    # an odd cycle: contract it to its base and keep searching
                    common = self._common_base(v, to)
                    blossom = [False] * size
                    self._mark(v, common, to, blossom)
                    self._mark(to, common, v, blossom)
                    for i in range(size):
                        if blossom[base[i]]:
                            base[i] = common
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == NONE:
                    parent[to] = v
                    if mate[to] == NONE:
                        return to
                    used[mate[to]] = True
                    queue.append(mate[to])
        return NONE

    def _common_base(self, a: int, b: int) -> int:
        base, mate, parent = self.base, self.mate, self.parent
        seen = [False] * self.size
        while True:
            a = base[a]
            seen[a] = True
            if mate[a] == NONE:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[mate[b]]

    def _mark(self, v: int, common: int, child: int, blossom: list[bool]) -> None:
        base, mate, parent = self.base, self.mate, self.parent
        while base[v] != common:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]


def best_pairing(
    count: int, allowed: Callable[[int, int], bool], candidates: Callable[[int, Sequence[int]], Sequence[int]]
) -> tuple[list[tuple[int, int]], int]:
    """Pair ``0..count-1`` (``count`` even): as few pairs outside ``allowed`` as
    possible, and among those pairings the first in preference order: the lowest
    unpaired index takes the first of ``candidates(index, unpaired)`` that still
    leaves such a pairing. Returns the pairs and how many are not ``allowed``."""
    if count % 2:
        raise ValueError("best_pairing needs an even count")
    adjacency = [[b for b in range(count) if b != a and allowed(a, b)] for a in range(count)]
    matcher = _Blossom(adjacency)
    mate = matcher.mate
    # a greedy start in index order (usually most of the answer), then augment
    for a in range(count):
        if mate[a] == NONE:
            b = next((b for b in adjacency[a] if mate[b] == NONE), NONE)
            if b != NONE:
                mate[a], mate[b] = b, a
    for a in range(count):
        if mate[a] == NONE:
            matcher.augment_from(a)
    exposed = [a for a in range(count) if mate[a] == NONE]
    # the players no rematch-free pair is left for may meet again, but only each other:
    # any perfect matching then has exactly len(exposed) / 2 repeat pairs, the fewest
    for i, a in enumerate(exposed):
        for b in exposed[i + 1 :]:
            adjacency[a].append(b)
            adjacency[b].append(a)
    for a, b in zip(exposed[::2], exposed[1::2], strict=True):
        mate[a], mate[b] = b, a
    linked = [set(neighbours) for neighbours in adjacency]

    pairs: list[tuple[int, int]] = []
    unpaired = list(range(count))
    while unpaired:
        a = unpaired[0]
        rest = unpaired[1:]
        for b in candidates(a, rest):
            if b in linked[a] and _take(matcher, linked, a, b):
                break
        else:  # pragma: no cover - the kept matching always offers mate[a]
            raise AssertionError("no partner left although a perfect matching exists")
        pairs.append((a, b))
        unpaired = [p for p in rest if p != b]
    return pairs, len(exposed) // 2


def _take(matcher: _Blossom, linked: list[set[int]], a: int, b: int) -> bool:
    """Fix the pair ``a`` with ``b`` if the other alive vertices keep a perfect matching."""
    mate, alive = matcher.mate, matcher.alive
    left, right = mate[a], mate[b]
    alive[a] = alive[b] = False
    if left == b:
        return True
    mate[left] = mate[right] = NONE
    if right in linked[left]:
        mate[left], mate[right] = right, left
    elif not matcher.augment_from(left):
        mate[left], mate[right] = a, b
        alive[a] = alive[b] = True
        return False
    mate[a], mate[b] = b, a
    return True
