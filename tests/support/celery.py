"""Running the outbox's Celery tasks in the test's own process."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from config.celery import app


@contextmanager
def eager_tasks() -> Iterator[None]:
    """Run tasks in process, even when a broker is configured (CI): a worker would read
    another database than the test's transaction, and would run them later."""
    conf = app.conf  # read from Django's settings under the CELERY_ namespace
    saved = conf.CELERY_TASK_ALWAYS_EAGER, conf.CELERY_TASK_EAGER_PROPAGATES
    conf.CELERY_TASK_ALWAYS_EAGER = conf.CELERY_TASK_EAGER_PROPAGATES = True
    try:
        yield
    finally:
        conf.CELERY_TASK_ALWAYS_EAGER, conf.CELERY_TASK_EAGER_PROPAGATES = saved
