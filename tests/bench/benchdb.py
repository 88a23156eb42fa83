"""What the PostgreSQL benchmarks share: the server they make their scratch databases
on, and the environment a Django process of theirs runs in (as production runs it:
DEBUG off, no broker unless one is given). Imported by the benchmark scripts, which
run with this folder first on ``sys.path``."""

from __future__ import annotations

import os
import secrets

# The server (BENCH_PG); each benchmark creates a database of its own on it and drops it.
SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


def admin_sql(statement: str) -> None:
    """Run ``statement`` on the server's ``postgres`` database, outside a transaction
    (CREATE DATABASE, DROP DATABASE)."""
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(statement)


def use_database(database_url: str, *, broker: str = "") -> None:
    """Set this process's environment for ``django.setup()`` against ``database_url``:
    production settings, quiet logs, and Celery eager unless ``broker`` (a Redis URL)."""
    os.environ.update(
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    if broker:
        os.environ["REDIS_URL"] = broker
    else:
        os.environ.pop("REDIS_URL", None)
