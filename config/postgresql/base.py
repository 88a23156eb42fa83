"""Django's PostgreSQL backend, with a cheaper per-request connection health check.

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
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
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
