"""The PostgreSQL backend's health check: no round trip while the server is quiet, and a
connection the server closed is replaced at the next request."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from django.db import close_old_connections, connection, connections
from django.db.backends.postgresql import base as django_base

pytestmark = pytest.mark.django_db(transaction=True)


def _terminate(pid: int) -> None:
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        autocommit=True,
    ) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)
        for _ in range(100):
            if not admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchall():
                return
            time.sleep(0.02)
    raise AssertionError(f"backend {pid} did not go away")


def test_a_quiet_connection_is_usable_without_a_query(postgres_required: None, monkeypatch: Any) -> None:
    connection.ensure_connection()

    def no_query(self: Any) -> bool:
        raise AssertionError("the health check sent a query")

    monkeypatch.setattr(django_base.DatabaseWrapper, "is_usable", no_query)
    assert connection.is_usable() is True


def test_a_connection_the_server_closed_is_replaced_at_the_next_request(postgres_required: None) -> None:
    connection.ensure_connection()
    old_pid = connection.connection.info.backend_pid
    _terminate(old_pid)

    assert connection.is_usable() is False
    close_old_connections()  # what Django does when a request starts
    with connection.cursor() as cursor:  # the first query of the request: checked, reconnected
        cursor.execute("SELECT pg_backend_pid()")
        (new_pid,) = cursor.fetchone()
    assert new_pid != old_pid


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


def test_a_prepared_cursor_prepares_once_and_is_still_counted(postgres_required: None) -> None:
    from django.test.utils import CaptureQueriesContext

    sql = "SELECT %s::int + 1"
    with CaptureQueriesContext(connection) as queries:
        for n in range(3):
            with connection.prepared_cursor() as cursor:
                cursor.execute(sql, [n])
                assert cursor.fetchone() == (n + 1,)
    assert len(queries) == 3  # query logging and assertNumQueries see these cursors
    assert _prepared_statements().count("SELECT $1::int + 1") == 1


def test_ordinary_cursors_prepare_nothing(postgres_required: None) -> None:
    from django.contrib.auth import get_user_model

    for _ in range(10):  # psycopg's own threshold would prepare after 5
        list(get_user_model().objects.filter(username="nobody"))
    assert not [s for s in _prepared_statements() if "auth_user" in s]


def test_prepared_statements_can_be_turned_off(postgres_required: None, monkeypatch: Any) -> None:
    settings = {**connection.settings_dict, "OPTIONS": {"prepared_statements": False}}
    params = connections["default"].__class__(settings).get_connection_params()
    assert params["prepare_threshold"] is None  # Django's default: psycopg prepares nothing
    assert "prepared_statements" not in params  # not passed on to libpq

    monkeypatch.setattr(connection, "prepare_statements", False)
    with connection.prepared_cursor() as cursor:
        cursor.execute("SELECT %s::int * 2", [21])
        assert cursor.fetchone() == (42,)
    assert "SELECT $1::int * 2" not in _prepared_statements()


def test_fetch_prepared_keeps_one_cursor_and_prepares_once(postgres_required: None) -> None:
    sql = "SELECT %s::int + 2"
    rows = [connection.fetch_prepared(sql, [n]) for n in range(3)]
    assert rows == [(2,), (3,), (4,)]
    kept = connection._kept_cursor
    assert kept is not None and kept[0] is connection.connection
    assert connection.fetch_prepared("SELECT 1 WHERE %s::bool", [False]) is None  # no row
    assert connection._kept_cursor is kept  # the same cursor, not one per statement
    assert _prepared_statements().count("SELECT $1::int + 2") == 1


def test_fetch_prepared_is_counted_and_wrapped_like_any_query(postgres_required: None) -> None:
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert connection.fetch_prepared("SELECT %s::int * 3", [3]) == (9,)
    assert len(queries) == 1  # so assertNumQueries and DEBUG's query log see it

    seen: list[str] = []

    def spy(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(spy):
        assert connection.fetch_prepared("SELECT %s::int * 4", [2]) == (8,)
    assert seen == ["SELECT %s::int * 4"]


def test_fetch_prepared_raises_djangos_errors_and_refuses_broken_transactions(
    postgres_required: None,
) -> None:
    from django.db import IntegrityError, transaction
    from django.db.transaction import TransactionManagementError

    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE kept_cursor_t (k int PRIMARY KEY)")
    sql = "INSERT INTO kept_cursor_t VALUES (%s) RETURNING k"
    assert connection.fetch_prepared(sql, [1]) == (1,)
    with pytest.raises(IntegrityError):
        connection.fetch_prepared(sql, [1])
    with transaction.atomic():
        with pytest.raises(IntegrityError), transaction.atomic(savepoint=False):
            connection.fetch_prepared(sql, [1])
        with pytest.raises(TransactionManagementError):
            connection.fetch_prepared(sql, [2])  # the transaction is broken: nothing runs
    assert connection.fetch_prepared("SELECT count(*) FROM kept_cursor_t", []) == (1,)


def test_fetch_prepared_follows_a_new_connection(postgres_required: None) -> None:
    connection.fetch_prepared("SELECT %s::int", [1])
    old_pid = connection.connection.info.backend_pid
    connection.close()
    assert connection._kept_cursor is None  # no cursor of a closed connection kept
    assert connection.fetch_prepared("SELECT pg_backend_pid() + %s::int", [0]) != (old_pid,)
    assert connection._kept_cursor is not None and connection._kept_cursor[0] is connection.connection


def test_fetch_prepared_loads_timestamps_in_the_connections_time_zone(postgres_required: None) -> None:
    from django.test import override_settings

    sql = "SELECT %s::timestamptz"
    aware = connection.fetch_prepared(sql, ["2026-01-02 03:04:05+00"])[0]
    assert aware.tzinfo is not None and aware.utcoffset().total_seconds() == 0
    with override_settings(USE_TZ=False):  # Django's timestamps are naive then
        with connection.prepared_cursor() as cursor:
            cursor.execute(sql, ["2026-01-02 03:04:05+00"])
            expected = cursor.fetchone()[0]
        assert connection.fetch_prepared(sql, ["2026-01-02 03:04:05+00"])[0] == expected
        assert expected.tzinfo is None
    assert connection.fetch_prepared(sql, ["2026-01-02 03:04:05+00"])[0] == aware
