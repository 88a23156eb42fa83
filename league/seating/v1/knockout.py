"""Knockout seating.

Two-player tables: single elimination. Round 1 places the players in a standard bracket
by seed (1 v 16, 8 v 9, …: the top two seeds can only meet in the final); when the
count is not a power of two the top seeds have byes. Tables and byes are returned in
bracket order, and later rounds rebuild the bracket from round 1 of the history in that
order, then advance the winner of each table (its ``ranking``) or the player with a
bye, round by round, so the bracket order is kept without any stored state.

Larger tables: one final table of the top ``final_size`` of the standings; everyone
else sits out.
"""

from __future__ import annotations

from core.messages import Message
from league.seating import notes as say
from league.seating.base import PastRound, PastTable, PlayerId, Request, Seating, SeatingError, Table
from league.seating.v1.swiss import dealer_order, first_deals, ranking_order

METHOD = "knockout"
Slot = PlayerId | None


def seat(request: Request) -> Seating:
    if request.table_max == 2:
        return _seat_bracket(request)
    return _seat_final(request)


def bracket_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two ``size``: each seed ``s``
    meets ``size + 1 - s`` in round 1, and the halves split the top seeds evenly.

    >>> bracket_positions(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, span - top)]
    return order


def seed_order(request: Request) -> list[PlayerId]:
    """The players best seed first: registration seed (lower is better), then the
    standings, then registration order."""
    standing = {player: n for n, player in enumerate(request.standings)}
    unranked = len(standing)
    return [
        p.id
        for n, p in sorted(
            enumerate(request.players),
            key=lambda item: (
                item[1].seed is None,
                item[1].seed or 0,
                standing.get(item[1].id, unranked),
                item[0],
            ),
        )
    ]


def _power_of_two(count: int) -> int:
    size = 2
    while size < count:
        size *= 2
    return size


def _seat_bracket(request: Request) -> Seating:
    if not request.history:
        return _first_round(request)
    slots, sources = _rebuild(request)
    if len(slots) == 1:
        winner = slots[0]
        name = request.name(winner) if winner is not None else "nobody"
        raise SeatingError(f"the knockout is over: {name} won the final", "knockout_finished")
    active = {p.id for p in request.players}
    deals = first_deals(request)
    tables: list[Table] = []
    byes: list[PlayerId] = []
    notes: list[Message] = []
    for left, right in zip(slots[::2], slots[1::2], strict=True):
        present = [p for p in (left, right) if p is not None and p in active]
        table_notes = [sources[p] for p in present if p in sources]
        if len(present) == 2:
            a, b = present
            tables.append(Table(dealer_order((a, b), deals), tuple(table_notes)))
        elif present:
            byes.append(present[0])
            notes.extend(table_notes)
            notes.append(say.bracket_bye(present[0]))
    in_bracket = {p for p in slots if p is not None}
    for player in request.players:
        if player.id not in in_bracket:
            byes.append(player.id)
            notes.append(say.eliminated(player.id))
    return Seating(METHOD, tuple(tables), tuple(byes), tuple(notes))


def _first_round(request: Request) -> Seating:
    seeds = seed_order(request)
    if len(seeds) < 2:
        raise SeatingError("a knockout needs at least two players", "too_few_players")
    size = _power_of_two(len(seeds))
    deals = first_deals(request)
    tables: list[Table] = []
    byes: list[PlayerId] = []
    notes: list[Message] = []
    order = bracket_positions(size)
    for top, bottom in zip(order[::2], order[1::2], strict=True):
        a = seeds[top - 1]
        if bottom > len(seeds):
            byes.append(a)
            notes.append(say.seed_bye(a, top))
        else:
            tables.append(Table(dealer_order((a, seeds[bottom - 1]), deals)))
    return Seating(METHOD, tuple(tables), tuple(byes), tuple(notes))


def _rebuild(request: Request) -> tuple[list[Slot], dict[PlayerId, Message]]:
    """The bracket after the last round played: one slot per part of the bracket still
    to be decided (its player, or None if nobody is left there), and for each player
    who advanced in the last round how (a note)."""
    first = request.history[0]
    if any(len(t.seats) != 2 for t in first.tables):
        raise SeatingError("round 1 was not seated as a two-player knockout", "bracket_mismatch")
    entrants = 2 * len(first.tables) + len(first.byes)
    size = _power_of_two(entrants)
    if len(first.byes) != size - entrants:
        raise SeatingError("round 1 was not seated as a two-player knockout", "bracket_mismatch")
    tables = iter(first.tables)
    bye_players = iter(first.byes)
    slots: list[Slot] = []
    order = bracket_positions(size)
    for _top, bottom in zip(order[::2], order[1::2], strict=True):
        if bottom > entrants:
            slots.extend((next(bye_players), None))
        else:
            slots.extend(next(tables).seats)
    sources: dict[PlayerId, Message] = {}
    for past in request.history:
        slots, sources = _advance(request, slots, past)
    return slots, sources


def _advance(
    request: Request, slots: list[Slot], past: PastRound
) -> tuple[list[Slot], dict[PlayerId, Message]]:
    where: dict[PlayerId, tuple[int, PastTable]] = {}
    for number, table in enumerate(past.tables, start=1):
        for player in table.seats:
            where[player] = (number, table)
    advanced: list[Slot] = []
    sources: dict[PlayerId, Message] = {}
    for left, right in zip(slots[::2], slots[1::2], strict=True):
        present = [p for p in (left, right) if p is not None]
        played = [p for p in present if p in where]
        if not played:
            # a bye (or nobody left): whoever was there and took the bye goes on
            winner = next((p for p in present if p in past.byes), None)
            if winner is not None:
                sources[winner] = say.advanced_from_bye(winner)
            advanced.append(winner)
            continue
        number, table = where[played[0]]
        if set(table.seats) != set(present):
            raise SeatingError(
                f"round {past.number}, table {number} does not follow the bracket", "bracket_mismatch"
            )
        if table.ranking is None:
            raise SeatingError(
                f"round {past.number} is not complete: table {number} has no result yet", "round_not_complete"
            )
        if not table.ranking or len(table.ranking[0]) != 1:
            raise SeatingError(
                f"round {past.number}, table {number}: a tie for first, so nobody advances", "tied_result"
            )
        winner = table.ranking[0][0]
        sources[winner] = say.advanced_from_table(winner, number)
        advanced.append(winner)
    return advanced, sources


def _seat_final(request: Request) -> Seating:
    final_size = int(request.params.get("final_size", request.table_max))
    if not request.table_min <= final_size <= request.table_max:
        raise SeatingError(
            f"final_size {final_size} is not within {request.table_min}-{request.table_max}",
            "invalid_table_size",
        )
    order = ranking_order(request)
    if len(order) < request.table_min:
        raise SeatingError(
            f"{len(order)} players cannot fill a final table of at least {request.table_min}",
            "too_few_players",
        )
    finalists = order[:final_size]
    rest = order[final_size:]
    count, last = first_deals(request)
    rank = {player: n for n, player in enumerate(finalists)}
    # seat 0 deals first: the leader, unless someone else dealt first less often
    dealer = min(finalists, key=lambda p: (count[p], last.get(p, -1), rank[p]))
    seats = (dealer, *(p for p in finalists if p != dealer))
    notes = [say.final_table(len(finalists))]
    notes.extend(say.not_in_final(p, final_size + n + 1) for n, p in enumerate(rest))
    return Seating(METHOD, (Table(seats),), tuple(rest), tuple(notes))
