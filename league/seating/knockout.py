"""Knockout seating.

Two-player tables: single elimination. Round 1 places the players in a standard bracket
by seed (1 v 16, 8 v 9, …: the top two seeds can only meet in the final); when the
count is not a power of two the top seeds have byes. Tables and byes are returned in
bracket order, and later rounds rebuild the bracket from round 1 of the history in that
order, then advance the winner of each table (its ``ranking``) or the player with a
bye, round by round, so the bracket order is kept without any stored state. A player
knocked out is *out* (:attr:`Seating.out`), not on a bye: only a player still in the
bracket with nobody to play has a bye, and only a bye scores.

Larger tables: one final table of the top ``final_size`` of the standings; everyone
else is out.

Requests stored with ``algorithm`` 1 are seated by :mod:`league.seating.v1.knockout`,
which listed the players knocked out among the byes.
"""

from __future__ import annotations

from core.messages import Message
from league.seating import notes as say
from league.seating.base import PlayerId, Request, Seating, SeatingError, Table
from league.seating.swiss import dealer_order, first_deals, ranking_order
from league.seating.v1 import knockout as v1
from league.seating.v1.knockout import _first_round, _rebuild, bracket_positions, seed_order

METHOD = "knockout"

__all__ = ["METHOD", "bracket_positions", "in_bracket", "seat", "seed_order"]


def seat(request: Request) -> Seating:
    if request.algorithm == 1:
        return v1.seat(request)
    if request.table_max == 2:
        return _seat_bracket(request)
    return _seat_final(request)


def in_bracket(request: Request) -> set[PlayerId]:
    """The players still in a two-player bracket after the rounds of the history."""
    if not request.history:
        return {p.id for p in request.players}
    slots, _ = _rebuild(request)
    return {p for p in slots if p is not None}


def _seat_bracket(request: Request) -> Seating:
    if not request.history:
        first = _first_round(request)
        return Seating(METHOD, first.tables, first.byes, first.notes)
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
    still = {p for p in slots if p is not None}
    out = [p.id for p in request.players if p.id not in still]
    notes.extend(say.eliminated(p) for p in out)
    return Seating(METHOD, tuple(tables), tuple(byes), tuple(notes), out=tuple(out))


def _seat_final(request: Request) -> Seating:
    final = v1._seat_final(request)
    order = ranking_order(request)
    rest = tuple(order[len(final.tables[0].seats) :])
    notes = (
        final.notes[0],
        *(say.not_in_final(p, len(order) - len(rest) + n + 1) for n, p in enumerate(rest)),
    )
    return Seating(METHOD, final.tables, (), notes, out=rest)
