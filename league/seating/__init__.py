"""Seating: pure functions from the round's players and history to tables, in the style
of the engine (no Django; tested without a database). Each method is a module with a
``seat(request) -> Seating`` and a record in :mod:`league.seating.registry` (its label,
flags and parameters); :func:`make_seating` runs one by name and checks what it
returns."""

from __future__ import annotations

from collections.abc import Callable

from league.seating.base import (
    ALGORITHM,
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
from league.seating.registry import DEFAULT_METHOD, RECORDS, MethodRecord, Param, method_record

# name -> seat, for the callers that only run a method
METHODS: dict[str, Callable[[Request], Seating]] = {name: record.seat for name, record in RECORDS.items()}


def make_seating(method: str, request: Request) -> Seating:
    """The seating ``method`` gives for ``request``, validated."""
    record = method_record(method)
    if request.algorithm not in (1, ALGORITHM):
        raise SeatingError(
            f"seating algorithm {request.algorithm!r}: this version knows 1 and {ALGORITHM}",
            "unknown_algorithm",
        )
    record.check_params(request.params)
    seating = record.seat(request)
    validate(seating, request)
    return seating


__all__ = [
    "ALGORITHM",
    "DEFAULT_METHOD",
    "METHODS",
    "RECORDS",
    "Entrant",
    "MethodRecord",
    "Param",
    "PastRound",
    "PastTable",
    "PlayerId",
    "Request",
    "Seating",
    "SeatingError",
    "Table",
    "input_digest",
    "make_seating",
    "method_record",
    "table_sizes",
    "validate",
]
