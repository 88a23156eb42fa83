"""Swiss seating: players of like standing meet, nobody meets the same opponents again
while that can be helped.

Two-player tables: players are ordered by points (score groups), then standings; the
top unpaired player takes the next one down who is a fair opponent, floating down a
group when the own group has none left. :func:`league.seating.v1.matching.best_pairing`
makes the choice safe: a pair is taken only if the rest can still be paired without a
rematch (or with no more rematches than the fewest possible). The bye goes to the
lowest-ranked player who has had the fewest byes; the player who dealt first less
often (or not last time) deals first.

Larger tables are filled from the top of the standings, then players are swapped
between neighbouring tables, a bounded number of times, wherever that lowers the
repeat meetings (:func:`league.seating.base.repeat_cost`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import pairwise

from core.messages import Message
from league.seating import notes as say
from league.seating.base import (
    PlayerId,
    Request,
    Seating,
    Table,
    choose_byes,
    meetings,
    table_sizes,
)
from league.seating.v1.matching import best_pairing

METHOD = "swiss"
# how many candidate swaps between neighbouring tables the multi-player pass tries
DEFAULT_SWAP_BUDGET = 2000


def seat(request: Request) -> Seating:
    order = ranking_order(request)
    if request.table_max == 2:
        return _seat_pairs(request, order)
    return _seat_groups(request, order)


def ranking_order(request: Request) -> list[PlayerId]:
    """The active players best first: by points, then standings; players not in the
    standings (late entrants) at the bottom of their points. Before any standings
    (round 1): by registration seed, then a seeded draw."""
    ids = [p.id for p in request.players]
    draw = ids[:]
    request.rng(f"{METHOD}:order").shuffle(draw)
    drawn = {player: n for n, player in enumerate(draw)}
    if not request.standings:
        seeds = {p.id: p.seed for p in request.players}
        return sorted(ids, key=lambda p: (seeds[p] is None, seeds[p] or 0, drawn[p]))
    place = {player: n for n, player in enumerate(request.standings)}
    registered = {player: n for n, player in enumerate(ids)}
    late = len(place)
    return sorted(ids, key=lambda p: (-points_of(request, p), place.get(p, late), registered[p]))


def points_of(request: Request, player: PlayerId) -> Fraction:
    return Fraction(request.points.get(player, 0))


def first_deals(request: Request) -> tuple[Counter[PlayerId], dict[PlayerId, int]]:
    """How often each player dealt first, and the last round number each did."""
    count: Counter[PlayerId] = Counter()
    last: dict[PlayerId, int] = {}
    for past in request.history:
        for table in past.tables:
            if table.seats:
                dealer = table.seats[table.first_dealer]
                count[dealer] += 1
                last[dealer] = max(last.get(dealer, past.number), past.number)
    return count, last


def dealer_order(
    pair: tuple[PlayerId, PlayerId], deals: tuple[Counter[PlayerId], Mapping[PlayerId, int]]
) -> tuple[PlayerId, PlayerId]:
    """Seat order for two players: the one who dealt first less often, then the one who
    did not deal first more recently, deals first; ties keep the given order."""
    count, last = deals
    first, second = pair
    if (count[second], last.get(second, -1)) < (count[first], last.get(first, -1)):
        return second, first
    return pair


def _seat_pairs(request: Request, order: list[PlayerId]) -> Seating:
    sizes, sitting_out = table_sizes(len(order), 2, 2)
    byes, notes = choose_byes(request, sitting_out, order)
    playing = [p for p in order if p not in byes]
    met = meetings(request.history)

    def times(a: PlayerId, b: PlayerId) -> int:
        return met[(a, b) if a < b else (b, a)]

    def allowed(i: int, j: int) -> bool:
        return times(playing[i], playing[j]) == 0

    def candidates(i: int, rest: Sequence[int]) -> Sequence[int]:
        # rest is in ranking order: the nearest fair opponent first; repeat opponents
        # (only offered when unavoidable) the least met first
        return sorted(rest, key=lambda j: times(playing[i], playing[j]))

    pairs, repeats = best_pairing(len(playing), allowed, candidates)
    deals = first_deals(request)
    tables: list[Table] = []
    for i, j in pairs:
        a, b = playing[i], playing[j]
        table_notes: list[Message] = []
        high, low = points_of(request, a), points_of(request, b)
        if low < high:
            table_notes.append(say.pulled_up(b, low))
        if times(a, b):
            table_notes.append(say.unavoidable_rematch(a, b))
        tables.append(Table(dealer_order((a, b), deals), tuple(table_notes)))
    if repeats:
        notes.append(say.rematches(repeats))
    assert len(tables) == len(sizes)
    return Seating(METHOD, tuple(tables), tuple(byes), tuple(notes))


def _seat_groups(request: Request, order: list[PlayerId]) -> Seating:
    sizes, sitting_out = table_sizes(len(order), request.table_min, request.table_max)
    byes, notes = choose_byes(request, sitting_out, order)
    playing = [p for p in order if p not in byes]
    met = meetings(request.history)
    rank = {player: n for n, player in enumerate(playing)}
    groups: list[list[PlayerId]] = []
    start = 0
    for size in sizes:
        groups.append(playing[start : start + size])
        start += size

    def times(a: PlayerId, b: PlayerId) -> int:
        return met[(a, b) if a < b else (b, a)]

    def cost(player: PlayerId, group: Sequence[PlayerId], without: PlayerId) -> int:
        # what the player adds to repeat_cost at group: (t + 1)² - t² for each other
        return sum(2 * times(player, other) + 1 for other in group if other != without)

    budget = int(request.params.get("swap_budget", DEFAULT_SWAP_BUDGET))
    swaps: list[tuple[PlayerId, PlayerId]] = []
    improved = True
    while improved and budget > 0:
        improved = False
        for upper, lower in pairwise(groups):
            # nearest in rank first: swapping the last of one table with the first of the
            # next disturbs the standings least
            options = sorted(
                ((x, y) for x in upper for y in lower),
                key=lambda xy: (rank[xy[1]] - rank[xy[0]], rank[xy[0]]),
            )
            for x, y in options:
                if budget <= 0:
                    break
                budget -= 1
                before = cost(x, upper, x) + cost(y, lower, y)
                after = cost(y, upper, x) + cost(x, lower, y)
                if after < before:
                    upper[upper.index(x)] = y
                    lower[lower.index(y)] = x
                    swaps.append((x, y))
                    improved = True
                    break
    moved_up = {y: x for x, y in swaps}
    deals = first_deals(request)
    count, last = deals
    tables: list[Table] = []
    for group in groups:
        group.sort(key=lambda p: rank[p])
        table_notes: list[Message] = []
        top = points_of(request, group[0])
        for player in group:
            if player in moved_up and points_of(request, player) < top:
                table_notes.append(say.pulled_up(player, points_of(request, player)))
            elif player in moved_up:
                table_notes.append(say.moved_up(player))
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                if times(a, b):
                    table_notes.append(say.swapped_rematch(a, b))
        # seat 0 deals first: whoever dealt first least often (not most recently)
        dealer = min(group, key=lambda p: (count[p], last.get(p, -1), rank[p]))
        seats = (dealer, *(p for p in group if p != dealer))
        tables.append(Table(seats, tuple(table_notes)))
    return Seating(METHOD, tuple(tables), tuple(byes), tuple(notes))
