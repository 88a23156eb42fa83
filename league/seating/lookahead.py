"""What the look-ahead methods share: the rounds still to play planned together with the
earlier rounds fixed (:mod:`league.seating.plan`), starting from a known design when the
field fits one (:mod:`league.seating.designs`); the byes of the rounds to come; counts
of repeat meetings and their lower bound; seat orders that spread who deals first and
where each player sits.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from league.seating.base import Entrant, PastRound, PlayerId, Request, byes_of
from league.seating.designs import Design, find_design, relabel
from league.seating.plan import Plan, Row, greedy_row, least_cost, search

# How many swaps the search of a plan may price (about a microsecond and a half each);
# a count, not a clock, so the plan depends on its inputs alone.
WORK = 200_000
# the event's own plan, made once an event (and again alike each round) searches longer
EVENT_WORK = 2_000_000


@dataclass(frozen=True)
class Planned:
    """The planned rows (player ids), first the round being seated, and the design the
    first row comes from, if it does."""

    rows: list[list[list[PlayerId]]]
    design: Design | None


def rounds_left(request: Request) -> int:
    """The rounds to plan: this one to the last, or this one alone when the event has
    no fixed number of rounds."""
    total = request.total_rounds
    if total is None:
        return 1
    return max(1, total - request.round_number + 1)


def bye_rows(request: Request, count: int, rounds: int) -> list[list[PlayerId]]:
    """The byes of this round and the next ``rounds - 1`` by the rule of
    :func:`league.seating.base.choose_byes` (fewest byes first, then a seeded draw):
    the first row is the byes that function chooses."""
    had = byes_of(request.history)
    drawn = [p.id for p in request.players]
    request.rng("byes").shuffle(drawn)
    position = {player: n for n, player in enumerate(drawn)}
    rows = []
    for _ in range(rounds):
        chosen = sorted(drawn, key=lambda p: (had[p], position[p]))[:count] if count > 0 else []
        had.update(chosen)
        rows.append(chosen)
    return rows


def meeting_table(ids: Sequence[PlayerId], history: Iterable[PastRound]) -> list[list[int]]:
    """How often each two of ``ids`` met (by index in ``ids``)."""
    index = {p: i for i, p in enumerate(ids)}
    met = [[0] * len(ids) for _ in ids]
    for past in history:
        for table in past.tables:
            seated = [index[p] for p in table.seats if p in index]
            for i, a in enumerate(seated):
                for b in seated[i + 1 :]:
                    met[a][b] += 1
                    met[b][a] += 1
    return met


def repeats(tables: Iterable[Sequence[PlayerId]]) -> int:
    """Repeat meetings: the sum over pairs of (times met - 1) for those that met.

    >>> repeats([(1, 2, 3), (1, 2, 4), (2, 1)])
    2
    """
    met: Counter[tuple[PlayerId, PlayerId]] = Counter()
    for table in tables:
        seats = sorted(table)
        for i, a in enumerate(seats):
            for b in seats[i + 1 :]:
                met[(a, b)] += 1
    return sum(m - 1 for m in met.values())


def repeat_bound(players: int, sizes: Sequence[int], bye_count: int, rounds: int) -> int:
    """The fewest repeat meetings ``rounds`` rounds of ``players`` at tables of ``sizes``
    (``bye_count`` byes a round) can have: the meetings against the pairs there are, and
    each player's fewest meetings against their possible opponents.

    >>> repeat_bound(13, [4, 3, 3, 3], 0, 6), repeat_bound(12, [4, 4, 4], 0, 5)
    (12, 24)
    """
    if players < 2 or not sizes:
        return 0
    slots = rounds * sum(s * (s - 1) // 2 for s in sizes)
    by_pairs = slots - players * (players - 1) // 2
    most_byes = -(-rounds * bye_count // players)
    fewest = (rounds - most_byes) * (min(sizes) - 1)
    by_player = -(-players * max(0, fewest - (players - 1)) // 2)
    return max(0, by_pairs, by_player)


def plan_rounds(
    request: Request,
    method: str,
    sizes: Sequence[int],
    byes: Sequence[Sequence[PlayerId]],
    *,
    distance: Sequence[Sequence[int]] | None = None,
    weight: int = 1,
    work: int = WORK,
    event_work: int | None = None,
    first: Row | None = None,
) -> Planned:
    """Rows for ``len(byes)`` rounds of the request's players at tables of ``sizes``
    (row ``k`` without ``byes[k]``), planned against the history.

    The search starts from the event's own plan: the whole event planned from its
    first round with nothing played (a known design when the field fits one), which
    every round computes alike from the seed; the rounds played are taken out of it and
    the rest, with the history now fixed, searched again. So a field that plays as
    planned follows one plan from the first round to the last, and a field that changes
    starts from the nearest plan there is. ``first`` (indices into the players) starts
    every row from it instead (a method whose natural order comes first: Swiss)."""
    ids = [p.id for p in request.players]
    n = len(ids)
    index = {p: i for i, p in enumerate(ids)}
    met = meeting_table(ids, request.history)
    rng = request.rng(f"{method}:plan")
    as_planned = False
    event: list[Row] = []
    if first is not None:
        rows = [[list(t) for t in first] for _ in byes]
        design_used = None
    else:
        total = request.total_rounds or len(request.history) + len(byes)
        field = (request.players, request.table_min, request.table_max, request.seed)
        event, design_used = _event_plan(field, method, tuple(sizes), total, event_work or EVENT_WORK)
        event = [[t[:] for t in row] for row in event]
        played = [
            {frozenset(index[p] for p in t.seats if p in index) for t in r.tables} for r in request.history
        ]
        planned = [{frozenset(t) for t in row} for row in event]
        # the rounds so far are the plan's first rounds: its next round is the answer
        as_planned = all(r == e for r, e in zip(played, planned, strict=False)) and len(played) < len(event)
        event = [row for row, sets in zip(event, planned, strict=True) if sets not in played]
        running = [r[:] for r in met]
        rows = []
        for k, out_ids in enumerate(byes):
            out = {index[p] for p in out_ids}
            sitting = [i for i in range(n) if i not in out]
            if k < len(event) and sorted(p for t in event[k] for p in t) == sitting:
                row = event[k]
            else:
                row = greedy_row(sitting, sizes, running, rng)
                if k == 0:
                    design_used = None
            _count(running, row)
            rows.append(row)
    plan = Plan(n, rows, met, weight, distance)
    slots = sum(len(t) * (len(t) - 1) // 2 for row in rows for t in row)
    floor = weight * least_cost(met, range(n), slots) if distance is None else 0
    if first is None and as_planned and event and rows[0] is event[0]:
        best = plan.copy_rows()
    else:
        best = search(plan, rng, work, floor)
    if design_used is not None and [sorted(t) for t in best[0]] != [sorted(t) for t in rows[0]]:
        design_used = None
    return Planned([[[ids[i] for i in t] for t in row] for row in best], design_used)


@lru_cache(maxsize=16)
def _event_plan(
    field: tuple[tuple[Entrant, ...], int, int, str],
    method: str,
    sizes: tuple[int, ...],
    total: int,
    work: int,
) -> tuple[list[Row], Design | None]:
    """The whole event planned with nothing played: the ``field`` (players, smallest
    and largest table, seed; the rows hold indices into the players) at tables of
    ``sizes`` for ``total`` rounds, byes by the rule of :func:`bye_rows` from no byes.
    Depends on those alone, so every round of the event computes the same; a process
    keeps the last few it computed (callers copy the rows they change)."""
    request = Request(field[0], field[1], field[2], 1, field[3])
    n = len(request.players)
    byes = bye_rows(request, n - sum(sizes), total)
    rng = random.Random(f"{request.seed}:{method}:event")
    rows: list[Row] = []
    design = find_design(n, sizes, n - sum(sizes), total)
    if design is not None:
        rows = relabel(design, range(n), total, rng)
    # named in the notes only when the whole event is the design (a longer event
    # starts from it and repeats after it)
    used = design if design is not None and total <= design.count else None
    index = {p.id: i for i, p in enumerate(request.players)}
    running = [[0] * n for _ in range(n)]
    for row in rows:
        _count(running, row)
    for out_ids in byes[len(rows) :]:
        out = {index[p] for p in out_ids}
        row = greedy_row([i for i in range(n) if i not in out], sizes, running, rng)
        _count(running, row)
        rows.append(row)
    if len(rows) > (design.count if design is not None else 0):
        plan = Plan(n, rows, [[0] * n for _ in range(n)])
        slots = sum(len(t) * (len(t) - 1) // 2 for row in rows for t in row)
        rows = search(plan, rng, work, least_cost(plan.history, range(n), slots))
    return rows, used


def _count(met: list[list[int]], row: Row) -> None:
    for table in row:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                met[a][b] += 1
                met[b][a] += 1


def seat_history(history: Iterable[PastRound]) -> dict[PlayerId, Counter[int]]:
    """How often each player sat at each position counted from the first dealer
    (0: dealt first, 1: next, ...)."""
    positions: dict[PlayerId, Counter[int]] = {}
    for past in history:
        for table in past.tables:
            for i, player in enumerate(table.seats):
                positions.setdefault(player, Counter())[(i - table.first_dealer) % len(table.seats)] += 1
    return positions


# dealing first weighs more than any other seat: it is the count players compare
DEALER_WEIGHT = 3


def seat_order(
    group: Sequence[PlayerId],
    positions: Mapping[PlayerId, Mapping[int, int]],
    rng: random.Random,
    dealer: PlayerId | None = None,
) -> list[PlayerId]:
    """``group`` in seat order (seat 0 deals first) so that each player takes a seat they
    have had least: the least sum over players of the square of their count at their
    seat (dealing first counted ``DEALER_WEIGHT`` times), found exactly over all orders
    by a dynamic programme over the subsets of players seated so far; ties by a seeded
    draw. ``dealer``, when given, takes seat 0."""
    drawn = list(group)
    rng.shuffle(drawn)
    size = len(drawn)
    barred = (2 * max((c for p in drawn for c in positions.get(p, {}).values()), default=0) + 2) * size**2

    def cost(player: PlayerId, seat: int) -> int:
        if seat == 0 and dealer is not None and player != dealer:
            return barred * DEALER_WEIGHT
        had = positions.get(player, {}).get(seat, 0)
        return (2 * had + 1) * (DEALER_WEIGHT if seat == 0 else 1)

    costs = [[cost(p, seat) for seat in range(size)] for p in drawn]
    # best[mask]: the least cost of seats 0..popcount(mask)-1 taken by the players in mask
    full = 1 << size
    best = [0] + [-1] * (full - 1)
    choice = [0] * full
    for mask in range(1, full):
        seat = bin(mask).count("1") - 1
        least = -1
        for i in range(size):
            bit = 1 << i
            if mask & bit:
                value = best[mask ^ bit] + costs[i][seat]
                if least < 0 or value < least:
                    least, choice[mask] = value, i
        best[mask] = least
    order: list[PlayerId] = []
    mask = full - 1
    while mask:
        i = choice[mask]
        order.append(drawn[i])
        mask ^= 1 << i
    order.reverse()
    return order


# seats are planned over the rows to come for tables of at most this size (the exact
# order of a table costs 2^size · size² steps), over the first row alone above it
PLANNED_SEATS = 6
SEAT_PASSES = 3


def seat_orders(
    rows: Sequence[Sequence[Sequence[PlayerId]]],
    positions: Mapping[PlayerId, Mapping[int, int]],
    rng: random.Random,
) -> list[list[PlayerId]]:
    """Seat orders for the tables of ``rows[0]``, chosen with the rows to come: every
    planned table's order is the best (:func:`seat_order`) given all the others' and
    the earlier rounds' counts, in a few passes over them, so that who deals first and
    where each player sits spread evenly over the event, not only this round."""
    counts: dict[PlayerId, Counter[int]] = {p: Counter(c) for p, c in positions.items()}
    planned = rows if max((len(t) for row in rows for t in row), default=0) <= PLANNED_SEATS else rows[:1]

    def add(order: Sequence[PlayerId], step: int) -> None:
        for seat, player in enumerate(order):
            counts.setdefault(player, Counter())[seat] += step

    orders = []
    for row in planned:
        chosen = []
        for group in row:
            order = seat_order(group, counts, rng)
            add(order, 1)
            chosen.append(order)
        orders.append(chosen)
    if len(planned) > 1:
        for chosen in orders:
            for k, order in enumerate(chosen):
                add(order, -1)
                chosen[k] = seat_order(order, counts, rng)
                add(chosen[k], 1)
        _balance_dealers(orders, counts)
        for _ in range(SEAT_PASSES):
            for chosen in orders:
                for k, order in enumerate(chosen):
                    add(order, -1)
                    chosen[k] = seat_order(order, counts, rng, dealer=order[0])
                    add(chosen[k], 1)
    return orders[0] if orders else []


def _balance_dealers(orders: list[list[list[PlayerId]]], counts: dict[PlayerId, Counter[int]]) -> None:
    """Move first deals along chains of planned tables (a table dealt by ``p`` has ``q``
    at it, one dealt by ``q`` has ``r``, …) from a player who deals first most to one who
    deals first at least two fewer times, until no chain is left: a table then goes to
    its new dealer, who is moved to seat 0 (the other seats are chosen again after)."""
    dealing: dict[PlayerId, list[tuple[int, int]]] = {}
    for r, chosen in enumerate(orders):
        for k, order in enumerate(chosen):
            dealing.setdefault(order[0], []).append((r, k))
    players = {p for chosen in orders for order in chosen for p in order}
    dealt = {p: counts.get(p, Counter())[0] for p in players}
    improved = True
    while improved and max(dealt.values(), default=0) - min(dealt.values(), default=0) > 1:
        improved = False
        for start in sorted(dealing, key=lambda p: (-dealt[p], p)):
            if dealt[start] - min(dealt.values()) < 2:
                break
            parent: dict[PlayerId, tuple[PlayerId, tuple[int, int]]] = {}
            queue, head, end = [start], 0, None
            while head < len(queue) and end is None:
                player = queue[head]
                head += 1
                for r, k in dealing.get(player, []):
                    for other in orders[r][k]:
                        if other == start or other in parent:
                            continue
                        parent[other] = (player, (r, k))
                        if dealt[other] <= dealt[start] - 2:
                            end = other
                            break
                        queue.append(other)
                    if end is not None:
                        break
            if end is None:
                continue
            player = end
            while player != start:
                previous, (r, k) = parent[player]
                order = orders[r][k]
                dealing[previous].remove((r, k))
                dealing.setdefault(player, []).append((r, k))
                counts[previous][0] -= 1
                counts.setdefault(player, Counter())[0] += 1
                dealt[previous] -= 1
                dealt[player] += 1
                orders[r][k] = [player, *(p for p in order if p != player)]
                player = previous
            improved = True
