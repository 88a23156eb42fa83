"""Round robin: a whole schedule, computed once and followed.

Two-player tables: the circle (Berger) method, every pair meeting exactly once in
``n - 1`` rounds (``n`` when ``n`` is odd: each player has one bye), then the schedule
repeats; computed from the players and the seed alone, cheaply, every round.

Larger tables: the social golfer problem. The first round plans every round of the
event with the search ``balanced`` uses (:mod:`league.seating.lookahead`: a known
design when the field fits one), with a budget that grows with the field, and returns
the plan as :attr:`Seating.schedule`; the league stores it with the round and gives it
back in the next rounds' requests (:attr:`Request.schedule`), which seat its rows.
When the field changes (a late entry, a drop-out) the schedule no longer fits: the
round plans the rounds left again, the rounds played fixed, and returns the new one.

Requests stored with ``algorithm`` 1 are seated by :mod:`league.seating.v1.round_robin`,
which computed the schedule again every round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from core.messages import Message
from league.seating import notes as say
from league.seating.balanced import design_note, seating_of
from league.seating.base import PlayerId, Request, Seating, SeatingError, table_sizes
from league.seating.lookahead import EVENT_WORK, bye_rows, plan_rounds, repeat_bound, repeats
from league.seating.v1 import round_robin as v1
from league.seating.v1.round_robin import berger

METHOD = "round_robin"
# the schedule is searched once an event: as long as balanced's event plan and this
# many priced swaps more per player of the field
WORK_PER_PLAYER = 40_000

__all__ = ["METHOD", "berger", "seat"]


def seat(request: Request) -> Seating:
    if request.algorithm == 1:
        return v1.seat(request)
    if request.round_number < 1:
        raise SeatingError(f"round {request.round_number}: rounds count from 1", "invalid_round")
    order = [p.id for p in request.players]
    random.Random(f"{request.seed}:{METHOD}").shuffle(order)
    if request.table_min == request.table_max == 2:
        return v1._two_player(request, order)
    return _multi_player(request)


def _multi_player(request: Request) -> Seating:
    ids = sorted(p.id for p in request.players)
    sizes, bye_count = table_sizes(len(ids), request.table_min, request.table_max)
    total = v1._rounds(request, len(ids), max(sizes, default=2))
    number = request.round_number
    if number > total:
        raise SeatingError(f"round {number} is beyond the round robin's {total} rounds", "beyond_schedule")
    row = _stored_row(request.schedule, ids, number, sizes)
    made: dict[str, Any] | None = None
    notes: list[Message] = [say.schedule_row(number, total)]
    if row is None:
        left = total - number + 1
        planned = plan_rounds(
            request,
            METHOD,
            sizes,
            bye_rows(request, bye_count, left),
            work=EVENT_WORK + WORK_PER_PLAYER * len(ids),
            event_work=EVENT_WORK + WORK_PER_PLAYER * len(ids),
        )
        planned_byes = [[p for p in ids if p not in {q for t in r for q in t}] for r in planned.rows]
        made = {
            "players": ids,
            "first": number,
            "rounds": [[[list(t) for t in r], b] for r, b in zip(planned.rows, planned_byes, strict=True)],
        }
        played = [t.seats for past in request.history for t in past.tables]
        event = repeats([*played, *(tuple(t) for r in planned.rows for t in r)])
        bound = repeat_bound(len(ids), sizes, bye_count, total)
        notes.append(say.schedule_made(event, bound))
        if planned.design is not None:
            notes.append(design_note(planned.design))
        rows, byes = planned.rows, planned_byes[0]
    else:
        rows, byes = row
    notes += [say.schedule_bye(p) for p in byes]
    seating = seating_of(request, METHOD, rows, list(byes), notes, None, total)
    if made is None:
        return seating
    return Seating(seating.method, seating.tables, seating.byes, seating.notes, schedule=made)


def _stored_row(
    schedule: Mapping[str, Any] | None, ids: list[PlayerId], number: int, sizes: list[int]
) -> tuple[list[list[list[PlayerId]]], list[PlayerId]] | None:
    """Rows ``number`` to the last of the stored schedule, and row ``number``'s byes, if
    it is a schedule for this field.

    >>> rows = [[[[1, 2], [3, 4]], []], [[[1, 3], [2, 4]], []]]
    >>> schedule = {"players": [1, 2, 3, 4], "first": 1, "rounds": rows}
    >>> _stored_row(schedule, [1, 2, 3, 4], 2, [2, 2])
    ([[[1, 3], [2, 4]]], [])
    >>> _stored_row(schedule, [1, 2, 3], 2, [3]) is None
    True
    """
    if not isinstance(schedule, Mapping) or schedule.get("players") != ids:
        return None
    first, rounds = schedule.get("first"), schedule.get("rounds")
    if (
        not isinstance(first, int)
        or not isinstance(rounds, list)
        or not first <= number < first + len(rounds)
    ):
        return None
    tables, byes = rounds[number - first]
    if (
        sorted(len(t) for t in tables) != sorted(sizes)
        or sorted([*byes, *(p for t in tables for p in t)]) != ids
    ):
        return None
    return [[list(t) for t in r[0]] for r in rounds[number - first :]], list(byes)
