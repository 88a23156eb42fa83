"""Regenerating a round: its seating computed again from the stored request, compared
with what was generated (``manage.py regenerate_round --check``). Notes compare by code
and parameters (:func:`league.wording.same_notes`), never by their words."""

from __future__ import annotations

from dataclasses import dataclass

from league.models import Round
from league.seating import Request, Seating, SeatingError, input_digest, make_seating
from league.services.checks import _seating_error
from league.wording import english, same_notes


@dataclass(frozen=True)
class RegenerateResult:
    same: bool
    differences: list[str]
    seating: Seating


def regenerate(round_: Round) -> RegenerateResult:
    """Compute the round's seating again from its stored request and compare it with what
    was generated and with the stored input digest."""
    request = Request.from_dict(round_.request)
    differences = []
    digest = input_digest(request, round_.method)
    if digest != round_.input_digest:
        differences.append(f"input digest {digest} != stored {round_.input_digest}")
    try:
        seating = make_seating(round_.method, request)
    except SeatingError as exc:
        raise _seating_error(exc) from None
    again = seating.to_dict()
    stored = dict(round_.generated)
    for key in sorted(set(again) | set(stored)):
        if key in ("notes", "tables") and key in stored:
            continue
        if again.get(key) != stored.get(key):
            differences.append(f"{key}: regenerated {again.get(key)!r} != stored {stored.get(key)!r}")
    if "notes" in stored and "tables" in stored:
        differences += _seating_differences(seating, Seating.from_dict(stored), request)
    return RegenerateResult(not differences, differences, seating)


def _seating_differences(again: Seating, stored: Seating, request: Request) -> list[str]:
    names = {entrant.id: entrant.name for entrant in request.players}
    out = []
    if [t.seats for t in again.tables] != [t.seats for t in stored.tables]:
        out.append(
            f"tables: regenerated {[list(t.seats) for t in again.tables]!r} "
            f"!= stored {[list(t.seats) for t in stored.tables]!r}"
        )
    else:
        out += [
            f"tables[{t}].notes: regenerated {english(a.notes, names)!r} "
            f"!= stored {english(s.notes, names)!r}"
            for t, (a, s) in enumerate(zip(again.tables, stored.tables, strict=True))
            if not same_notes(s.notes, a.notes, names)
        ]
    if not same_notes(stored.notes, again.notes, names):
        out.append(
            f"notes: regenerated {english(again.notes, names)!r} != stored {english(stored.notes, names)!r}"
        )
    return out
