"""Celery tasks of the league app: thin, ids in, idempotent."""

from __future__ import annotations

from celery import shared_task

from league import ratings


@shared_task(name="league.tasks.refresh_ratings", ignore_result=True)
def refresh_ratings(game_id: int) -> str:
    """Bring the ratings of ``game_id``'s club and game family up to date with its log."""
    return ratings.refresh_game(game_id)
