"""``GET /healthz``: is the database reachable, the broker, and a worker? Every check
answers in milliseconds: a worker's liveness is the heartbeat it writes into the shared
cache (:mod:`config.heartbeat`), not a broadcast ping to wait on."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.heartbeat import HEARTBEAT_FRESH, read_heartbeat


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; the message says which
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)[:200]}
    return {"ok": True, "vendor": connection.vendor}


def check_broker() -> dict[str, Any]:
    from config.celery import app

    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    try:
        with app.connection_for_write(settings.CELERY_BROKER_URL) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:
        return {"ok": False, "mode": "redis", "error": str(exc)[:200]}
    return {"ok": True, "mode": "redis"}


def check_workers() -> dict[str, Any]:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager", "workers": []}
    try:
        beat = read_heartbeat()
    except Exception as exc:  # the cache (Redis) is down
        return {"ok": False, "workers": [], "error": str(exc)[:200]}
    if beat is None:
        return {"ok": False, "workers": [], "error": f"no worker heartbeat in the last {HEARTBEAT_FRESH} s"}
    return {
        "ok": True,
        "workers": [str(beat.get("worker"))],
        "age": round(time.time() - float(beat["at"]), 1),
    }


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {"database": check_database(), "broker": check_broker()}
    checks["worker"] = check_workers() if checks["broker"]["ok"] else {"ok": False, "workers": []}
    healthy = all(check["ok"] for check in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "unavailable", **checks}, status=200 if healthy else 503
    )
