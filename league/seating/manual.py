"""Manual seating: the director's tables (``params["tables"]``, lists of player ids
in seat order) and byes (``params["byes"]``), checked like any method's result."""

from __future__ import annotations

from typing import Any

from league.seating import notes as say
from league.seating.base import PlayerId, Request, Seating, SeatingError, Table, validate

METHOD = "manual"


def seat(request: Request) -> Seating:
    tables = [_ids(table, "a table") for table in _list(request.params.get("tables"), "tables")]
    byes = _ids(request.params.get("byes", []), "byes")
    seating = Seating(
        METHOD,
        tuple(Table(tuple(table), (say.deals_first(table[0]),) if table else ()) for table in tables),
        tuple(byes),
        (say.seated_by_director(), *(say.director_bye(p) for p in byes)),
    )
    validate(seating, request)
    return seating


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise SeatingError(f"{what}: need a list, got {value!r}", "invalid_manual_seating")
    return list(value)


def _ids(value: Any, what: str) -> list[PlayerId]:
    ids = _list(value, what)
    if any(not isinstance(p, int) or isinstance(p, bool) for p in ids):
        raise SeatingError(f"{what}: need player ids, got {value!r}", "invalid_manual_seating")
    return ids
