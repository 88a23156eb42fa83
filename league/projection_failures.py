"""A projection's failure stays in its tournament (or its club's game family).

The beat's catch-ups walk every tournament and every club; one whose refresh raises —
whatever it raises — must not stop the others. :func:`isolated` runs one refresh,
and when it fails logs the error with what it was refreshing, stores its code on the
projection's row (``error_code``, ``failed_at``) and returns None; the next successful
refresh clears it. ``manage.py projections_status`` and ``/healthz`` read the codes
back (:func:`failing`); the message and traceback stay in the logs.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from league.models import RatingProjection, StandingsState

log = logging.getLogger(__name__)

T = TypeVar("T")

STANDINGS = "standings"
RATINGS = "ratings"

_CODE = re.compile(r"[a-z][a-z0-9_]{0,63}")


def error_code(exc: BaseException) -> str:
    """A short, stable code for ``exc``: its own ``code`` when it has one (the engine's,
    the league's errors), else its class name — never its message, which may hold data.

    >>> error_code(ValueError("Exceeds the limit (4300 digits)"))
    'ValueError'
    >>> from engine import IllegalMove
    >>> error_code(IllegalMove("no", "not_your_turn"))
    'not_your_turn'
    """
    code = getattr(exc, "code", None)
    if isinstance(code, str) and _CODE.fullmatch(code):
        return code
    return type(exc).__name__[:64]


@dataclass(frozen=True)
class Failure:
    """One projection whose last refresh failed: ``kind`` (standings or ratings), what
    it is of (a tournament id; a club id and a family) and the error's code."""

    kind: str
    tournament: int | None
    club: int | None
    family: str
    code: str
    at: datetime | None


def isolated(
    refresh: Callable[[], T], *, tournament: int | None = None, club: int | None = None, family: str = ""
) -> T | None:
    """``refresh()``, or None when it raises: the error is logged and recorded on the
    projection of ``tournament`` (standings) or of ``club`` and ``family`` (ratings).

    The refresh runs in its own transaction (savepoint), so its writes are rolled back
    and the connection stays usable for the next tournament."""
    try:
        with transaction.atomic():
            return refresh()
    except Exception as exc:  # whatever the fold raises, this projection alone fails
        code = error_code(exc)
        now = timezone.now()
        if tournament is not None:
            log.exception("the standings of tournament %s failed to refresh (%s)", tournament, code)
            StandingsState.objects.update_or_create(
                tournament_id=tournament, defaults={"error_code": code, "failed_at": now}
            )
        else:
            log.exception("the %s ratings of club %s failed to refresh (%s)", family, club, code)
            RatingProjection.objects.update_or_create(
                club_id=club, family=family, defaults={"error_code": code, "failed_at": now}
            )
        return None


def failing() -> list[Failure]:
    """Every projection whose last refresh failed, standings first (two queries)."""
    standings = StandingsState.objects.exclude(error_code="").order_by("tournament_id")
    ratings = RatingProjection.objects.exclude(error_code="").order_by("club_id", "family")
    return [
        *(
            Failure(STANDINGS, tournament_id, None, "", code, at)
            for tournament_id, code, at in standings.values_list("tournament_id", "error_code", "failed_at")
        ),
        *(
            Failure(RATINGS, None, club_id, family, code, at)
            for club_id, family, code, at in ratings.values_list(
                "club_id", "family", "error_code", "failed_at"
            )
        ),
    ]


def health_report(request: HttpRequest) -> dict[str, Any]:
    """``/healthz``'s ``projections``: how many are failing; to staff, which and why."""
    failures = failing()
    report: dict[str, Any] = {"failing": len(failures)}
    if getattr(request.user, "is_staff", False):
        report["projections"] = [
            {"kind": f.kind, "tournament": f.tournament, "code": f.code}
            if f.kind == STANDINGS
            else {"kind": f.kind, "club": f.club, "family": f.family, "code": f.code}
            for f in failures
        ]
    return report
