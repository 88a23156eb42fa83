"""Events no longer store ``command_key``: it is the idempotency key of the event's write,
which the event's own ``idempotency_key`` holds already (``K`` on the write's first
event, ``K#n`` on the n-th), and ``GameEvent.command_key`` now reads it from there.
37 bytes an event, about a tenth of a row (docs/performance.md, "Storage"); on
PostgreSQL ``DROP COLUMN`` rewrites nothing, so rows stored before keep the bytes until
the table is rewritten, and the rows written after do without.

``games_append`` (migration 0003) is replaced by the same function without the column.
On SQLite, Django drops the column in place where SQLite can, and otherwise by rebuilding
the table, which would drop its triggers with it: the append-only triggers of migration
0002 are made again either way.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db import migrations

if TYPE_CHECKING:
    from django.db.backends.base.schema import BaseDatabaseSchemaEditor
    from django.db.migrations.state import StateApps

APPEND_ONLY = importlib.import_module("games.migrations.0002_append_only_events")
APPEND_FUNCTION = importlib.import_module("games.migrations.0003_append_function")
SQLITE_TRIGGERS = [*APPEND_ONLY.SQLITE_REMOVE, *APPEND_ONLY.SQLITE_INSTALL]

INSTALL = """
CREATE OR REPLACE FUNCTION games_append(
    p_game bigint,
    p_expected_version integer,
    p_version integer,
    p_status varchar,
    p_snapshot jsonb,
    p_seats jsonb,
    p_updated_at timestamptz,
    p_outbox jsonb,
    p_events jsonb,
    p_lock bigint,
    OUT updated boolean,
    OUT event_seqs integer[],
    OUT event_ids bigint[],
    OUT event_positions bigint[],
    OUT outbox_ids bigint[]
) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    -- Waits for a concurrent writer's row lock, then re-checks the version.
    UPDATE games_game
       SET version = p_version,
           status = p_status,
           updated_at = p_updated_at,
           snapshot = COALESCE(p_snapshot, snapshot),
           seats = COALESCE(p_seats, seats)
     WHERE id = p_game AND version = p_expected_version;
    updated := FOUND;
    IF NOT updated THEN
        RETURN;
    END IF;
    IF p_outbox IS NOT NULL THEN  -- before the append lock, which is held until commit
        WITH written AS (
            INSERT INTO games_outboxmessage (topic, payload, created_at, attempts, last_error)
            SELECT v.topic, v.payload, p_updated_at, 0, ''
              FROM jsonb_to_recordset(p_outbox) AS v(ord integer, topic varchar, payload jsonb)
             ORDER BY v.ord
            RETURNING id
        )
        SELECT array_agg(id ORDER BY id) INTO outbox_ids FROM written;
    END IF;
    PERFORM pg_advisory_xact_lock(p_lock);
    WITH appended AS (
        INSERT INTO games_gameevent (
            game_id, seq, type, schema_version, data, actor_id, source,
            idempotency_key, command_digest, recorded_at, position
        )
        SELECT v.game_id, v.seq, v.type, v.schema_version, v.data, v.actor_id, v.source,
               v.idempotency_key, v.command_digest, v.recorded_at,
               top.highest + v.ord
          FROM jsonb_to_recordset(p_events) AS v(
                   ord integer, game_id bigint, seq integer, type varchar,
                   schema_version smallint, data jsonb, actor_id bigint, source varchar,
                   idempotency_key varchar, command_digest varchar,
                   recorded_at timestamptz)
         CROSS JOIN (SELECT COALESCE(MAX(position), 0) AS highest FROM games_gameevent) AS top
        RETURNING seq, id, position
    )
    SELECT array_agg(seq ORDER BY seq), array_agg(id ORDER BY seq), array_agg(position ORDER BY seq)
      INTO event_seqs, event_ids, event_positions
      FROM appended;
END;
$$
"""


def _on(vendor: str, statements: list[str]) -> Callable[[StateApps, BaseDatabaseSchemaEditor], None]:
    def run(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        if schema_editor.connection.vendor == vendor:
            for sql in statements:
                schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0004_game_bot_delay")]

    operations = [
        migrations.RunPython(_on("postgresql", [INSTALL]), _on("postgresql", [APPEND_FUNCTION.INSTALL])),
        # SQLite's triggers, which a rebuild of the table drops, made again after it either way
        migrations.RunPython(migrations.RunPython.noop, _on("sqlite", SQLITE_TRIGGERS)),
        migrations.RemoveField(model_name="gameevent", name="command_key"),
        migrations.RunPython(_on("sqlite", SQLITE_TRIGGERS), migrations.RunPython.noop),
    ]
