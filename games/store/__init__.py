"""The event store: rows to engine events and back (:mod:`~games.store.mapping`), states
from the log (:mod:`~games.store.replay`) through the per-process cache
(:mod:`~games.store.cache`), and the two write paths (recorders: PostgreSQL's in
:mod:`~games.store.postgres`, SQLite's in :mod:`~games.store.sqlite`). This module picks
the recorder for the connection and is what the rest of the project imports.

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
(reading, replaying, deciding, updating its game row, writing the outbox) happens
before the lock, so the serialised part is one short statement and the commit.

Writes are optimistic (:mod:`games.services`): the game row and what the write needs of
its log are read without a lock (:func:`read_game_for_write`: one statement on
PostgreSQL), and the write itself is one round trip on PostgreSQL
(:func:`write_game_and_events`): one call of the function ``games_append`` (migration
0003, replaced by 0005; as Marten appends through ``mt_append_event``), whose statements
run in this order: ``UPDATE`` the game row ``WHERE version =`` the version read (this
also locks the row; if no row matches, nothing else happens); the outbox rows, if any;
``pg_advisory_xact_lock(k)``; ``INSERT ... SELECT`` the events with positions
``highest + 1, highest + 2, ...`` where ``highest`` is ``MAX(position)`` read *inside
the INSERT*. Outside a transaction the call is its own transaction and commits when it
returns; inside the caller's transaction it is one more statement of it. The function
is VOLATILE, so in READ COMMITTED each of its statements takes a fresh snapshot when it
starts. The INSERT starts only once the lock has been granted, so its snapshot includes
the commit of the previous lock holder (a transaction's commit is visible before its
locks are released): ``highest`` is the true highest committed position, and no other
writer can read it until this transaction ends. If any statement fails the transaction
rolls back, positions included.

A write that lost a race cannot slip through: if another write moved the game on
after it was read, the UPDATE (which waits for that writer's row lock, then re-checks
the version) matches no row, the function returns ``updated`` false having written
nothing, and the caller gets :class:`WriteConflict`. The unique ``(game, seq)`` and
``(game, idempotency_key)`` stay as the database's own guarantee: with the row at the
version read they cannot trip unless the log runs ahead of its row
(:class:`CorruptStream`).

SQLite serialises writers itself (``transaction_mode`` IMMEDIATE takes the write lock
at BEGIN), so there the highest position is read without an extra lock, with the ORM.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection
from django.utils import timezone

from games.models import Game, GameEvent
from games.store.base import GAME_CHANGES, LogRead, Message, Recorder
from games.store.cache import StateCache, state_cache
from games.store.errors import CorruptStream, WriteConflict
from games.store.mapping import StoredEvent, new_rows, to_engine
from games.store.postgres import PostgresRecorder
from games.store.replay import fold, fold_steps, load_state, state_at
from games.store.sqlite import SQLiteRecorder

__all__ = [
    "GAME_CHANGES",
    "CorruptStream",
    "LogRead",
    "PostgresRecorder",
    "Recorder",
    "SQLiteRecorder",
    "StateCache",
    "StoredEvent",
    "WriteConflict",
    "fold",
    "fold_steps",
    "load_state",
    "new_rows",
    "read_game",
    "read_game_for_write",
    "read_log",
    "recorder",
    "state_at",
    "state_cache",
    "to_engine",
    "write_game_and_events",
]

_POSTGRES_RECORDER, _SQLITE_RECORDER = PostgresRecorder(), SQLiteRecorder()


def recorder() -> Recorder:
    """The write path for the default connection's database."""
    return _POSTGRES_RECORDER if connection.vendor == "postgresql" else _SQLITE_RECORDER


def _is_id(game_id: int) -> bool:
    """Whether a row could have ``game_id`` (SQLite cannot even compare a larger number)."""
    return -(2**63) <= game_id < 2**63


def read_game(game_id: int) -> Game | None:
    """The game row ``game_id`` (``snapshot`` deferred), or None. Every request about a
    game starts here, so the statement is written once instead of being compiled from a
    queryset on every call (docs/performance.md); on PostgreSQL it is prepared like any
    other hot statement."""
    return recorder().read_game(game_id) if _is_id(game_id) else None


def read_game_for_write(game_id: int, key: str | None) -> tuple[Game, LogRead] | None:
    """The game row ``game_id`` as :func:`read_game` (None if there is none) and, read
    with it, what a write on it needs of its log: whether the idempotency key ``key`` was
    used (None: a fresh key, nothing to ask) and, on PostgreSQL, the events after the
    state this process has cached — one statement, whose snapshot makes the log the
    row's. Nothing is locked: the write checks that the game is still at this version
    when it appends (:func:`write_game_and_events`)."""
    if not _is_id(game_id):
        return None
    return recorder().read_for_write(game_id, key, after=state_cache.version_of(game_id))


def read_log(game: Game, key: str) -> LogRead:
    """What a write on ``game`` (as read) needs besides the row, for a caller that read
    the row alone: as :func:`read_game_for_write`, in a statement of its own."""
    cached = state_cache.get(game)
    return recorder().read_log(game, key, after=cached.version if cached is not None else 0)


def write_game_and_events(
    game: Game,
    changes: Mapping[str, Any],
    rows: list[GameEvent],
    *,
    messages: Sequence[Message] = (),
) -> tuple[list[GameEvent], list[int]]:
    """Apply ``changes`` (field: value) to the game's row, append ``rows`` with the next
    global positions, and write ``messages`` (topic, payload) to the outbox — all in
    one transaction, and only if the game is still at ``game.version``; otherwise
    raise :class:`WriteConflict`, having written nothing. Returns the saved rows and
    the ids of the outbox rows."""
    unknown = set(changes) - GAME_CHANGES
    if unknown:
        raise ValueError(f"a write cannot change {sorted(unknown)} of a game row")
    return recorder().append(game, {**changes, "updated_at": timezone.now()}, rows, messages)
