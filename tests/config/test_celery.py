"""Celery: eager in the embedded default, a real round trip through Redis in CI."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.celery import app
from games.tasks import ping


def test_celery_is_configured_for_json_and_time_limits() -> None:
    assert app.conf.task_serializer == "json"
    assert app.conf.accept_content == ["json"]
    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit
    assert "games.tasks.ping" in app.tasks


def test_eager_mode_runs_in_process_when_no_broker_is_configured() -> None:
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        pytest.skip("a broker is configured; the round trip test below covers this run")
    assert ping.delay("embedded").get(timeout=1) == "pong:embedded"


def test_round_trip_through_the_real_broker_and_worker(broker_required: None) -> None:
    result = ping.delay("ci")
    assert result.get(timeout=20) == "pong:ci"
    replies = app.control.ping(timeout=2)
    assert replies, "no worker answered"
