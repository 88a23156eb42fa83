"""Worker liveness for ``/healthz``, without asking the workers anything.

Every worker writes a heartbeat (its name and the time) into the shared cache every
``settings.WORKER_HEARTBEAT_EVERY`` seconds, from a timer in its own event loop: a worker
whose loop is stuck or that has died stops writing, and the key expires
``settings.WORKER_HEARTBEAT_FRESH`` seconds after the last beat. ``/healthz`` reads that
one key — a cache read, not a broadcast ping to wait on.

The timer belongs to the worker's *consumer*, not to the worker: when the broker
connection drops, Celery clears the event loop's timers and restarts the consumer's
bootsteps once it has reconnected (``blueprint.restart`` then ``blueprint.start``), as it
does for its own event heartbeat (``celery.worker.consumer.heart``). A timer registered
once at worker start was lost at the first Redis restart, and ``/healthz`` said 503 for
good; :class:`WorkerHeartbeat` is a consumer ``StartStopStep``, so every reconnection
starts it again.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import bootsteps
from django.conf import settings

log = logging.getLogger(__name__)

HEARTBEAT_KEY = "celery:worker-heartbeat"


def write_heartbeat(worker: str) -> None:
    """Record that ``worker`` is alive now; a cache outage is logged, never raised (the
    worker keeps working, and /healthz reports the missing beat)."""
    from django.core.cache import cache

    try:
        cache.set(
            HEARTBEAT_KEY, {"worker": worker, "at": time.time()}, timeout=settings.WORKER_HEARTBEAT_FRESH
        )
    except Exception:
        log.exception("writing the worker heartbeat failed")


def read_heartbeat() -> dict[str, Any] | None:
    """The latest heartbeat still fresh (``worker``, ``at``), or None. Cache errors are
    raised: the caller reports them."""
    from django.core.cache import cache

    beat = cache.get(HEARTBEAT_KEY)
    fresh = settings.WORKER_HEARTBEAT_FRESH
    if not isinstance(beat, dict) or time.time() - float(beat.get("at", 0)) > fresh:
        return None
    return beat


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A consumer bootstep (Celery's public extension API): beats once when the consumer
    has connected, then on the consumer's timer until the connection is lost or the worker
    stops; Celery starts it again after each reconnection."""

    requires = ("celery.worker.consumer.connection:Connection",)

    def __init__(self, consumer: Any, **kwargs: Any) -> None:
        super().__init__(consumer, **kwargs)
        self.timer_entry: Any = None

    def start(self, consumer: Any) -> None:
        self.stop(consumer)  # never two timers, whatever Celery calls
        write_heartbeat(consumer.hostname)
        self.timer_entry = consumer.timer.call_repeatedly(
            settings.WORKER_HEARTBEAT_EVERY, write_heartbeat, (consumer.hostname,)
        )

    def stop(self, consumer: Any) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None

    shutdown = stop
