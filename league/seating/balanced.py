"""Balanced random seating: tables that repeat as few meetings as possible over the
whole event, then fair first dealers and seat positions.

Each round plans the rounds left (this one to ``total_rounds``) together, the earlier
rounds fixed, and seats the first planned round; the next round plans again from what
was played, so late entries, drop-outs, byes and edited tables change the plan, not the
method, and nothing but the request is read (``regenerate_round --check`` still
holds). The plan (:mod:`league.seating.lookahead`) starts from a known design when the
field fits one (AG(2, q), AG(3, q), Kirkman triple systems, …), relabelled with the
tournament's seed, and is improved by a seeded tabu search over swaps. A league
(``total_rounds`` unknown) plans its round alone.

Requests stored with ``algorithm`` 1 are seated by :mod:`league.seating.v1.balanced`,
the round-by-round search they were seated with.
"""

from __future__ import annotations

from collections import Counter

from core.messages import Message
from league.seating import notes as say
from league.seating.base import PlayerId, Request, Seating, Table, choose_byes, meetings, table_sizes
from league.seating.designs import Design
from league.seating.lookahead import (
    bye_rows,
    plan_rounds,
    repeat_bound,
    repeats,
    rounds_left,
    seat_history,
    seat_orders,
)
from league.seating.v1 import balanced as v1

METHOD = "balanced"


def seat(request: Request) -> Seating:
    if request.algorithm == 1:
        return v1.seat(request)
    sizes, bye_count = table_sizes(len(request.players), request.table_min, request.table_max)
    byes, bye_notes = choose_byes(request, bye_count)
    if not sizes:
        return Seating(METHOD, (), tuple(byes), tuple(bye_notes))
    planned = plan_rounds(request, METHOD, sizes, bye_rows(request, bye_count, rounds_left(request)))
    return seating_of(request, METHOD, planned.rows, byes, bye_notes, planned.design)


def design_note(design: Design) -> Message:
    if design.repeats:
        return say.bound_schedule(design.name, design.repeats)
    return say.known_design(design.name)


def seating_of(
    request: Request,
    method: str,
    rows: list[list[list[PlayerId]]],
    byes: list[PlayerId],
    bye_notes: list[Message],
    design: Design | None,
    total: int | None = None,
) -> Seating:
    """The round seated as ``rows[0]``, the rows after it the rounds planned to come
    (seat orders are chosen here, with them), with its notes; ``total`` the event's
    rounds when the request does not say (a round robin's ``rounds`` parameter)."""
    met = meetings(request.history)
    positions = seat_history(request.history)
    rng = request.rng(f"{method}:seats")
    tables = []
    # largest tables first, as table_sizes gives them; then by their smallest player id
    for order in sorted(seat_orders(rows, positions, rng), key=lambda t: (-len(t), min(t))):
        dealt = positions.get(order[0], Counter())[0]
        table_notes = [say.deals_first(order[0], dealt)]
        seats = sorted(order)
        again = [(a, b) for i, a in enumerate(seats) for b in seats[i + 1 :] if met[(a, b)]]
        table_notes += [say.repeat_meeting(a, b, met[(a, b)] + 1) for a, b in again]
        if not again:
            table_notes.append(say.no_repeats())
        tables.append(Table(tuple(order), tuple(table_notes)))
    played = [t.seats for past in request.history for t in past.tables]
    so_far = repeats([*played, *(t.seats for t in tables)])
    sizes = [len(t.seats) for t in tables]
    total = request.total_rounds or total
    bound = repeat_bound(len(request.players), sizes, len(byes), total or request.round_number)
    round_notes = [*bye_notes, say.event_repeats(so_far, max(bound, repeats(played)), total)]
    if design is not None:
        round_notes.append(design_note(design))
    return Seating(method, tuple(tables), tuple(byes), tuple(round_notes))
