"""Celery: eager in the embedded default, a real round trip through Redis in CI."""

from __future__ import annotations

import pytest
from celery.result import EagerResult
from django.conf import settings

from config.celery import app
from games.tasks import ping
from tests.support.ci import IN_CI


def test_celery_is_configured_for_json_and_time_limits() -> None:
    assert app.conf.task_serializer == "json"
    assert app.conf.accept_content == ["json"]
    assert 0 < app.conf.task_soft_time_limit < app.conf.task_time_limit
    assert "games.tasks.ping" in app.tasks


@pytest.mark.broker
def test_task_round_trip_in_the_configured_mode() -> None:
    """Embedded: the task runs in process. With REDIS_URL (always in CI): through the real
    broker to a real worker, which must also answer a ping."""
    result = ping.delay("hello")
    assert result.get(timeout=20) == "pong:hello"
    if settings.CELERY_TASK_ALWAYS_EAGER:
        assert not IN_CI or not settings.REDIS_URL, "CI with a broker must not run tasks eagerly"
        assert isinstance(result, EagerResult)
    else:
        assert not isinstance(result, EagerResult)
        replies = app.control.ping(timeout=2)
        assert replies, "no worker answered the ping"
