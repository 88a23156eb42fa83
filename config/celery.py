"""The Celery application. Tasks are thin (ids in, a service call, idempotent),
JSON only, with soft and hard time limits (see settings ``CELERY_*``)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("knockrummy")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Imported here, after the app: the step is part of every worker's consumer this app starts
# (restarted by Celery after each broker reconnection; see config/heartbeat.py).
from config.heartbeat import WorkerHeartbeat  # noqa: E402

app.steps["consumer"].add(WorkerHeartbeat)
