"""/healthz reports the database, the broker and the worker — the worker from the
heartbeat it writes, so every check answers at once, also many at a time."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connections
from django.test import Client

from config import health
from config.celery import app
from config.heartbeat import HEARTBEAT_KEY, read_heartbeat, write_heartbeat
from tests.support.ci import IN_CI

LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "health"}}


@pytest.mark.django_db
@pytest.mark.broker  # in CI it reads the real worker's heartbeat (the serial pass's cache prefix)
def test_healthz_on_the_current_configuration(client: Client) -> None:
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    from django.db import connection

    assert body["database"]["vendor"] == connection.vendor
    if IN_CI:
        # CI runs against the real services: PostgreSQL, Redis and a live worker.
        assert body["database"]["vendor"] == "postgresql"
        assert body["broker"]["mode"] == "redis"
    if app.conf.task_always_eager:
        assert body["broker"] == {"ok": True, "mode": "eager"}
        assert body["worker"]["mode"] == "eager"
    else:
        assert body["broker"] == {"ok": True, "mode": "redis"}
        assert body["worker"]["ok"] is True
        assert body["worker"]["workers"], "a worker must have written its heartbeat"


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_is_unreachable(client: Client, settings: object) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # type: ignore[attr-defined]
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # type: ignore[attr-defined]
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "unavailable"
    assert body["broker"] == {"ok": False, "mode": "redis", "error": "unreachable"}
    assert body["worker"]["ok"] is False


# What psycopg says when the server is down: the host and port are no one else's business.
REFUSED = 'connection failed: connection to server at "10.1.2.3", port 5432 failed: Connection refused'


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_fails_and_shows_the_public_no_detail(
    client: Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from django.db import OperationalError, connection

    def refused() -> None:
        raise OperationalError(REFUSED)

    monkeypatch.setattr(connection, "cursor", refused)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == {"ok": False, "vendor": connection.vendor, "error": "unreachable"}
    assert "10.1.2.3" not in response.content.decode() and "5432" not in response.content.decode()
    assert "projections" not in body  # the reports need the database
    assert any(REFUSED in record.getMessage() for record in caplog.records)  # the log has it


def test_healthz_only_answers_get(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


@pytest.fixture
def broker_up(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """As with a broker and a worker, but the heartbeat in this process's memory (never
    the shared Redis the real worker writes to) and the broker check answered ok."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CACHES = LOCAL_CACHE
    monkeypatch.setattr(health, "check_broker", lambda: {"ok": True, "mode": "redis"})
    cache.clear()  # this process's memory only


@pytest.mark.django_db
def test_healthz_reports_the_worker_from_its_heartbeat(client: Client, broker_up: None) -> None:
    write_heartbeat("w1@host")
    body = client.get("/healthz").json()
    assert body["status"] == "ok"
    assert body["worker"]["ok"] is True and body["worker"]["workers"] == ["w1@host"]
    assert 0 <= body["worker"]["age"] < 5


@pytest.mark.django_db
def test_healthz_is_503_without_a_fresh_heartbeat(client: Client, broker_up: None) -> None:
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["worker"] == {
        "ok": False,
        "workers": [],
        "error": "no worker heartbeat in the last 30 s",
    }
    cache.set(HEARTBEAT_KEY, {"worker": "w1@host", "at": time.time() - settings.WORKER_HEARTBEAT_FRESH - 1})
    assert client.get("/healthz").status_code == 503


@pytest.mark.django_db
def test_healthz_is_503_when_the_cache_fails(
    client: Client, broker_up: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def cache_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("cache down")

    monkeypatch.setattr(health, "read_heartbeat", cache_down)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["worker"]["error"] == "cache_unreachable"


@pytest.mark.django_db(transaction=True)
def test_concurrent_health_checks_all_answer_200_at_once(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    if app.conf.task_always_eager:
        # No broker here: stand in for one, with a worker's heartbeat (CI uses the real ones).
        settings.CELERY_TASK_ALWAYS_EAGER = False
        settings.CACHES = LOCAL_CACHE
        monkeypatch.setattr(health, "check_broker", lambda: {"ok": True, "mode": "redis"})
        cache.clear()
        write_heartbeat("w1@host")

    def check(_: int) -> tuple[int, float]:
        started = time.monotonic()
        try:
            status = Client().get("/healthz").status_code
        finally:
            connections.close_all()
        return status, time.monotonic() - started

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(check, range(32)))
    assert [status for status, _ in results] == [200] * 32
    # The old worker ping waited 2 s on every call.
    assert max(seconds for _, seconds in results) < 1.5


def test_the_real_worker_writes_its_heartbeat(broker_required: None) -> None:
    deadline = time.monotonic() + 15
    beat = read_heartbeat()
    while beat is None and time.monotonic() < deadline:
        time.sleep(0.5)
        beat = read_heartbeat()
    assert beat is not None, "no worker heartbeat in the shared cache"
    assert "@" in beat["worker"] and time.time() - beat["at"] < settings.WORKER_HEARTBEAT_FRESH
