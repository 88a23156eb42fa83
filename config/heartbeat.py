"""Worker liveness for ``/healthz``, without asking the workers anything.

Every worker writes a heartbeat (its name and the time) into the shared cache every
``HEARTBEAT_EVERY`` seconds, from a timer in its own event loop: a worker whose loop is
stuck or that has died stops writing, and the key expires ``HEARTBEAT_FRESH`` seconds
after the last beat. ``/healthz`` reads that one key — a cache read, not the 2-second
broadcast ping it used to wait for on every call.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import bootsteps

log = logging.getLogger(__name__)

HEARTBEAT_KEY = "celery:worker-heartbeat"
HEARTBEAT_EVERY = 5.0
# A heartbeat older than this means no worker is running (several missed beats).
HEARTBEAT_FRESH = 30


def write_heartbeat(worker: str) -> None:
    """Record that ``worker`` is alive now; a cache outage is logged, never raised (the
    worker keeps working, and /healthz reports the missing beat)."""
    from django.core.cache import cache

    try:
        cache.set(HEARTBEAT_KEY, {"worker": worker, "at": time.time()}, timeout=HEARTBEAT_FRESH)
    except Exception:
        log.exception("writing the worker heartbeat failed")


def read_heartbeat() -> dict[str, Any] | None:
    """The latest heartbeat still fresh (``worker``, ``at``), or None. Cache errors are
    raised: the caller reports them."""
    from django.core.cache import cache

    beat = cache.get(HEARTBEAT_KEY)
    if not isinstance(beat, dict) or time.time() - float(beat.get("at", 0)) > HEARTBEAT_FRESH:
        return None
    return beat


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A worker bootstep (Celery's public extension API): beats once at start, then on
    the worker's own timer until it stops."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.timer_entry: Any = None

    def start(self, worker: Any) -> None:
        write_heartbeat(worker.hostname)
        self.timer_entry = worker.timer.call_repeatedly(HEARTBEAT_EVERY, write_heartbeat, (worker.hostname,))

    def stop(self, worker: Any) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None
