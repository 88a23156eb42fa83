from __future__ import annotations

from collections.abc import Iterator

import pytest

from config.celery import app as celery_app


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Run outbox tasks in process, even when a broker is configured (CI)."""
    conf = celery_app.conf
    saved = conf.CELERY_TASK_ALWAYS_EAGER, conf.CELERY_TASK_EAGER_PROPAGATES
    conf.CELERY_TASK_ALWAYS_EAGER = conf.CELERY_TASK_EAGER_PROPAGATES = True
    yield
    conf.CELERY_TASK_ALWAYS_EAGER, conf.CELERY_TASK_EAGER_PROPAGATES = saved
