"""Celery tasks of the web app: thin and idempotent."""

from __future__ import annotations

from celery import shared_task

from web import once


@shared_task(name="web.tasks.purge_form_posts", ignore_result=True)
def purge_form_posts() -> int:
    """The beat's daily purge of form keys older than ``once.KEEP_FORM_POSTS``."""
    return once.purge()
