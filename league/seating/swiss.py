"""Swiss seating: players of like standing meet, nobody meets the same opponents again
while that can be helped.

Two-player tables: a maximum-weight perfect matching with strict priorities
(:mod:`league.seating.pairing`): no avoidable rematch, then the bye to the
lowest-ranked player without one that forces no rematch, then the least sum of squared
score differences, the fewest players paired outside their score group, and the Dutch
order within a group (top half against bottom half). The player who dealt first less
often (or not last time) deals first.

Larger tables: the tables filled down the standings, then searched like ``balanced``
(:func:`league.seating.lookahead.plan_rounds`) with a cost that puts repeat meetings
far above the distance in the ranking between players seated together. The round is
planned alone: planning the rounds after it (assuming today's standings) was tried,
and it gave up the standings order of the round being seated to spare repeats in
rounds whose standings are not known yet (round 1 of 16 players at tables of 4 over 5
rounds came out scrambled instead of top-down).

Requests stored with ``algorithm`` 1 are seated by :mod:`league.seating.v1.swiss`.
"""

from __future__ import annotations

from core.messages import Message
from league.seating import notes as say
from league.seating.base import (
    PlayerId,
    Request,
    Seating,
    Table,
    byes_of,
    choose_byes,
    meetings,
    table_sizes,
)
from league.seating.lookahead import plan_rounds
from league.seating.pairing import swiss_pairs
from league.seating.v1 import swiss as v1
from league.seating.v1.swiss import dealer_order, first_deals, points_of, ranking_order

METHOD = "swiss"
# swaps the multi-player search may price: the tables start from the standings, so
# only the repeat meetings are left to search away
WORK = 50_000

__all__ = ["METHOD", "dealer_order", "first_deals", "points_of", "ranking_order", "seat"]


def seat(request: Request) -> Seating:
    if request.algorithm == 1:
        return v1.seat(request)
    order = ranking_order(request)
    if request.table_max == 2:
        return _seat_pairs(request, order)
    return _seat_groups(request, order)


def _seat_pairs(request: Request, order: list[PlayerId]) -> Seating:
    met = meetings(request.history)

    def times(a: PlayerId, b: PlayerId) -> int:
        return met[(a, b) if a < b else (b, a)]

    had = byes_of(request.history)
    fewest = min((had[p] for p in order), default=0)
    eligible = [p for p in order if had[p] == fewest] if len(order) % 2 else []
    pairs, bye = swiss_pairs(order, request.points, times, eligible)
    notes = [] if bye is None else [say.bye(bye, had[bye] + 1)]
    deals = first_deals(request)
    tables: list[Table] = []
    repeats = 0
    for a, b in pairs:
        table_notes: list[Message] = []
        high, low = points_of(request, a), points_of(request, b)
        if low < high:
            table_notes.append(say.pulled_up(b, low))
        if times(a, b):
            repeats += 1
            table_notes.append(say.unavoidable_rematch(a, b))
        tables.append(Table(dealer_order((a, b), deals), tuple(table_notes)))
    if repeats:
        notes.append(say.rematches(repeats))
    return Seating(METHOD, tuple(tables), (bye,) if bye is not None else (), tuple(notes))


def _seat_groups(request: Request, order: list[PlayerId]) -> Seating:
    sizes, sitting_out = table_sizes(len(order), request.table_min, request.table_max)
    byes, notes = choose_byes(request, sitting_out, order)
    if not sizes:
        return Seating(METHOD, (), tuple(byes), tuple(notes))
    ids = [p.id for p in request.players]
    index = {p: i for i, p in enumerate(ids)}
    rank = {player: n for n, player in enumerate(order)}
    n = len(ids)
    # a repeat meeting outweighs any seating by rank: more than the farthest table
    distance = [[(rank[a] - rank[b]) ** 2 for b in ids] for a in ids]
    weight = 2 * max(sizes) * n * n + 1
    playing = [p for p in order if p not in set(byes)]
    first, start = [], 0
    for size in sizes:
        first.append([index[p] for p in playing[start : start + size]])
        start += size
    planned = plan_rounds(
        request,
        METHOD,
        sizes,
        [byes],
        distance=distance,
        weight=weight,
        work=WORK,
        first=first,
    )
    met = meetings(request.history)
    count, last = first_deals(request)
    natural = {p: k for k, group in enumerate(first) for p in (ids[i] for i in group)}
    tables: list[Table] = []
    for group in sorted(planned.rows[0], key=lambda g: (-len(g), min(rank[p] for p in g))):
        group.sort(key=lambda p: rank[p])
        top = points_of(request, group[0])
        home = min(natural[p] for p in group)
        table_notes: list[Message] = []
        for player in group:
            if natural[player] > home and points_of(request, player) < top:
                table_notes.append(say.pulled_up(player, points_of(request, player)))
            elif natural[player] > home:
                table_notes.append(say.moved_up(player))
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if met[(a, b) if a < b else (b, a)]:
                    table_notes.append(say.searched_rematch(a, b))
        dealer = min(group, key=lambda p: (count[p], last.get(p, -1), rank[p]))
        tables.append(Table((dealer, *(p for p in group if p != dealer)), tuple(table_notes)))
    return Seating(METHOD, tuple(tables), tuple(byes), tuple(notes))
