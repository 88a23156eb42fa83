"""Rows to engine events and back: the one place that knows how an event is stored."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from django.utils import timezone

import engine
from engine import Event
from games.models import COMMAND_KEY_SEPARATOR, Game, GameEvent


class StoredEvent(NamedTuple):
    """An event as replay needs it: its ``seq`` and stored form (read without the
    columns replay does not use)."""

    seq: int
    form: dict[str, Any]


def to_engine(rows: Iterable[GameEvent]) -> list[Event]:
    return [engine.event_from_dict(row.stored_form()) for row in rows]


def stored_to_engine(stored: Iterable[StoredEvent]) -> list[Event]:
    return [engine.event_from_dict(event.form) for event in stored]


def new_rows(
    game: Game,
    items: Sequence[tuple[Event, Any, str]],
    *,
    command_key: str,
    command_digest: str,
    first_seq: int,
) -> list[GameEvent]:
    """Unsaved rows for ``items`` (event, actor or None, source), numbered from
    ``first_seq``. The first row carries the command's idempotency key, the n-th
    ``key#n`` (see :class:`games.models.GameEvent`)."""
    if COMMAND_KEY_SEPARATOR in command_key:
        raise ValueError(f"an idempotency key holds no {COMMAND_KEY_SEPARATOR!r}: {command_key!r}")
    rows = []
    now = timezone.now()
    for n, (event, actor, source) in enumerate(items, start=1):
        stored = engine.event_to_dict(event)
        rows.append(
            GameEvent(
                game=game,
                seq=first_seq + n - 1,
                type=stored["type"],
                schema_version=stored["schema_version"],
                data=stored["data"],
                # an anonymous user (no pk) acts as nobody in particular
                actor=actor if actor is not None and actor.pk is not None else None,
                source=source,
                idempotency_key=command_key if n == 1 else f"{command_key}{COMMAND_KEY_SEPARATOR}{n}",
                command_digest=command_digest,
                recorded_at=now,
            )
        )
    return rows
