"""The PostgreSQL recorder: a write's reads (the game row, whether the idempotency key
was used, the events the cached state lacks) in one statement, the write in one call of
``games_append`` (migration 0003, replaced by 0005). Why the write is safe for readers
of the global order is the docstring of :mod:`games.store`.

The reads are written SQL run through Django's cursor, the game row built from them by
:class:`games.rows.RowReader`; each statement is the same every time, so psycopg
prepares it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson
from django.db import IntegrityError, connection

from games.models import Game, GameEvent
from games.rows import RowReader
from games.store.base import LogRead, Message, log_ahead, mark_saved
from games.store.errors import WriteConflict
from games.store.mapping import StoredEvent

# Any constant shared by every writer of games_gameevent ("KR" "EV" in ASCII).
APPEND_LOCK_KEY = 0x4B52_4556

# Every column of a game row but ``snapshot`` (read by ``verify_games`` only).
GAME_ROW = RowReader(Game, [f for f in Game._meta.concrete_fields if f.name != "snapshot"])
_GAME_COLUMNS = GAME_ROW.select_list("g")

READ_GAME_SQL = f"SELECT {_GAME_COLUMNS} FROM games_game g WHERE g.id = %s"

# Whether the log holds the key, and the events replay needs after the version the
# caller has, up to the game row's version.
_KEY_USED = "EXISTS (SELECT 1 FROM games_gameevent e WHERE e.game_id = {game} AND e.idempotency_key = %s)"
_TAIL = (
    "(SELECT json_agg(json_build_array(e.seq, e.type, e.schema_version, e.data) ORDER BY e.seq)::text "
    "FROM games_gameevent e WHERE e.game_id = {game} AND e.seq > %s AND e.seq <= {version})"
)
READ_LOG_SQL = f"SELECT {_KEY_USED.format(game='%s')}, {_TAIL.format(game='%s', version='%s')}"
# The game row with the same two, in one statement (one snapshot: the log as of the row).
READ_FOR_WRITE_SQL = (
    f"SELECT {_GAME_COLUMNS}, {_KEY_USED.format(game='g.id')}, "
    f"{_TAIL.format(game='g.id', version='g.version')} FROM games_game g WHERE g.id = %s"
)

# The event columns games_append inserts (it assigns ``position`` itself).
INSERTED_FIELDS = tuple(
    f.attname for f in GameEvent._meta.concrete_fields if f.attname not in ("id", "position")
)
# The rows travel as one JSON document (one parameter, unpacked by jsonb_to_recordset)
# rather than a dozen bound parameters per event.
APPEND_SQL = (
    "SELECT updated, event_seqs, event_ids, event_positions, outbox_ids FROM games_append("
    "%s::bigint, %s::integer, %s::integer, %s::varchar, %s::jsonb, %s::jsonb, %s::timestamptz, "
    "%s::jsonb, %s::jsonb, %s::bigint)"
)

# A write whose game row was at the expected version cannot collide on these unless the
# log runs ahead of its row.
CORRUPTION_CONSTRAINTS = frozenset({"unique_event_seq_per_game", "unique_event_key_per_game"})


class PostgresRecorder:
    def read_game(self, game_id: int) -> Game | None:
        with connection.cursor() as cursor:
            cursor.execute(READ_GAME_SQL, [game_id])
            row = cursor.fetchone()
        return GAME_ROW.build(row) if row is not None else None

    def read_for_write(self, game_id: int, key: str | None, *, after: int) -> tuple[Game, LogRead] | None:
        with connection.cursor() as cursor:
            cursor.execute(READ_FOR_WRITE_SQL, [key, after, game_id])
            row = cursor.fetchone()
        if row is None:
            return None
        *columns, key_used, tail = row
        return GAME_ROW.build(columns), LogRead(key, bool(key_used), _stored(tail))

    def read_log(self, game: Game, key: str, *, after: int) -> LogRead:
        with connection.cursor() as cursor:
            cursor.execute(READ_LOG_SQL, [game.pk, key, game.pk, after, game.version])
            key_used, tail = cursor.fetchone()
        return LogRead(key, bool(key_used), _stored(tail))

    def append(
        self, game: Game, changes: Mapping[str, Any], rows: list[GameEvent], messages: Sequence[Message]
    ) -> tuple[list[GameEvent], list[int]]:
        """One round trip: outside a transaction the server commits the call; inside the
        caller's it is one more statement of it, and a conflict (which the function
        reports without an error) leaves that transaction usable."""
        document = [
            {"ord": ordinal, **{name: getattr(row, name) for name in INSERTED_FIELDS}}
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
                cursor.execute(APPEND_SQL, params)
                updated, seqs, ids, positions, outbox_ids = cursor.fetchone()
        except IntegrityError as exc:
            constraint = getattr(getattr(exc.__cause__, "diag", None), "constraint_name", None)
            if constraint in CORRUPTION_CONSTRAINTS:
                raise log_ahead(game) from exc
            raise
        if not updated:
            raise WriteConflict(f"game {game.pk} moved on from version {game.version}")
        inserted = dict(zip(seqs or (), zip(ids or (), positions or (), strict=True), strict=True))
        return mark_saved(rows, inserted), list(outbox_ids or ())


def _stored(tail: str | None) -> list[StoredEvent]:
    """The events of a JSON array of ``[seq, type, schema_version, data]``."""
    return [
        StoredEvent(seq, {"type": kind, "schema_version": version, "data": data})
        for seq, kind, version, data in (orjson.loads(tail) if tail else ())
    ]


def _json(value: Any) -> str:
    """JSON text for a jsonb parameter (orjson: datetimes as ISO 8601, like isoformat();
    anything it cannot encode raises TypeError)."""
    return orjson.dumps(value).decode()
