"""Regenerating a round: its seating computed again from the stored request, compared
with what was generated (``manage.py regenerate_round --check``)."""

from __future__ import annotations

from dataclasses import dataclass

from league.models import Round
from league.seating import Request, Seating, SeatingError, input_digest, make_seating
from league.services.checks import _seating_error


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
        if again.get(key) != stored.get(key):
            differences.append(f"{key}: regenerated {again.get(key)!r} != stored {stored.get(key)!r}")
    return RegenerateResult(not differences, differences, seating)
