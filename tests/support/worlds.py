"""Data built once for many tests, and one query for "nothing was written".

A corpus or a matrix sends hundreds of requests at the same few rows. Rebuilding those
rows for each case cost most of the suite's time; instead a module- (or parameter-)
scoped fixture builds them once inside :func:`shared_world` — a transaction that is
rolled back when the fixture ends — and each test's own transaction (pytest-django's
``django_db``) is a savepoint inside it, rolled back after the case. Every case still
starts from the same rows, and no case sees another's writes::

    @pytest.fixture(scope="module")
    def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
        with shared_world(django_db_blocker):
            yield build_the_rows(make_user)

Only for tests that do not commit (plain ``django_db``); a transactional test would
commit the world.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import connection, models, transaction
from django.test import override_settings

# Hashing with the production hasher costs a third of a second per user (as make_user).
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def make_user(username: str) -> Any:
    """A user made as the ``make_user`` fixture makes one (password ``pw-<username>``)."""
    with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        return get_user_model().objects.create_user(username=username, password="pw-" + username)


@contextmanager
def shared_world(django_db_blocker: Any) -> Iterator[None]:
    """Database access and a transaction around rows many tests share; rolled back at
    the end, whatever happened."""
    with django_db_blocker.unblock(), transaction.atomic():
        try:
            yield
        finally:
            transaction.set_rollback(True)


def app_models(*labels: str) -> list[type[models.Model]]:
    """Every model of the apps ``labels`` with a table of its own (proxies left out)."""
    return [
        model
        for label in labels
        for model in apps.get_app_config(label).get_models()
        if not model._meta.proxy
    ]


def row_counts(tables: Iterable[type[models.Model]]) -> dict[str, int]:
    """How many rows each model's table holds, in one query (``SELECT (SELECT COUNT(*)
    FROM a), (SELECT COUNT(*) FROM b), ...``) rather than one a table."""
    chosen = list(tables)
    return {
        model._meta.label: int(count)
        for model, count in zip(chosen, per_table(chosen, "COUNT(*)"), strict=True)
    }


def per_table(tables: list[type[models.Model]], aggregate: str) -> tuple[Any, ...]:
    """``aggregate`` over each of ``tables``' rows (``t``), all in one query:
    ``SELECT (SELECT aggregate FROM a t), (SELECT aggregate FROM b t), ...``."""
    quote = connection.ops.quote_name
    sql = "SELECT " + ", ".join(f"(SELECT {aggregate} FROM {quote(m._meta.db_table)} t)" for m in tables)
    with connection.cursor() as cursor:
        cursor.execute(sql)
        row = cursor.fetchone()
    assert row is not None
    return tuple(row)


def row_digests(tables: Iterable[type[models.Model]]) -> dict[str, str]:
    """What each model's table holds, as a digest: equal digests, equal rows (contents,
    not only counts — a refused edit must update nothing either). On PostgreSQL one query
    digests every table in the server (``md5`` of its rows as text, in order); elsewhere
    each table is read and digested here."""
    chosen = list(tables)
    if connection.vendor == "postgresql":
        digests = per_table(chosen, "md5(COALESCE(string_agg(t::text, E'\\n' ORDER BY t::text), ''))")
        return {model._meta.label: str(digest) for model, digest in zip(chosen, digests, strict=True)}
    return {
        model._meta.label: hashlib.md5(
            "\n".join(sorted(map(repr, model._default_manager.values_list()))).encode(), usedforsecurity=False
        ).hexdigest()
        for model in chosen
    }


def settle_other_sessions(patience: float = 5.0) -> list[int]:
    """Wait until no other session on this PostgreSQL database is inside a transaction,
    for at most ``patience`` seconds; then end the ones still inside one. Returns the
    process ids ended (none, normally)."""
    waiting = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
        "AND state IN ('active', 'idle in transaction', 'idle in transaction (aborted)')"
    )
    deadline = time.monotonic() + patience
    with connection.cursor() as cursor:
        while True:
            cursor.execute(waiting)
            pids = [int(pid) for (pid,) in cursor.fetchall()]
            if not pids:
                return []
            if time.monotonic() > deadline:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [pids])
                return pids
            time.sleep(0.05)
