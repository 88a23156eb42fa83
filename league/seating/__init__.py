"""Seating: pure functions from the round's players and history to tables, in the style
of the engine (no Django; tested without a database). Each method is a module with a
``seat(request) -> Seating``; :func:`make_seating` runs one by name and checks what it
returns."""

from __future__ import annotations

from collections.abc import Callable

from league.seating import balanced, knockout, manual, round_robin, swiss
from league.seating.base import (
    Entrant,
    PastRound,
    PastTable,
    PlayerId,
    Request,
    Seating,
    SeatingError,
    Table,
    input_digest,
    table_sizes,
    validate,
)

METHODS: dict[str, Callable[[Request], Seating]] = {
    balanced.METHOD: balanced.seat,
    knockout.METHOD: knockout.seat,
    manual.METHOD: manual.seat,
    round_robin.METHOD: round_robin.seat,
    swiss.METHOD: swiss.seat,
}


def make_seating(method: str, request: Request) -> Seating:
    """The seating ``method`` gives for ``request``, validated."""
    try:
        seat = METHODS[method]
    except KeyError:
        known = ", ".join(sorted(METHODS))
        raise SeatingError(f"unknown seating method {method!r} (known: {known})", "unknown_method") from None
    seating = seat(request)
    validate(seating, request)
    return seating


__all__ = [
    "METHODS",
    "Entrant",
    "PastRound",
    "PastTable",
    "PlayerId",
    "Request",
    "Seating",
    "SeatingError",
    "Table",
    "input_digest",
    "make_seating",
    "table_sizes",
    "validate",
]
