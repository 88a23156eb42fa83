"""The input checks every league service shares: whole numbers and text under
:mod:`league.limits`, a seating method's parameters, an edit reason, and the one rule
that nothing changes once a tournament is finished. Each turns the limit's or the
seating's refusal into a :class:`LeagueError`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from league import limits
from league.errors import LeagueError
from league.limits import REASON_LENGTH
from league.models import Tournament
from league.seating import SeatingError


def _whole(value: Any, what: str, low: int, high: int) -> int:
    try:
        return limits.whole(value, what, low, high)
    except limits.OutOfLimits as exc:
        raise LeagueError(exc.code, exc.message, field=exc.field) from None


def _within(check: Callable[..., None], *args: Any, **kwargs: Any) -> None:
    """``check`` (a :mod:`league.limits` check of several settings together), its refusal
    a :class:`LeagueError`."""
    try:
        check(*args, **kwargs)
    except limits.OutOfLimits as exc:
        raise LeagueError(exc.code, exc.message, field=exc.field) from None


def _text(value: Any, what: str, limit: int = limits.TOURNAMENT_NAME_LENGTH, *, reason: bool = False) -> str:
    """A name (or, ``reason``, a reason: empty allowed, line breaks kept) under the one
    rule of league.limits.clean_text."""
    try:
        return limits.clean_text(value, what, limit, lines=reason, required=not reason)
    except limits.OutOfLimits as exc:
        raise LeagueError(exc.code, exc.message, field=exc.field) from None


def _name(value: Any, what: str = "name", limit: int = limits.TOURNAMENT_NAME_LENGTH) -> str:
    return _text(value, what, limit)


def _seating_params(value: Any) -> dict[str, int]:
    try:
        return limits.seating_params(dict(value) if isinstance(value, Mapping) else value)
    except limits.OutOfLimits as exc:
        raise LeagueError(exc.code, exc.message, field=exc.field) from None


def _open_for_changes(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise LeagueError("tournament_finished", "the tournament is finished; nothing can change", 409)


def _seating_error(exc: SeatingError) -> LeagueError:
    return LeagueError(exc.code, exc.message, field=exc.field)


def checked_edit_reason(value: Any) -> str:
    """An edit reason as publishing and editing a round take it (and the archive import)."""
    return _edit_reason(value)


def _edit_reason(value: Any) -> str:
    return _text(value, "edit_reason", REASON_LENGTH, reason=True)
