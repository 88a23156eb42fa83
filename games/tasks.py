"""Celery tasks of the games app: thin, ids in, idempotent."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task

from games import outbox, services, watchdog


@shared_task(name="games.tasks.ping")
def ping(value: str) -> str:
    """A round trip through the broker: the worker echoes what it was sent."""
    return f"pong:{value}"


@shared_task(name="games.tasks.drain_outbox", ignore_result=True)
def drain_outbox() -> int:
    """Re-send outbox rows left undispatched (the process died between commit and send)."""
    return outbox.drain()


@shared_task(name=outbox.PLAY_BOT_TURN, ignore_result=True)
def play_bot_turn(game_id: int, expected_version: int) -> int:
    """Play the bot seats of ``game_id`` from ``expected_version`` until a human must act."""
    return services.run_bot_turns(game_id=game_id, expected_version=expected_version)


@shared_task(name="games.tasks.watch_bot_turns", ignore_result=True)
def watch_bot_turns(older_than_seconds: float | None = None) -> int:
    """Enqueue again the bot turns the broker lost (see :mod:`games.watchdog`): of games
    waiting ``older_than_seconds`` (beat gives none: ``settings.BOT_TURN_WATCHDOG_AFTER``)."""
    after = None if older_than_seconds is None else timedelta(seconds=older_than_seconds)
    return watchdog.requeue_stuck_bot_turns(older_than=after)
