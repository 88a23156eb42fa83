"""/healthz reports the database, the broker and the worker."""

from __future__ import annotations

import pytest
from django.test import Client

from config.celery import app
from tests.conftest import IN_CI


@pytest.mark.django_db
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
        assert body["worker"]["workers"], "a worker must have answered the ping"


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_is_unreachable(client: Client, settings: object) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # type: ignore[attr-defined]
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # type: ignore[attr-defined]
    response = client.get("/healthz")
    body = response.json()
    assert response.status_code == 503
    assert body["status"] == "unavailable"
    assert body["broker"]["ok"] is False
    assert body["worker"]["ok"] is False


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_fails(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    from config import health

    def broken_database() -> dict[str, object]:
        return {"ok": False, "vendor": "sqlite", "error": "disk I/O error"}

    monkeypatch.setattr(health, "check_database", broken_database)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"]["error"] == "disk I/O error"


def test_healthz_only_answers_get(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
