"""Django's PostgreSQL backend, with a cheaper per-request connection health check and
prepared statements for the few statements every API request runs.

Health check
------------

With ``CONN_HEALTH_CHECKS`` Django checks a persistent connection at the first query of
every request by sending ``SELECT 1``: a whole round trip, on every request. A server
that went away (restart, ``pg_terminate_backend``, idle timeout, failover) does not
vanish silently, though: it sends an error and closes the socket, so an idle
connection's socket becomes readable. :meth:`DatabaseWrapper.is_usable` therefore
asks the kernel first (``poll`` with no timeout): nothing to read means the server
has said nothing and the connection is usable; anything to read (the goodbye, or a
notification) falls back to Django's ``SELECT 1``, which decides. A connection lost
without a word (a cable pulled) is caught by neither check until TCP gives up, as
before.

Prepared statements
-------------------
Django binds parameters on the client (it quotes them into the SQL text), so PostgreSQL
parses and plans every statement anew. :meth:`DatabaseWrapper.prepared_cursor` gives a
cursor that binds on the server and prepares each statement the first time this
connection runs it; after that psycopg sends only the statement's name and its
parameters. The token lookup, the game read and the call of ``games_append`` use it;
for the first two that halves PostgreSQL's work per statement (measured alone: 194 ->
88 and 119 -> 62 microseconds of server CPU). Only callers that ask get it, with
statements built once (their text is the cache key); every other query keeps Django's
defaults. Such a cursor is still one of Django's, so
query logging and ``assertNumQueries`` see it.

The hottest statements go through :meth:`DatabaseWrapper.fetch_prepared` instead: one row
from one prepared statement, on a psycopg cursor the connection keeps and reuses. It
does what Django's cursor does around a statement (the health check, the thread check,
refusing a broken transaction, Django's exception classes), but not a new cursor and
its wrapper per statement: 28-30 instead of 70-76 microseconds of the web process's CPU
per statement, measured alone. Whenever queries are being logged (``DEBUG``,
``assertNumQueries``, ``CaptureQueriesContext``) or wrapped (``execute_wrapper``), it
takes the ordinary :meth:`~DatabaseWrapper.prepared_cursor`, so they still see every
statement.

A connection pooler in transaction mode that does not track prepared statements
(PgBouncer before 1.21, or without ``max_prepared_statements``) breaks them: set
``?prepared_statements=false`` in ``DATABASE_URL`` and these cursors are ordinary ones.
"""

from __future__ import annotations

import select
import sys
from collections.abc import Sequence
from typing import Any

from django.db.backends.postgresql import base
from django.db.backends.utils import CursorWrapper
from django.utils.asyncio import async_unsafe
from psycopg import pq


class PreparingCursor(base.ServerBindingCursor):
    """Binds parameters on the server and prepares every statement it executes."""

    def execute(self, query: Any, params: Any = None, *, prepare: bool | None = None, **kwargs: Any) -> Any:
        return super().execute(query, params, prepare=True if prepare is None else prepare, **kwargs)


class DatabaseWrapper(base.DatabaseWrapper):
    prepare_statements = True
    # fetch_prepared's cursor: (the psycopg connection it is on, the time zone its
    # timestamps load in, the cursor); rebuilt when either changes.
    _kept_cursor: tuple[Any, Any, PreparingCursor] | None = None

    def get_connection_params(self) -> dict[str, Any]:
        params = super().get_connection_params()
        self.prepare_statements = params.pop("prepared_statements", True)
        if self.prepare_statements and params.get("prepare_threshold") is None:
            # Django turns psycopg's prepared statements off (None). Turn them on, but
            # never automatically: only a cursor that asks (``prepare=True``) prepares.
            params["prepare_threshold"] = sys.maxsize
        return params

    @async_unsafe
    def prepared_cursor(self) -> CursorWrapper:
        """A cursor whose statements are prepared on the server (see the module's
        docstring); an ordinary cursor when ``prepared_statements`` is off."""
        if not self.prepare_statements:
            return self.cursor()
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            return self._prepare_cursor(self._preparing_cursor())

    def _preparing_cursor(self) -> PreparingCursor:
        """A bare psycopg cursor that prepares, on the open connection."""
        cursor = PreparingCursor(self.connection)
        # As create_cursor: the cursor's time zone only when the connection's differs.
        tzloader = self.connection.adapters.get_loader(base.TIMESTAMPTZ_OID, pq.Format.TEXT)
        if self.timezone != tzloader.timezone:
            base.register_tzloader(self.timezone, cursor)
        return cursor

    @async_unsafe
    def fetch_prepared(self, sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
        """The first row (None if none) of ``sql`` with ``params``, prepared on the server
        like :meth:`prepared_cursor`'s statements, on a cursor kept for the connection
        (see the module's docstring). Errors are Django's (``IntegrityError``, ...)."""
        if self.queries_logged or self.execute_wrappers or not self.prepare_statements:
            with self.prepared_cursor() as cursor:
                cursor.execute(sql, params)
                return cursor.fetchone()  # type: ignore[no-any-return]
        self.close_if_health_check_failed()
        self.ensure_connection()
        self.validate_thread_sharing()
        self.validate_no_broken_transaction()
        with self.wrap_database_errors:
            kept = self._kept_cursor
            if kept is None or kept[0] is not self.connection or kept[1] != self.timezone:
                kept = self._kept_cursor = (self.connection, self.timezone, self._preparing_cursor())
            cursor = kept[2]
            cursor.execute(sql, params)
            return cursor.fetchone()  # type: ignore[no-any-return]

    def _close(self) -> None:
        self._kept_cursor = None
        super()._close()

    def is_usable(self) -> bool:
        conn = self.connection
        if conn is None or conn.closed or conn.broken:
            return False
        if conn.info.transaction_status != pq.TransactionStatus.IDLE:
            return bool(super().is_usable())
        try:
            poller = select.poll()
            poller.register(conn.fileno(), select.POLLIN | select.POLLERR | select.POLLHUP)
            quiet = not poller.poll(0)
        except (OSError, ValueError):
            return False
        return quiet or bool(super().is_usable())
