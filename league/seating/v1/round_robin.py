"""Round robin: a whole schedule computed from the players and the seed alone, of which
round ``r`` is row ``r``; so every round of the event computes the same schedule, and
the history is not read.

Two-player tables: the circle (Berger) method, every pair meeting exactly once in
``n - 1`` rounds (``n`` when ``n`` is odd: each player has one bye), then the schedule
repeats. Larger tables: the social golfer problem, which has no perfect schedule for
most sizes; a seeded search minimises the schedule's repeat cost over its rounds, and
the notes say how far it is above a counting lower bound.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from league.seating import notes as say
from league.seating.base import PlayerId, Request, Seating, SeatingError, Table, table_sizes
from league.seating.v1.balanced import best_grouping, pairs, seat_order

METHOD = "round_robin"
# the search's budget, fixed so that the seed alone decides the schedule: proposals per
# player for each row seated in turn, then per player-round for the whole schedule, at
# most MOST_PROPOSALS, starting from a temperature of HEAT
ROW_PROPOSALS = 100
PROPOSALS_PER_SLOT = 400
MOST_PROPOSALS = 60_000
HEAT = 1.0

Schedule = list[tuple[list[list[PlayerId]], list[PlayerId]]]


def seat(request: Request) -> Seating:
    if request.round_number < 1:
        raise SeatingError(f"round {request.round_number}: rounds count from 1", "invalid_round")
    order = [p.id for p in request.players]
    # seeded by the event's seed only: the same for every round
    random.Random(f"{request.seed}:{METHOD}").shuffle(order)
    if request.table_min == request.table_max == 2:
        return _two_player(request, order)
    return _multi_player(request, order)


def berger(players: Sequence[PlayerId]) -> list[tuple[list[tuple[PlayerId, PlayerId]], list[PlayerId]]]:
    """The circle method: for each round, its pairs (first dealer first) and its bye.

    >>> berger([1, 2, 3, 4])
    [([(1, 4), (2, 3)], []), ([(4, 2), (3, 1)], []), ([(3, 4), (1, 2)], [])]
    """
    n = len(players) + len(players) % 2
    m = n - 1
    # player m (a bye when the count is odd) stays while the others turn round a circle of
    # m places; in round r it meets player r, and players r+k and r-k meet
    fixed = players[m] if m < len(players) else None
    rounds = []
    for r in range(m):
        tables: list[tuple[PlayerId, PlayerId]] = []
        byes: list[PlayerId] = []
        if fixed is None:
            byes.append(players[r])
        else:
            # the fixed player deals first every other round
            tables.append((fixed, players[r]) if r % 2 else (players[r], fixed))
        for k in range(1, n // 2):
            a, b = (r + k) % m, (r - k) % m
            # a deals first when b is within half the circle after it: every player then
            # deals first in half of the games among the turning players
            tables.append((players[a], players[b]) if (b - a) % m <= m // 2 else (players[b], players[a]))
        rounds.append((tables, byes))
    return rounds


def _two_player(request: Request, order: list[PlayerId]) -> Seating:
    if len(order) < 2:
        raise SeatingError("a round robin needs at least two players", "too_few_players")
    schedule = berger(order)
    cycle, row = divmod(request.round_number - 1, len(schedule))
    tables, byes = schedule[row]
    if cycle % 2:
        # the return cycle: the other player deals first
        tables = [(b, a) for a, b in tables]
    notes = [say.cycle_row(row + 1, len(schedule), cycle + 1), *(say.cycle_bye(p) for p in byes)]
    return Seating(
        METHOD,
        tuple(Table((a, b), (say.deals_first(a),)) for a, b in tables),
        tuple(byes),
        tuple(notes),
    )


def _rounds(request: Request, players: int, size: int) -> int:
    params: dict[str, Any] = dict(request.params)
    total = request.total_rounds or params.get("rounds")
    if total is None:
        # enough rounds for each player to meet every other, were the schedule perfect
        return max(1, -(-(players - 1) // max(size - 1, 1)))
    if not isinstance(total, int) or isinstance(total, bool) or total < 1:
        raise SeatingError(f"rounds {total!r}: need a whole number of at least 1", "invalid_rounds")
    return total


def _multi_player(request: Request, order: list[PlayerId]) -> Seating:
    sizes, bye_count = table_sizes(len(order), request.table_min, request.table_max)
    total = _rounds(request, len(order), max(sizes, default=2))
    if request.round_number > total:
        raise SeatingError(
            f"round {request.round_number} is beyond the round robin's {total} rounds", "beyond_schedule"
        )
    rng = random.Random(f"{request.seed}:{METHOD}:schedule")
    schedule = social_golfer(order, sizes, bye_count, total, rng)
    cost = schedule_cost(schedule)
    bound = lower_bound(len(order), sizes, bye_count, total)
    byes = schedule[request.round_number - 1][1]
    # first dealers and seats balanced over the schedule's earlier rows, not the history
    dealt: Counter[PlayerId] = Counter()
    positions: dict[PlayerId, Counter[int]] = {}
    seated: list[list[PlayerId]] = []
    for number, (row, _) in enumerate(schedule[: request.round_number]):
        seated = [seat_order(group, dealt, positions, rng) for group in row]
        if number < request.round_number - 1:
            for group in seated:
                dealt[group[0]] += 1
                for i, p in enumerate(group):
                    positions.setdefault(p, Counter())[i] += 1
    met: Counter[tuple[PlayerId, PlayerId]] = Counter()
    for row, _ in schedule[: request.round_number - 1]:
        for group in row:
            met.update(pairs(group))
    result = []
    for group in seated:
        notes = [say.deals_first(group[0])]
        notes += [say.repeat_scheduled(a, b) for a, b in pairs(group) if met[(a, b)]]
        result.append(Table(tuple(group), tuple(notes)))
    notes = [
        say.schedule_row(request.round_number, total),
        say.schedule_cost(cost, total, bound),
        *(say.schedule_bye(p) for p in byes),
    ]
    return Seating(METHOD, tuple(result), tuple(byes), tuple(notes))


def social_golfer(
    players: Sequence[PlayerId],
    sizes: Sequence[int],
    bye_count: int,
    rounds: int,
    rng: random.Random,
    proposals_per_slot: int = PROPOSALS_PER_SLOT,
    heat: float = HEAT,
) -> Schedule:
    """``rounds`` rows of tables of ``sizes`` (and ``bye_count`` byes taken in turn down
    ``players``), with a low sum over pairs of (times together)²: each row seated in turn
    by a short balanced search against the rows before, then the whole schedule annealed
    by swaps within a row (later rows can then give way to earlier ones)."""
    n = len(players)
    rows: list[list[list[int]]] = []
    byes: list[list[int]] = []
    met: Counter[tuple[int, int]] = Counter()
    for r in range(rounds):
        out = [(r * bye_count + k) % n for k in range(bye_count)] if n else []
        sitting = [i for i in range(n) if i not in set(out)]
        row = best_grouping(sitting, sizes, met, rng, restarts=1, proposals_per_player=ROW_PROPOSALS)
        for group in row:
            met.update(pairs(group))
        rows.append(row)
        byes.append(out)
    together = [[0] * n for _ in range(n)]
    for row in rows:
        for group in row:
            for a in group:
                for b in group:
                    if a != b:
                        together[a][b] += 1

    def delta(group_a: list[int], a: int, group_b: list[int], b: int) -> int:
        # a leaves each x of group_a, (m-1)² - m² = 1 - 2m, and b joins it, (m+1)² - m² = 2m + 1
        ta, tb = together[a], together[b]
        change = 0
        for x in group_a:
            if x != a:
                change += 2 * (tb[x] - ta[x]) + 2
        for y in group_b:
            if y != b:
                change += 2 * (ta[y] - tb[y]) + 2
        return change

    def move(group_a: list[int], a: int, group_b: list[int], b: int) -> None:
        for x in group_a:
            if x != a:
                together[a][x] -= 1
                together[x][a] -= 1
                together[b][x] += 1
                together[x][b] += 1
        for y in group_b:
            if y != b:
                together[b][y] -= 1
                together[y][b] -= 1
                together[a][y] += 1
                together[y][a] += 1
        group_a[group_a.index(a)] = b
        group_b[group_b.index(b)] = a

    if len(sizes) > 1:
        proposals = min(proposals_per_slot * sum(sizes) * rounds, MOST_PROPOSALS)
        cooling = (0.05 / heat) ** (1 / proposals)
        for _ in range(proposals):
            heat *= cooling
            row = rows[rng.randrange(rounds)]
            ga, gb = rng.sample(range(len(row)), 2)
            group_a, group_b = row[ga], row[gb]
            a, b = rng.choice(group_a), rng.choice(group_b)
            change = delta(group_a, a, group_b, b)
            if change <= 0 or rng.random() < math.exp(-change / heat):
                move(group_a, a, group_b, b)
    return [
        ([[players[i] for i in group] for group in row], [players[i] for i in out])
        for row, out in zip(rows, byes, strict=True)
    ]


def schedule_cost(schedule: Schedule) -> int:
    met: Counter[tuple[PlayerId, PlayerId]] = Counter()
    for row, _ in schedule:
        for group in row:
            met.update(pairs(group))
    return sum(m * m for m in met.values())


def lower_bound(players: int, sizes: Sequence[int], bye_count: int, rounds: int) -> int:
    """A least sum over pairs of (times met)² for ``rounds`` rounds at tables of
    ``sizes`` with ``bye_count`` byes a round: the larger of two counting bounds, the
    meetings spread as evenly as possible over all pairs, and each player's fewest
    possible meetings spread evenly over their opponents (sharper when rounds are few).

    >>> lower_bound(8, [4, 4], 0, 3)
    52
    >>> lower_bound(9, [4, 4], 1, 3)
    36
    """
    if players < 2 or not sizes:
        return 0

    def even(total: int, over: int) -> int:
        q, r = divmod(total, over)
        return r * (q + 1) ** 2 + (over - r) * q * q

    slots = rounds * sum(s * (s - 1) // 2 for s in sizes)
    by_pairs = even(slots, players * (players - 1) // 2)
    # the fewest meetings a player can have: the most byes taken in turn, the smallest table
    most_byes = -(-rounds * bye_count // players)
    fewest = (rounds - most_byes) * (min(sizes) - 1)
    by_player = -(-players * even(fewest, players - 1) // 2)
    return max(by_pairs, by_player)
