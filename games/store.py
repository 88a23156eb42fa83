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
(reading, replaying, deciding, updating its game row, writing the outbox) happens
before the lock, so the serialised part is one short statement and the commit.

Writes are optimistic (:mod:`games.services`): :func:`read_game` reads without a lock,
and the write itself is one round trip on PostgreSQL (:func:`write_game_and_events`):
one call of the function ``games_append`` (migration 0003, as Marten appends through
``mt_append_event``), whose statements run in this order: ``UPDATE`` the game row
``WHERE version =`` the version read (this also locks the row; if no row matches,
nothing else happens); the outbox rows, if any; ``pg_advisory_xact_lock(k)``; ``INSERT
... SELECT`` the events with positions ``highest + 1, highest + 2, ...`` where
``highest`` is ``MAX(position)`` read *inside the INSERT*. Outside a transaction the
call is its own transaction and commits when it returns; inside the caller's
transaction it is one more statement of it. The function is VOLATILE, so in READ COMMITTED
each of its statements takes a fresh snapshot when it starts. The INSERT starts only
once the lock has been granted, so its snapshot includes the commit of the previous
lock holder (a transaction's commit is visible before its locks are released):
``highest`` is the true highest committed position, and no other writer can read it
until this transaction ends. If any statement fails the transaction rolls back,
positions included. PL/pgSQL plans the statements once per connection, and the call
itself is a prepared statement (``config.postgresql``).

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

import dataclasses
import functools
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import orjson
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, transaction
from django.db.models import Exists, Max, OuterRef
from django.utils import timezone

import engine
from engine import Event, GameState
from games.models import Game, GameEvent, OutboxMessage

# Any constant shared by every writer of games_gameevent ("KR" "EV" in ASCII).
APPEND_LOCK_KEY = 0x4B52_4556
STATE_CACHE_SIZE = 512

# The columns of the game row a write needs (the rest stay deferred), in model order.
GAME_FIELDS = ("id", "uid", "mode", "seats", "owner_id", "version", "status")
EVENT_FIELDS = tuple(f.attname for f in GameEvent._meta.concrete_fields)
_EVENT_GAME = GameEvent._meta.get_field("game")
_EVENT_ACTOR = GameEvent._meta.get_field("actor")
# One statement, so one snapshot: the game row, whether its log holds the idempotency
# key, and the events after the cached version up to the row's version agree.
READ_GAME_SQL = (
    f"SELECT {', '.join('g.' + name for name in GAME_FIELDS)}, "
    "EXISTS (SELECT 1 FROM games_gameevent e WHERE e.game_id = g.id AND e.idempotency_key = %s), "
    "(SELECT json_agg(json_build_array(e.seq, e.type, e.schema_version, e.data) ORDER BY e.seq)::text "
    "FROM games_gameevent e WHERE e.game_id = g.id AND e.seq > %s AND e.seq <= g.version) "
    "FROM games_game g WHERE g.id = %s"
)
_INSERTED_FIELDS = tuple(name for name in EVENT_FIELDS if name not in ("id", "position"))
# games_append (migration 0003) does the whole write on PostgreSQL; the statement calling
# it is prepared once per connection (config.postgresql). The rows travel as one JSON
# document (one parameter, parsed by PostgreSQL) rather than a dozen bound parameters
# per event: less work on both sides of the wire. The game row columns it can set:
_APPEND_CHANGES = frozenset({"version", "status", "snapshot", "seats", "updated_at"})
_APPEND_SQL = (
    "SELECT updated, event_seqs, event_ids, event_positions, outbox_ids FROM games_append("
    "%s::bigint, %s::integer, %s::integer, %s::varchar, %s::jsonb, %s::jsonb, %s::timestamptz, "
    "%s::jsonb, %s::jsonb, %s::bigint)"
)


class CorruptStream(RuntimeError):
    """The stored log does not replay to the game's version (verify_games reports it)."""


def to_engine(rows: Iterable[GameEvent]) -> list[Event]:
    return [engine.event_from_dict(row.stored_form()) for row in rows]


def fold(state: GameState | None, events: Iterable[Event]) -> GameState | None:
    for event in events:
        state = engine.apply(state, event)
    return state


def fold_steps(state: GameState | None, events: Iterable[Event]) -> list[GameState]:
    """The state after each of ``events``, starting from ``state``."""
    steps = []
    for event in events:
        state = engine.apply(state, event)
        steps.append(state)
    return steps


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
        """Keep ``state`` — without the earlier states it links to (``prior``, the history a
        retraction goes back through): a whole game's history would stay in memory, about
        0.65 KB an event. A retraction reads the history from the log instead (:func:`load_state`)."""
        if state.prior is not None:
            state = dataclasses.replace(state, prior=None)
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
    events after it, or a full replay (``use_cache=False``, or when the events to catch
    up include a retraction: only a full replay has the history it goes back through).
    ``tail``, when given, holds the game's events after some version (read with the
    game row, see :func:`read_game`); it is used when it starts right after the cached
    state, which saves a query."""
    base = state_cache.get(game.uid) if use_cache else None
    if base is not None and base.version > game.version:
        base = None
    if base is not None and base.version == game.version:
        return base
    after = base.version if base is not None else 0
    if tail is not None and (tail[0].seq if tail else game.version + 1) == after + 1:
        events = [engine.event_from_dict(stored.form) for stored in tail]
    else:
        events = _events_between(game, after)
    if base is not None and any(isinstance(event, engine.Retracted) for event in events):
        # a retraction goes back through the history, which the cache does not keep
        base, events = None, _events_between(game, 0)
    state = fold(base, events)
    if state is None or state.version != game.version:
        found = state.version if state is not None else 0
        raise CorruptStream(f"game {game.pk}: the log replays to version {found}, not {game.version}")
    if use_cache:
        state_cache.put(game.uid, state, game.pk)
    return state


def _events_between(game: Game, after: int) -> list[Event]:
    """The game's events after ``after`` up to its version: a write that commits after
    ``game`` was read is not part of this state (the caller's own write would then
    conflict)."""
    rows = GameEvent.objects.filter(game_id=game.pk, seq__gt=after, seq__lte=game.version)
    return to_engine(rows.order_by("seq"))


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


class GameRead(NamedTuple):
    """What a write reads before deciding (:func:`read_game`)."""

    game: Game | None  # None when there is no such game
    key: str  # the idempotency key looked up
    key_used: bool  # whether the game's log already holds it
    tail: list[StoredEvent] | None  # the events after the cached state (PostgreSQL only)
    also: tuple[Any, ...] | None = None  # the row of the lookup read along, if any


class Lookup(NamedTuple):
    """A one-row query to run in the same statement as the game read (the API's token
    check): ``sql`` selects at most one row with ``params``; its row comes back in
    :attr:`GameRead.also` (None when it found none, and then no game is read)."""

    sql: str
    params: Sequence[Any]


def read_game(game_id: int, key: str, *, also: Lookup | None = None) -> GameRead:
    """Read what a write needs, without locking anything: the game (its ruleset and
    snapshot deferred), whether its log already holds the idempotency key ``key``, and,
    on PostgreSQL, the events after the version this process has cached (all of them
    if none) — one statement, one round trip, which on PostgreSQL can carry ``also``
    along.

    Nothing is locked: the write checks that the game is still at this version when it
    appends (:func:`write_game_and_events`), so a decision taken on what was read here
    is never written over a newer one."""
    if connection.vendor != "postgresql":
        if also is not None:
            raise ValueError("a lookup read along needs PostgreSQL")
        key_used = Exists(GameEvent.objects.filter(game=OuterRef("pk"), idempotency_key=key))
        game = (
            Game.objects.only(*(name for name in GAME_FIELDS if name != "owner_id"), "owner")
            .annotate(key_used=key_used)
            .filter(pk=game_id)
            .first()
        )
        return GameRead(game, key, game is not None and bool(game.key_used), None)
    after = state_cache.version_of(game_id)
    if also is None:
        sql, params = READ_GAME_SQL, [key, after, game_id]
    else:
        sql, params = _read_along_sql(also.sql), [key, after, *also.params, game_id]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchone()
    extra = None
    if also is not None and found is not None:
        width = len(found) - len(GAME_FIELDS) - 2
        extra, found = tuple(found[:width]), found[width:]
    if found is None or found[0] is None:  # no game (beside the lookup's row: a null game)
        return GameRead(None, key, False, None, extra)
    values = list(found[: len(GAME_FIELDS)])
    values[3] = orjson.loads(values[3])  # seats
    game = Game.from_db(DEFAULT_DB_ALIAS, GAME_FIELDS, values)  # connection is the default alias
    key_used, tail = found[len(GAME_FIELDS)], found[len(GAME_FIELDS) + 1]
    stored = [
        StoredEvent(seq, {"type": kind, "schema_version": version, "data": data})
        for seq, kind, version, data in (orjson.loads(tail) if tail else ())
    ]
    return GameRead(game, key, bool(key_used), stored, extra)


@functools.cache
def _read_along_sql(lookup_sql: str) -> str:
    """READ_GAME_SQL with ``lookup_sql``'s row in front: the game is joined to it, so no
    row at all means the lookup found nothing."""
    select, _, rest = READ_GAME_SQL.partition(" FROM games_game g WHERE g.id = %s")
    assert select.startswith("SELECT ") and not rest
    return f"SELECT a.*, {select[len('SELECT ') :]} FROM ({lookup_sql}) a LEFT JOIN games_game g ON g.id = %s"


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
        fields = {
            "id": None,
            "game_id": game.pk,
            "seq": first_seq + n - 1,
            "position": None,
            "type": stored["type"],
            "schema_version": stored["schema_version"],
            "data": stored["data"],
            "actor_id": None if actor is None else actor.pk,
            "source": source,
            "idempotency_key": command_key if n == 1 else f"{command_key}#{n}",
            "command_key": command_key,
            "command_digest": command_digest,
            "recorded_at": now,
        }
        # Positional values: Django's quickest way to make a model instance (no keyword
        # matching, no descriptor per relation); the relations' caches are set as
        # GameEvent(game=game, actor=actor) would set them.
        row = GameEvent(*[fields[name] for name in EVENT_FIELDS])
        _EVENT_GAME.set_cached_value(row, game)
        if actor is not None:
            _EVENT_ACTOR.set_cached_value(row, actor)
        rows.append(row)
    return rows


class WriteConflict(Exception):
    """The game is no longer at the version the write was decided on: another write
    got there first. Nothing of this write was stored."""


# A write whose game row was at the expected version cannot collide on these unless the
# log and the row disagree (the row's version is behind its events).
CORRUPTION_CONSTRAINTS = frozenset({"unique_event_seq_per_game", "unique_event_key_per_game"})


def write_game_and_events(
    game: Game,
    changes: Mapping[str, Any],
    rows: list[GameEvent],
    *,
    messages: Sequence[tuple[str, dict[str, Any]]] = (),
) -> tuple[list[GameEvent], list[int]]:
    """Apply ``changes`` (field: value) to the game's row, append ``rows`` with the next
    global positions, and write ``messages`` (topic, payload) to the outbox — all in
    one transaction, and only if the game is still at ``game.version``; otherwise
    raise :class:`WriteConflict`, having written nothing. Returns the saved rows and
    the ids of the outbox rows.

    On PostgreSQL this is one round trip, one call of ``games_append`` (see the module
    docstring): outside a transaction the server commits it; inside the caller's
    transaction it is part of it, and a conflict (which the function reports without
    an error) leaves that transaction usable, with no savepoint needed."""
    changes = {**changes, "updated_at": timezone.now()}
    if connection.vendor == "postgresql":
        return _write_postgresql(game, changes, rows, messages)
    with transaction.atomic():
        return _write_sqlite(game, changes, rows, messages)


def _write_postgresql(
    game: Game,
    changes: Mapping[str, Any],
    rows: list[GameEvent],
    messages: Sequence[tuple[str, dict[str, Any]]],
) -> tuple[list[GameEvent], list[int]]:
    unknown = set(changes) - _APPEND_CHANGES
    if unknown:
        raise ValueError(f"games_append cannot change {sorted(unknown)} of a game row")
    document = [
        {"ord": ordinal, **{name: getattr(row, name) for name in _INSERTED_FIELDS}}
        for ordinal, row in enumerate(rows, start=1)
    ]
    outbox = [{"ord": n, "topic": topic, "payload": data} for n, (topic, data) in enumerate(messages)]
    params = [
        game.pk,
        game.version,
        changes["version"],
        changes["status"],
        _json(changes["snapshot"]) if "snapshot" in changes else None,
        _json(changes["seats"]) if "seats" in changes else None,
        changes["updated_at"],
        _json(outbox) if outbox else None,
        _json(document),
        APPEND_LOCK_KEY,
    ]
    try:
        with connection.cursor() as cursor:
            cursor.execute(_APPEND_SQL, params)
            updated, seqs, ids, positions, outbox_ids = cursor.fetchone()
    except IntegrityError as exc:
        constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None)
        if constraint in CORRUPTION_CONSTRAINTS:
            raise CorruptStream(f"game {game.pk}: its log holds events after version {game.version}") from exc
        raise
    if not updated:
        raise _moved_on(game)
    inserted = dict(zip(seqs or (), zip(ids or (), positions or (), strict=True), strict=True))
    return _saved(rows, inserted), list(outbox_ids or ())


def _moved_on(game: Game) -> WriteConflict:
    return WriteConflict(f"game {game.pk} moved on from version {game.version}")


def _write_sqlite(
    game: Game,
    changes: Mapping[str, Any],
    rows: list[GameEvent],
    messages: Sequence[tuple[str, dict[str, Any]]],
) -> tuple[list[GameEvent], list[int]]:
    """SQLite: the transaction holds the database's write lock since BEGIN (IMMEDIATE),
    so checking the version and then inserting cannot interleave with another writer."""
    if not Game.objects.filter(pk=game.pk, version=game.version).update(**changes):
        raise _moved_on(game)
    saved = _insert_events_sqlite(rows)
    created = OutboxMessage.objects.bulk_create(
        OutboxMessage(topic=topic, payload=payload) for topic, payload in messages
    )
    return saved, [message.pk for message in created]


def _insert_events_sqlite(rows: list[GameEvent]) -> list[GameEvent]:
    highest = GameEvent.objects.aggregate(top=Max("position"))["top"] or 0
    for offset, row in enumerate(rows, start=1):
        row.position = highest + offset
    return GameEvent.objects.bulk_create(rows)


def _json(value: Any) -> str:
    """JSON text for a jsonb parameter (orjson: datetimes as ISO 8601, like isoformat();
    anything it cannot encode raises TypeError)."""
    return orjson.dumps(value).decode()


def _saved(rows: list[GameEvent], inserted: dict[int, tuple[int, int]]) -> list[GameEvent]:
    if len(inserted) != len(rows):
        raise CorruptStream(f"{len(rows)} events to append, {len(inserted)} inserted")
    for row in rows:
        row.pk, row.position = inserted[row.seq]
        row._state.adding = False
        row._state.db = DEFAULT_DB_ALIAS
    return rows
