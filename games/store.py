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
(locking its game row, replaying, deciding, writing the outbox) happens before the
lock, so the serialised part is one short statement and the commit.

On PostgreSQL the end of a write is one round trip (:func:`write_game_and_events`),
three statements sent together: ``UPDATE`` the game row; ``SELECT
pg_advisory_xact_lock(k)``; ``INSERT ... SELECT`` the events with positions
``highest + 1, highest + 2, ...`` where ``highest`` is ``MAX(position)`` read *inside
the INSERT*. PostgreSQL runs the statements of one query string one after another and,
in READ COMMITTED, gives each statement its own snapshot when it starts. The INSERT
starts only once the lock statement has returned, so its snapshot includes the commit
of the previous lock holder (a transaction's commit is visible before its locks are
released): ``highest`` is the true highest committed position, and no other writer can
read it until this transaction ends. If any statement fails the rest do not run and
the transaction rolls back, positions included. The game row was locked ``FOR
UPDATE`` at the start of the write (:func:`lock_game`), so the UPDATE does not wait.

SQLite serialises writers itself (``transaction_mode`` IMMEDIATE takes the write lock
at BEGIN), so there the highest position is read without an extra lock, with the ORM.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Exists, Max, OuterRef
from django.utils import timezone

import engine
from engine import Event, GameState
from games.models import Game, GameEvent

# Any constant shared by every writer of games_gameevent ("KR" "EV" in ASCII).
APPEND_LOCK_KEY = 0x4B52_4556
STATE_CACHE_SIZE = 512

# The columns of the game row a write needs (the rest stay deferred), in model order.
GAME_FIELDS = ("id", "uid", "mode", "seats", "owner_id", "version", "status")
EVENT_FIELDS = tuple(f.attname for f in GameEvent._meta.concrete_fields)
# After FOR UPDATE returns, the next two statements take their snapshots: they see every
# write committed before this transaction got the row (the idempotency key of a retry
# racing this one, and the events up to the locked row's version).
LOCK_GAME_SQL = (
    f"SELECT {', '.join(GAME_FIELDS)} FROM games_game WHERE id = %s FOR UPDATE; "
    "SELECT EXISTS (SELECT 1 FROM games_gameevent WHERE game_id = %s AND idempotency_key = %s); "
    "SELECT seq, type, schema_version, data FROM games_gameevent WHERE game_id = %s AND seq > %s ORDER BY seq"
)
_INSERTED_FIELDS = tuple(name for name in EVENT_FIELDS if name not in ("id", "position"))
# The rows travel as one JSON document (one parameter, parsed by PostgreSQL) rather
# than a dozen bound parameters per event: less work on both sides of the wire.
_EVENT_TYPES = {
    "game_id": "bigint",
    "seq": "integer",
    "type": "varchar",
    "schema_version": "smallint",
    "data": "jsonb",
    "actor_id": "bigint",
    "source": "varchar",
    "idempotency_key": "varchar",
    "command_key": "varchar",
    "command_digest": "varchar",
    "recorded_at": "timestamptz",
}
_APPEND_SQL = (
    "SELECT pg_advisory_xact_lock(%s); "
    f"INSERT INTO games_gameevent ({', '.join(_INSERTED_FIELDS)}, position) "
    f"SELECT {', '.join('v.' + name for name in _INSERTED_FIELDS)}, top.highest + v.ord "
    "FROM jsonb_to_recordset(%s::jsonb) AS v(ord integer, "
    + ", ".join(f"{name} {_EVENT_TYPES[name]}" for name in _INSERTED_FIELDS)
    + ") CROSS JOIN (SELECT COALESCE(MAX(position), 0) AS highest FROM games_gameevent) AS top "
    "RETURNING seq, id, position"
)


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
        # game id -> uid of the cached stream, so a write can ask for the events after
        # the cached version before it has read the game row (ids can be reused).
        self._uids: dict[int, uuid.UUID] = {}
        self._lock = threading.Lock()

    def get(self, uid: uuid.UUID) -> GameState | None:
        with self._lock:
            state = self._states.get(uid)
            if state is not None:
                self._states.move_to_end(uid)
            return state

    def version_of(self, game_id: int) -> int:
        """The version of the cached state of game ``game_id`` (0 when none)."""
        with self._lock:
            uid = self._uids.get(game_id)
            state = self._states.get(uid) if uid is not None else None
            return state.version if state is not None else 0

    def put(self, uid: uuid.UUID, state: GameState, game_id: int | None = None) -> None:
        with self._lock:
            current = self._states.get(uid)
            if current is not None and current.version > state.version:
                return
            self._states[uid] = state
            self._states.move_to_end(uid)
            if game_id is not None:
                self._uids[game_id] = uid
            while len(self._states) > self._size:
                self._states.popitem(last=False)
            if len(self._uids) > 2 * self._size:
                live = set(self._states)
                self._uids = {k: v for k, v in self._uids.items() if v in live}

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._uids.clear()


state_cache = StateCache()


def load_state(game: Game, *, use_cache: bool = True, tail: Sequence[StoredEvent] | None = None) -> GameState:
    """The state of ``game`` at ``game.version``: the cached state caught up with the
    events after it, or a full replay. ``tail``, when given, holds the game's events
    after some version (read with the game row, see :func:`lock_game`); it is used when
    it starts right after the cached state, which saves a query."""
    base = state_cache.get(game.uid) if use_cache else None
    if base is not None and base.version > game.version:
        base = None
    if base is not None and base.version == game.version:
        return base
    after = base.version if base is not None else 0
    if tail is not None and (tail[0].seq if tail else game.version + 1) == after + 1:
        events = [engine.event_from_dict(stored.form) for stored in tail]
    else:
        events = to_engine(GameEvent.objects.filter(game_id=game.pk, seq__gt=after).order_by("seq"))
    state = fold(base, events)
    if state is None or state.version != game.version:
        found = state.version if state is not None else 0
        raise CorruptStream(f"game {game.pk}: the log replays to version {found}, not {game.version}")
    if use_cache:
        state_cache.put(game.uid, state, game.pk)
    return state


def state_at(game: Game, version: int) -> GameState | None:
    """The state after the first ``version`` events (None before the first)."""
    if version <= 0:
        return None
    rows = GameEvent.objects.filter(game_id=game.pk, seq__lte=version).order_by("seq")
    return fold(None, to_engine(rows))


class StoredEvent(NamedTuple):
    """An event as replay needs it: its ``seq`` and stored form (what a write reads
    with the row lock, without the columns replay does not use)."""

    seq: int
    form: dict[str, Any]


def lock_game(game_id: int, key: str) -> tuple[Game | None, bool, list[StoredEvent] | None]:
    """Lock the row of game ``game_id`` for the rest of the transaction and read what a
    write needs: the game (its ruleset and snapshot deferred), whether its log already
    holds the idempotency key ``key``, and, on PostgreSQL, the events after the version
    this process has cached (all of them if none) — one round trip there. None when
    there is no such game."""
    if connection.vendor != "postgresql":
        key_used = Exists(GameEvent.objects.filter(game=OuterRef("pk"), idempotency_key=key))
        game = (
            Game.objects.select_for_update()
            .only(*(name for name in GAME_FIELDS if name != "owner_id"), "owner")
            .annotate(key_used=key_used)
            .filter(pk=game_id)
            .first()
        )
        return (game, bool(game.key_used), None) if game is not None else (None, False, None)
    after = state_cache.version_of(game_id)
    with connection.cursor() as cursor:
        cursor.execute(LOCK_GAME_SQL, [game_id, game_id, key, game_id, after])
        found = cursor.fetchone()
        cursor.nextset()
        key_used = bool(cursor.fetchone()[0])
        cursor.nextset()
        tail = cursor.fetchall()
    if found is None:
        return None, False, None
    values = list(found)
    values[3] = json.loads(values[3])  # seats
    game = Game.from_db(connection.alias, GAME_FIELDS, values)
    loads = json.loads
    stored = [
        StoredEvent(seq, {"type": kind, "schema_version": version, "data": loads(data)})
        for seq, kind, version, data in tail
    ]
    return game, key_used, stored


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
                actor=actor,
                source=source,
                idempotency_key=command_key if n == 1 else f"{command_key}#{n}",
                command_key=command_key,
                command_digest=command_digest,
                recorded_at=now,
            )
        )
    return rows


def write_game_and_events(game: Game, rows: list[GameEvent], *, fields: Sequence[str]) -> list[GameEvent]:
    """Save ``fields`` of the (locked) game row, then give ``rows`` the next global
    positions and insert them. Must run inside the write's transaction, as its last
    statements before commit (see the module docstring)."""
    game.updated_at = timezone.now()
    fields = [*fields, "updated_at"]
    if connection.vendor != "postgresql":
        game.save(update_fields=fields)
        return _insert_events_sqlite(rows)
    quote = connection.ops.quote_name
    updates = ", ".join(f"{quote(Game._meta.get_field(name).column)} = %s" for name in fields)
    params: list[Any] = [_game_value(game, name) for name in fields]
    document = [
        {"ord": ordinal, **{name: getattr(row, name) for name in _INSERTED_FIELDS}}
        for ordinal, row in enumerate(rows, start=1)
    ]
    params += [game.pk, APPEND_LOCK_KEY, json.dumps(document, default=_isoformat)]
    sql = f"UPDATE games_game SET {updates} WHERE id = %s; " + _APPEND_SQL
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        cursor.nextset()  # the lock
        cursor.nextset()
        inserted = {seq: (pk, position) for seq, pk, position in cursor.fetchall()}
    return _saved(rows, inserted)


def _insert_events_sqlite(rows: list[GameEvent]) -> list[GameEvent]:
    """SQLite: the transaction holds the database's write lock since BEGIN (IMMEDIATE)."""
    highest = GameEvent.objects.aggregate(top=Max("position"))["top"] or 0
    for offset, row in enumerate(rows, start=1):
        row.position = highest + offset
    return GameEvent.objects.bulk_create(rows)


def _game_value(game: Game, name: str) -> Any:
    value = getattr(game, name)
    return json.dumps(value) if name in ("seats", "snapshot") else value


def _isoformat(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot store {value!r} in an event row")


def _saved(rows: list[GameEvent], inserted: dict[int, tuple[int, int]]) -> list[GameEvent]:
    if len(inserted) != len(rows):
        raise CorruptStream(f"{len(rows)} events to append, {len(inserted)} inserted")
    for row in rows:
        row.pk, row.position = inserted[row.seq]
        row._state.adding = False
        row._state.db = connection.alias
    return rows
