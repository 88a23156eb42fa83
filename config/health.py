"""``GET /healthz``: is the database reachable, the broker, and a worker? Every check
answers in milliseconds: a worker's liveness is the heartbeat it writes into the shared
cache (:mod:`config.heartbeat`), not a broadcast ping to wait on.

The page is public (a load balancer asks it), so a failed check says only a short code
(``unreachable``); the error's own text, which names hosts and ports, goes to the log.
Apps add *reports* (:func:`add_report`) that inform without deciding the status: the
league's says how many projections are failing (and, to staff, which)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.heartbeat import read_heartbeat

log = logging.getLogger(__name__)

UNREACHABLE = "unreachable"

# name -> report(request): informational parts of the answer, run once the database is up.
REPORTS: dict[str, Callable[[HttpRequest], dict[str, Any]]] = {}


def add_report(name: str, report: Callable[[HttpRequest], dict[str, Any]]) -> None:
    """Add ``report`` to every answer under ``name`` (an app's ``ready()`` calls this:
    ``config`` imports no app). A report that raises is shown as ``{"error": "failed"}``."""
    REPORTS[name] = report


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; the log says which
        log.warning("healthz: the database is unreachable: %s", exc)
        return {"ok": False, "vendor": connection.vendor, "error": UNREACHABLE}
    return {"ok": True, "vendor": connection.vendor}


def check_broker() -> dict[str, Any]:
    from config.celery import app

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    try:
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        log.warning("healthz: the broker is unreachable: %s", exc)
        return {"ok": False, "mode": "redis", "error": UNREACHABLE}
    return {"ok": True, "mode": "redis"}


def check_workers() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager", "workers": []}
    try:
        beat = read_heartbeat()
    except Exception as exc:  # the cache (Redis) is down
        log.warning("healthz: the shared cache is unreachable: %s", exc)
        return {"ok": False, "workers": [], "error": "cache_unreachable"}
    if beat is None:
        fresh = settings.WORKER_HEARTBEAT_FRESH
        return {"ok": False, "workers": [], "error": f"no worker heartbeat in the last {fresh:g} s"}
    return {
        "ok": True,
        "workers": [str(beat.get("worker"))],
        "age": round(time.time() - float(beat["at"]), 1),
    }


def _reports(request: HttpRequest) -> dict[str, Any]:
    answers: dict[str, Any] = {}
    for name, report in REPORTS.items():
        try:
            answers[name] = report(request)
        except Exception:
            log.exception("healthz: the %s report failed", name)
            answers[name] = {"error": "failed"}
    return answers


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "broker": check_broker()}
    checks["worker"] = check_workers() if checks["broker"]["ok"] else {"ok": False, "workers": []}
    healthy = all(check["ok"] for check in checks.values())
    reports = _reports(request) if checks["database"]["ok"] else {}
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks, **reports}, status=200 if healthy else 503
    )
