"""Planning the rest of an event: rows of tables for rounds r..R with the earlier rounds
fixed, found by a conflict-directed tabu search over swaps of two players of one row.

Players are indices ``0..n-1``. The plan's cost is ``weight`` times the sum over pairs
of (times met)², earlier rounds included, plus, for each pair seated together in the
plan, a fixed ``distance`` (Swiss: how far apart the two stand). Swapping ``a`` (table
``A``) and ``b`` (table ``B``) of one row changes only the pairs of ``a`` and ``b`` with
the other players of ``A`` and ``B``, so a move is priced in ``O(table size)`` and
applied in the same time; nothing is recounted over the field.

The search (after Dotú and Van Hentenryck's local search for the social golfer
problem): take a few pairs that meet again somewhere in the plan, and make the best swap
of one of their players, in a row where the pair meets, with anyone at another table of
the row, unless the swap is tabu (the same two players swapped in that row lately) and
does not beat the best plan seen; on a long plateau, start again from the best plan
with a few players shaken. A budget of priced swaps and a seeded generator: the
plan depends on its inputs alone, never on a clock. It stops early once the plan's
cost reaches ``floor``, a cost no plan can beat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Row = list[list[int]]


class Plan:
    """Rows of tables over players ``0..n-1`` and the meeting counts they make with
    the fixed ``history`` (``n`` rows of ``n`` counts of earlier meetings)."""

    def __init__(
        self,
        n: int,
        rows: Sequence[Row],
        history: Sequence[Sequence[int]],
        weight: int = 1,
        distance: Sequence[Sequence[int]] | None = None,
    ) -> None:
        self.n = n
        self.rows: list[Row] = [[list(t) for t in row] for row in rows]
        self.weight = weight
        self.distance = distance
        self.history = history
        self.met = [list(r) for r in history]
        # where[t][p]: the table of player p in row t (-1: not seated, a bye)
        self.where = [[-1] * n for _ in self.rows]
        for t, row in enumerate(self.rows):
            for k, table in enumerate(row):
                for p in table:
                    self.where[t][p] = k
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        self.met[a][b] += 1
                        self.met[b][a] += 1
        # the pairs that meet in the plan and more than once in all: a list for a
        # seeded choice, with each pair's place in it for a removal in O(1)
        self.conflicts: list[int] = []
        self.place: dict[int, int] = {}
        for row in self.rows:
            for table in row:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        self._check(a, b)
        self.cost = self._total()

    def _total(self) -> int:
        # the pairs the plan seats are the only ones whose count differs from history
        met, history = self.met, self.history
        seated = {(a, b) for row in self.rows for t in row for a in t for b in t if a < b}
        total = self.weight * sum(met[a][b] ** 2 - history[a][b] ** 2 for a, b in seated)
        if self.distance is not None:
            d = self.distance
            total += sum(
                d[a][b] for row in self.rows for t in row for i, a in enumerate(t) for b in t[i + 1 :]
            )
        return total

    def _check(self, a: int, b: int) -> None:
        key = a * self.n + b if a < b else b * self.n + a
        conflict = self.met[a][b] >= 2 and self.met[a][b] > self.history[a][b]
        if conflict and key not in self.place:
            self.place[key] = len(self.conflicts)
            self.conflicts.append(key)
        elif not conflict and key in self.place:
            i = self.place.pop(key)
            last = self.conflicts.pop()
            if i < len(self.conflicts):
                self.conflicts[i] = last
                self.place[last] = i

    def delta(self, t: int, a: int, b: int) -> int:
        """The change of cost if ``a`` and ``b`` (at different tables) swap in row ``t``."""
        row = self.rows[t]
        ma, mb = self.met[a], self.met[b]
        change = 0
        for x in row[self.where[t][a]]:
            if x != a:
                change += mb[x] - ma[x] + 1
        for y in row[self.where[t][b]]:
            if y != b:
                change += ma[y] - mb[y] + 1
        change *= 2 * self.weight
        if self.distance is not None:
            da, db = self.distance[a], self.distance[b]
            for x in row[self.where[t][a]]:
                if x != a:
                    change += db[x] - da[x]
            for y in row[self.where[t][b]]:
                if y != b:
                    change += da[y] - db[y]
        return change

    def swap(self, t: int, a: int, b: int, change: int) -> None:
        row, where, met = self.rows[t], self.where[t], self.met
        ta, tb = where[a], where[b]
        group_a, group_b = row[ta], row[tb]
        for x in group_a:
            if x != a:
                met[a][x] -= 1
                met[x][a] -= 1
                met[b][x] += 1
                met[x][b] += 1
        for y in group_b:
            if y != b:
                met[b][y] -= 1
                met[y][b] -= 1
                met[a][y] += 1
                met[y][a] += 1
        group_a[group_a.index(a)] = b
        group_b[group_b.index(b)] = a
        where[a], where[b] = tb, ta
        for x in group_a:
            if x != b:
                self._check(a, x)
                self._check(b, x)
        for y in group_b:
            if y != a:
                self._check(a, y)
                self._check(b, y)
        self.cost += change

    def copy_rows(self) -> list[Row]:
        return [[t[:] for t in row] for row in self.rows]


# per step, the moves of the players of at most SAMPLE pairs that meet again are priced
SAMPLE = 6
# the search gives up after GIVE_UP steps per player without a better plan (two shakes)
GIVE_UP = 120


def search(plan: Plan, rng: random.Random, work: int, floor: int = 0) -> list[Row]:
    """The best rows found by moves that price at most ``work`` swaps in all (see the
    module's docstring): each step prices every swap of a player of a repeated pair (at
    most ``SAMPLE`` pairs, drawn) with anyone at another table of a row where the pair
    meets, and makes the best one that is not tabu (the same two players swapped in that
    row lately) unless it beats the best plan seen. Stops at ``floor``, or after
    ``GIVE_UP`` steps a player without a better plan."""
    best_cost, best = plan.cost, plan.copy_rows()
    if not plan.rows or best_cost <= floor:
        return best
    n = plan.n
    tabu: dict[int, int] = {}
    stale = since = 0
    step = 0
    while work > 0:
        step += 1
        movers = _movers(plan, rng)
        chosen: tuple[int, int, int] | None = None
        chosen_change, ties = 0, 0
        met, weight, distance = plan.met, 2 * plan.weight, plan.distance
        for t, a in movers:
            row, where = plan.rows[t], plan.where[t]
            own = where[a]
            work -= n
            mine = [x for x in row[own] if x != a]
            ma = met[a]
            # what a's table loses with a, and a's meetings at each other table: the
            # price of a swap is then these and b's meetings (as Plan.delta computes)
            leaving = -len(mine)
            for x in mine:
                leaving += ma[x]
            for k, table in enumerate(row):
                if k == own:
                    continue
                toward = len(table) - 1 - leaving
                for y in table:
                    toward += ma[y]
                for b in table:
                    # plain loops: tables are small, and a generator costs more than them
                    mb = met[b]
                    change = toward - ma[b]
                    for x in mine:
                        change += mb[x]
                    for y in table:
                        change -= mb[y]
                    change *= weight
                    if distance is not None:
                        da, db = distance[a], distance[b]
                        for x in mine:
                            change += db[x] - da[x]
                        for y in table:
                            if y != b:
                                change += da[y] - db[y]
                    if chosen is not None and change > chosen_change:
                        continue
                    key = (t * n + a) * n + b if a < b else (t * n + b) * n + a
                    if tabu.get(key, 0) > step and plan.cost + change >= best_cost:
                        continue
                    if chosen is None or change < chosen_change:
                        chosen, chosen_change, ties = (t, a, b), change, 1
                    else:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            chosen = (t, a, b)
        if chosen is None:
            break
        t, a, b = chosen
        plan.swap(t, a, b, chosen_change)
        key = (t * n + a) * n + b if a < b else (t * n + b) * n + a
        tabu[key] = step + 4 + rng.randrange(40)
        if plan.cost < best_cost:
            best_cost, best, stale, since = plan.cost, plan.copy_rows(), 0, 0
            if best_cost <= floor:
                break
        else:
            stale += 1
            since += 1
            if since > GIVE_UP * n:
                break
            if stale > 20 * n:
                # a long plateau: start again from the best plan, a few players shaken
                plan = Plan(n, best, plan.history, plan.weight, plan.distance)
                for _ in range(max(2, n // 8)):
                    t = rng.randrange(len(plan.rows))
                    row = plan.rows[t]
                    if len(row) < 2:
                        continue
                    ka, kb = rng.sample(range(len(row)), 2)
                    a, b = rng.choice(row[ka]), rng.choice(row[kb])
                    plan.swap(t, a, b, plan.delta(t, a, b))
                stale = 0
    return best


def _movers(plan: Plan, rng: random.Random) -> list[tuple[int, int]]:
    """(row, player) pairs worth moving: the players of a few pairs that meet again, in
    each row where they meet; with no such pair (only distances left, Swiss), the
    players of a random table."""
    n = plan.n
    if not plan.conflicts:
        if plan.distance is None or not plan.rows:
            return []
        t = rng.randrange(len(plan.rows))
        return [(t, a) for a in rng.choice(plan.rows[t])] if len(plan.rows[t]) > 1 else []
    keys = plan.conflicts if len(plan.conflicts) <= SAMPLE else rng.sample(plan.conflicts, SAMPLE)
    movers: dict[tuple[int, int], None] = {}
    for key in keys:
        p, q = divmod(key, n)
        for t, where in enumerate(plan.where):
            if where[p] == where[q] != -1:
                movers[(t, p)] = None
                movers[(t, q)] = None
    return list(movers)


def least_cost(history: Sequence[Sequence[int]], players: Sequence[int], slots: int) -> int:
    """A floor under the cost of any plan that seats ``slots`` pairs among ``players``
    (without distances): the meetings added one at a time to the pairs that have met
    least, each adding (m + 1)² - m² = 2m + 1."""
    levels: dict[int, int] = {}
    for i, a in enumerate(players):
        row = history[a]
        for b in players[i + 1 :]:
            levels[row[b]] = levels.get(row[b], 0) + 1
    total = 0
    while slots > 0 and levels:
        level = min(levels)
        take = min(slots, levels[level])
        total += take * (2 * level + 1)
        slots -= take
        levels[level] -= take
        if not levels[level]:
            del levels[level]
        levels[level + 1] = levels.get(level + 1, 0) + take
    return total


def greedy_row(
    players: Sequence[int], sizes: Sequence[int], met: Sequence[Sequence[int]], rng: random.Random
) -> Row:
    """``players`` at tables of ``sizes``, each (in a seeded order) at the table with
    room where they have met the others least, among a few tables drawn."""
    order = list(players)
    rng.shuffle(order)
    tables: Row = [[] for _ in sizes]
    room = list(range(len(sizes)))
    for p in order:
        row = met[p]
        pick = -1
        pick_cost = 0
        candidates = room if len(room) <= 12 else rng.sample(room, 12)
        for k in candidates:
            cost = 0
            for x in tables[k]:
                cost += row[x]
            if pick < 0 or cost < pick_cost:
                pick, pick_cost = k, cost
        tables[pick].append(p)
        if len(tables[pick]) == sizes[pick]:
            room.remove(pick)
    return tables
