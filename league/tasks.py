"""Celery tasks of the league app: thin, ids in, idempotent."""

from __future__ import annotations

from celery import shared_task

from league import projection, ratings, services

# The outbox topic the league subscribes to GameFinished and GameAbandoned with.
GAME_ENDED = "league.tasks.game_ended"
# ... and to the events that can change a result (league.standings.TRIGGERS) with.
REFRESH_STANDINGS = "league.tasks.refresh_standings"


@shared_task(name=GAME_ENDED, ignore_result=True)
def game_ended(game_id: int) -> bool:
    """A game ended: mark its table's round complete when all its tables are
    (delivered at least once: checking again changes nothing)."""
    return services.game_ended(game_id)


@shared_task(name="league.tasks.check_open_rounds", ignore_result=True)
def check_open_rounds() -> int:
    """Check every published round for completion (safe to run from beat)."""
    return services.check_open_rounds()


@shared_task(name=REFRESH_STANDINGS, ignore_result=True)
def refresh_standings(game_id: int) -> int:
    """Bring the standings of the tournament ``game_id`` belongs to up to date (queued
    through the outbox by the events that change results)."""
    refreshed = projection.refresh_game(game_id)
    return 0 if refreshed is None else refreshed.position


@shared_task(name="league.tasks.catch_up_standings", ignore_result=True)
def catch_up_standings() -> int:
    """The beat's catch-up: refresh every tournament with games."""
    return projection.refresh_all()


@shared_task(name="league.tasks.refresh_ratings", ignore_result=True)
def refresh_ratings(game_id: int) -> str:
    """Bring the ratings of ``game_id``'s club and game family up to date with its log."""
    return ratings.refresh_game(game_id)


@shared_task(name="league.tasks.catch_up_ratings", ignore_result=True)
def catch_up_ratings() -> int:
    """The beat's catch-up: refresh every club's ratings (cheap when nothing changed)."""
    return ratings.catch_up()
