"""Events are append-only: a trigger rejects every UPDATE and DELETE of a game event.

PostgreSQL: a plpgsql trigger function raising SQLSTATE 23000 (integrity constraint
violation, so Django raises ``IntegrityError``). SQLite: ``RAISE(ABORT, ...)`` in
BEFORE triggers (also an ``IntegrityError``). TRUNCATE (used by test teardown) is not
row-level and stays possible for the database owner.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db import migrations

if TYPE_CHECKING:
    from django.db.backends.base.schema import BaseDatabaseSchemaEditor
    from django.db.migrations.state import StateApps

MESSAGE = "game events are append-only"

POSTGRES_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION games_event_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION '{MESSAGE}: % of event % rejected', TG_OP, OLD.id USING ERRCODE = '23000';
    END;
    $$ LANGUAGE plpgsql
    """,
    """
    CREATE TRIGGER games_event_append_only
    BEFORE UPDATE OR DELETE ON games_gameevent
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only()
    """,
]
POSTGRES_REMOVE = [
    "DROP TRIGGER IF EXISTS games_event_append_only ON games_gameevent",
    "DROP FUNCTION IF EXISTS games_event_append_only()",
]
SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_gameevent
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: UPDATE rejected'); END
    """,
    f"""
    CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_gameevent
    BEGIN SELECT RAISE(ABORT, '{MESSAGE}: DELETE rejected'); END
    """,
]
SQLITE_REMOVE = [
    "DROP TRIGGER IF EXISTS games_event_no_update",
    "DROP TRIGGER IF EXISTS games_event_no_delete",
]


def _run(
    statements_by_vendor: dict[str, list[str]],
) -> Callable[[StateApps, BaseDatabaseSchemaEditor], None]:
    def run(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        statements = statements_by_vendor.get(schema_editor.connection.vendor)
        if statements is None:
            raise RuntimeError(f"no append-only trigger for {schema_editor.connection.vendor}")
        for sql in statements:
            schema_editor.execute(sql, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRES_INSTALL, "sqlite": SQLITE_INSTALL}),
            _run({"postgresql": POSTGRES_REMOVE, "sqlite": SQLITE_REMOVE}),
        ),
    ]
