"""The round clock: a director starts it for the tournament's round length, every screen
counts down to the same moment.

What is left is never stored nor counted on a device: it is computed from the server's
``started_at`` and the length (:class:`Clock`), so a phone, the projector and the desk
agree whatever their own clocks say. A page hands the seconds left (as of its rendering)
to the browser, which counts down from there until the next poll brings a fresh figure.

Writes (:func:`start_round_clock`, :func:`stop_round_clock`, :func:`set_round_minutes`)
lock the tournament's row, then the round's (:mod:`league.locks`), so two directors
pressing at once start one clock; refusals are :class:`~league.services.LeagueError`
with a stable code, and nothing is written then. A start or a stop touches the
tournament's ``updated_at``, which the live pages' ETag reads
(:func:`web.public_reads.live_marker`): their next poll fetches the new clock, and an
unchanged poll still costs one query. Reads: :func:`round_clock`, :func:`tournament_clock`
and :func:`tournament_clocks` (several tournaments in one query: a player's seats),
:func:`game_clock` (the record page's).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from league import limits
from league.locks import round_for_update, tournament_for_update
from league.models import Round, RoundClock, Tournament
from league.services import LeagueError

RUNNING, STOPPED, OVER = "running", "stopped", "over"


@dataclass(frozen=True, slots=True)
class Clock:
    """A round's clock as of ``now``: ``state`` is running, over (time is up, still
    counting past zero) or stopped; ``remaining`` is whole seconds, negative once over."""

    round_number: int
    minutes: int
    started_at: datetime
    ends_at: datetime
    stopped_at: datetime | None
    now: datetime

    @property
    def state(self) -> str:
        if self.stopped_at is not None:
            return STOPPED
        return RUNNING if self.now < self.ends_at else OVER

    @property
    def remaining(self) -> int:
        """Seconds left (negative: past the end); frozen at the stop when stopped."""
        until = self.stopped_at if self.stopped_at is not None else self.now
        return int((self.ends_at - until).total_seconds() // 1)

    @property
    def remaining_text(self) -> str:
        """``"12:05"``, ``"1:02:00"``, ``"-0:40"`` past the end."""
        left = abs(self.remaining)
        hours, rest = divmod(left, 3600)
        minutes, seconds = divmod(rest, 60)
        text = f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"
        return f"-{text}" if self.remaining < 0 else text

    @property
    def ticking(self) -> bool:
        """Whether a page counts it down (running or over; a stopped clock stands still)."""
        return self.stopped_at is None


def _clock(row: RoundClock, round_number: int, now: datetime) -> Clock:
    return Clock(
        round_number=round_number,
        minutes=row.minutes,
        started_at=row.started_at,
        ends_at=row.started_at + timedelta(minutes=row.minutes),
        stopped_at=row.stopped_at,
        now=now,
    )


def round_clock(round_: Round, now: datetime | None = None) -> Clock | None:
    """The round's clock, or None if none was ever started."""
    row = RoundClock.objects.filter(round=round_).first()
    return _clock(row, round_.number, now or timezone.now()) if row is not None else None


def tournament_clock(tournament: Tournament, now: datetime | None = None) -> Clock | None:
    """The clock of the tournament's latest published (not complete) round, if it has one
    — what the public page and the projector show. One query."""
    row = (
        RoundClock.objects.filter(round__tournament=tournament, round__status=Round.Status.PUBLISHED)
        .select_related("round")
        .order_by("-round__number")
        .first()
    )
    return _clock(row, row.round.number, now or timezone.now()) if row is not None else None


def tournament_clocks(tournament_ids: Iterable[int], now: datetime | None = None) -> dict[int, Clock]:
    """:func:`tournament_clock` of several tournaments at once (a player's seats in each):
    tournament id → its clock, for those that have one. One query."""
    ids = list(tournament_ids)
    if not ids:
        return {}
    rows = (
        RoundClock.objects.filter(round__tournament_id__in=ids, round__status=Round.Status.PUBLISHED)
        .select_related("round")
        .order_by("round__number")
    )
    moment = now or timezone.now()
    return {row.round.tournament_id: _clock(row, row.round.number, moment) for row in rows}


def game_clock(game_id: int, now: datetime | None = None) -> Clock | None:
    """The clock of the published round whose table plays game ``game_id`` (the record
    page's), or None. One query."""
    row = (
        RoundClock.objects.filter(round__tables__game_id=game_id, round__status=Round.Status.PUBLISHED)
        .select_related("round")
        .first()
    )
    return _clock(row, row.round.number, now or timezone.now()) if row is not None else None


def round_minutes(value: Any) -> int:
    """A round length in minutes, within its documented range (league.limits)."""
    try:
        return limits.whole(
            value,
            "round_minutes",
            limits.ROUND_MINUTES_MIN,
            limits.ROUND_MINUTES_MAX,
            code="invalid_round_minutes",
        )
    except limits.OutOfLimits as exc:
        raise LeagueError(exc.code, exc.message) from None


def set_round_minutes(tournament: Tournament, minutes: Any, by: Any) -> Tournament:
    """The tournament's round length; a clock already started keeps its own length."""
    checked = round_minutes(minutes)
    with transaction.atomic():
        locked = tournament_for_update(tournament.pk)
        if locked.status == Tournament.Status.FINISHED:
            raise LeagueError("tournament_finished", "the tournament is finished; nothing can change", 409)
        locked.round_minutes = checked
        locked.save(update_fields=["round_minutes", "updated_at"])
    tournament.round_minutes = checked
    return locked


def start_round_clock(round_: Round, by: Any, *, minutes: Any = None) -> Clock:
    """Start the round's clock now, for ``minutes`` (the tournament's round length when
    None). Refused for a draft or complete round (``round_not_running``) and while the
    clock runs (``clock_running``: stop it first; a double press starts nothing twice).
    A stopped clock starts again from the full length."""
    with transaction.atomic():
        tournament = tournament_for_update(round_.tournament_id)
        locked = round_for_update(round_.pk)
        if tournament.status == Tournament.Status.FINISHED:
            raise LeagueError("tournament_finished", "the tournament is finished; nothing can change", 409)
        if locked.status != Round.Status.PUBLISHED:
            raise LeagueError(
                "round_not_running",
                f"round {locked.number} is {locked.status}: only a published round being played has a clock",
                409,
            )
        length = tournament.round_minutes if minutes is None else round_minutes(minutes)
        now = timezone.now()
        row = RoundClock.objects.filter(round=locked).first()
        if row is not None and row.stopped_at is None:
            raise LeagueError("clock_running", f"round {locked.number}'s clock is already running", 409)
        who = by if getattr(by, "is_authenticated", False) else None
        if row is None:
            row = RoundClock(round=locked)
        row.minutes, row.started_at, row.started_by = length, now, who
        row.stopped_at = row.stopped_by = None
        row.save()
        tournament.save(update_fields=["updated_at"])  # the live pages' next poll shows it
    return _clock(row, locked.number, now)


def stop_round_clock(round_: Round, by: Any) -> Clock:
    """Stop the round's running clock (``clock_not_running`` if it is not); what was left
    stays shown."""
    with transaction.atomic():
        tournament = tournament_for_update(round_.tournament_id)
        locked = round_for_update(round_.pk)
        row = RoundClock.objects.filter(round=locked).first()
        if row is None or row.stopped_at is not None:
            raise LeagueError("clock_not_running", f"round {locked.number}'s clock is not running", 409)
        now = timezone.now()
        row.stopped_at = now
        row.stopped_by = by if getattr(by, "is_authenticated", False) else None
        row.save(update_fields=["stopped_at", "stopped_by"])
        tournament.save(update_fields=["updated_at"])
    return _clock(row, locked.number, now)


__all__ = [
    "OVER",
    "RUNNING",
    "STOPPED",
    "Clock",
    "game_clock",
    "round_clock",
    "round_minutes",
    "set_round_minutes",
    "start_round_clock",
    "stop_round_clock",
    "tournament_clock",
    "tournament_clocks",
]
