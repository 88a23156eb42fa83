"""Celery tasks of the league app: thin, ids in, idempotent."""

from __future__ import annotations

from celery import shared_task

from league import services

# The outbox topic the league subscribes to GameFinished and GameAbandoned with.
GAME_ENDED = "league.tasks.game_ended"


@shared_task(name=GAME_ENDED, ignore_result=True)
def game_ended(game_id: int) -> bool:
    """A game ended: mark its table's round complete when all its tables are
    (delivered at least once: checking again changes nothing)."""
    return services.game_ended(game_id)


@shared_task(name="league.tasks.check_open_rounds", ignore_result=True)
def check_open_rounds() -> int:
    """Check every published round for completion (safe to run from beat)."""
    return services.check_open_rounds()
