"""The one place that converts rows to engine events and back, loads states and
appends events.

Global order (``GameEvent.position``)
-------------------------------------
Projections read events in ``position`` order and checkpoint on the last position
they saw, so a position must never become visible after a higher one: the
PostgreSQL sequence pitfall (T1 takes 10, T2 takes 11 and commits first, a reader
checkpoints at 11 and never sees 10). We use the method of pyeventsourcing's
PostgreSQL recorder: every appending transaction takes one transaction-scoped lock
(``pg_advisory_xact_lock``) *right before* it reads the highest position and inserts,
and holds it until it commits or rolls back. Positions are therefore assigned and
committed strictly one transaction after another, contiguously (a rollback gives its
positions back), while readers are never blocked. Everything else a write does
(locking its game row, replaying, deciding, updating the game and the outbox) happens
before the lock, so the serialised part is two short statements and the commit.
SQLite serialises writers itself (``transaction_mode`` IMMEDIATE takes the write lock
at BEGIN), so there the highest position is read without an extra lock.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Max

import engine
from engine import Event, GameState
from games.models import Game, GameEvent

# Any constant shared by every writer of games_gameevent ("KR" "EV" in ASCII).
APPEND_LOCK_KEY = 0x4B52_4556
STATE_CACHE_SIZE = 512
TOP_POSITION_SQL = "SELECT COALESCE(MAX(position), 0) FROM games_gameevent"


class CorruptStream(RuntimeError):
    """The stored log does not replay to the game's version (verify_games reports it)."""


def to_engine(rows: Iterable[GameEvent]) -> list[Event]:
    return [engine.event_from_dict(row.stored_form()) for row in rows]


def fold(state: GameState | None, events: Iterable[Event]) -> GameState | None:
    for event in events:
        state = engine.apply(state, event)
    return state


class StateCache:
    """The latest state of recently used games, per process, keyed by the stream's uid
    and checked against the game's version. Disposable: a miss replays the log, a
    stale entry catches up by applying only the newer events. Only committed states
    go in (services put new states here from ``transaction.on_commit``)."""

    def __init__(self, size: int = STATE_CACHE_SIZE) -> None:
        self._size = size
        self._states: OrderedDict[uuid.UUID, GameState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, uid: uuid.UUID) -> GameState | None:
        with self._lock:
            state = self._states.get(uid)
            if state is not None:
                self._states.move_to_end(uid)
            return state

    def put(self, uid: uuid.UUID, state: GameState) -> None:
        with self._lock:
            current = self._states.get(uid)
            if current is not None and current.version > state.version:
                return
            self._states[uid] = state
            self._states.move_to_end(uid)
            while len(self._states) > self._size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


state_cache = StateCache()


def load_state(game: Game, *, use_cache: bool = True) -> GameState:
    """The state of ``game`` at ``game.version``: the cached state caught up with the
    events after it, or a full replay."""
    base = state_cache.get(game.uid) if use_cache else None
    if base is not None and base.version > game.version:
        base = None
    if base is not None and base.version == game.version:
        return base
    after = base.version if base is not None else 0
    rows = GameEvent.objects.filter(game_id=game.pk, seq__gt=after).order_by("seq")
    state = fold(base, to_engine(rows))
    if state is None or state.version != game.version:
        found = state.version if state is not None else 0
        raise CorruptStream(f"game {game.pk}: the log replays to version {found}, not {game.version}")
    if use_cache:
        state_cache.put(game.uid, state)
    return state


def state_at(game: Game, version: int) -> GameState | None:
    """The state after the first ``version`` events (None before the first)."""
    if version <= 0:
        return None
    rows = GameEvent.objects.filter(game_id=game.pk, seq__lte=version).order_by("seq")
    return fold(None, to_engine(rows))


def new_rows(
    game: Game,
    items: Sequence[tuple[Event, Any, str]],
    *,
    command_key: str,
    command_digest: str,
    first_seq: int,
) -> list[GameEvent]:
    """Unsaved rows for ``items`` (event, actor, source), numbered from ``first_seq``."""
    rows = []
    for n, (event, actor, source) in enumerate(items, start=1):
        stored = engine.event_to_dict(event)
        rows.append(
            GameEvent(
                game=game,
                seq=first_seq + n - 1,
                type=stored["type"],
                schema_version=stored["schema_version"],
                data=stored["data"],
                actor=actor,
                source=source,
                idempotency_key=command_key if n == 1 else f"{command_key}#{n}",
                command_key=command_key,
                command_digest=command_digest,
            )
        )
    return rows


def insert_events(rows: list[GameEvent]) -> list[GameEvent]:
    """Give ``rows`` the next global positions and insert them. Must run inside the
    write's transaction, as its last statement before commit (see module docstring)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # One round trip, two statements: in READ COMMITTED the second takes its
            # snapshot once the lock is held, so it sees the previous holder's commit.
            cursor.execute(f"SELECT pg_advisory_xact_lock(%s); {TOP_POSITION_SQL}", [APPEND_LOCK_KEY])
            cursor.nextset()
            highest = cursor.fetchone()[0]
    else:
        highest = GameEvent.objects.aggregate(top=Max("position"))["top"] or 0
    for offset, row in enumerate(rows, start=1):
        row.position = highest + offset
    return GameEvent.objects.bulk_create(rows)
