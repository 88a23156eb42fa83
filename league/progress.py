"""A round's progress for the desk: "3 of 4 tables done", which tables are still playing
and for how long.

Read from stored rows, never by replaying a game: each table's game ``status`` (the
store keeps it on the game's row with every append) and, per game, the time of its first
entry and its latest one (one aggregate over the events). A table has been playing since
its first entry by a person or a bot — publishing a round writes the game's opening
events as the system, and a table where nobody has entered anything yet has not started.
Two queries for the whole round."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max, Min
from django.utils import timezone

from games.models import GameEvent, Source
from games.services import FINAL_STATUSES
from league.models import Round


@dataclass(frozen=True, slots=True)
class TableProgress:
    table_id: int
    number: int
    done: bool  # its game finished (or was abandoned)
    started_at: datetime | None  # its first entry; None: nothing entered yet
    last_entry_at: datetime | None
    now: datetime

    @property
    def minutes(self) -> int | None:
        """Whole minutes it has been playing (done: how long it played); None before its
        first entry."""
        if self.started_at is None:
            return None
        until = self.last_entry_at if self.done and self.last_entry_at is not None else self.now
        return max(0, int((until - self.started_at).total_seconds() // 60))

    @property
    def idle_minutes(self) -> int | None:
        """Whole minutes since its latest entry (None before the first)."""
        if self.last_entry_at is None or self.started_at is None:
            return None
        return max(0, int((self.now - self.last_entry_at).total_seconds() // 60))


@dataclass(frozen=True, slots=True)
class RoundProgress:
    tables: tuple[TableProgress, ...]

    @property
    def total(self) -> int:
        return len(self.tables)

    @property
    def done(self) -> int:
        return sum(1 for table in self.tables if table.done)

    @property
    def playing(self) -> tuple[TableProgress, ...]:
        """The tables still playing, the longest-running first (those not started last)."""
        going = [table for table in self.tables if not table.done]
        return tuple(sorted(going, key=lambda t: (t.started_at is None, t.started_at or t.now, t.number)))


def round_progress(round_: Round, now: datetime | None = None) -> RoundProgress:
    """The round's tables, done or playing, with their times. Two queries."""
    now = now or timezone.now()
    tables = list(round_.tables.order_by("number").values_list("pk", "number", "game_id", "game__status"))
    games = [game for _, _, game, _ in tables if game is not None]
    times = {
        row["game_id"]: (row["first"], row["last"])
        for row in GameEvent.objects.filter(game_id__in=games)
        .exclude(source=Source.SYSTEM)
        .values("game_id")
        .annotate(first=Min("recorded_at"), last=Max("recorded_at"))
    }
    return RoundProgress(
        tuple(
            TableProgress(
                table_id=pk,
                number=number,
                done=status in FINAL_STATUSES,
                started_at=times.get(game, (None, None))[0],
                last_entry_at=times.get(game, (None, None))[1],
                now=now,
            )
            for pk, number, game, status in tables
        )
    )


__all__ = ["RoundProgress", "TableProgress", "round_progress"]
