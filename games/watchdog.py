"""Bot turns the broker lost. The outbox marks a row sent once Redis has it, so a bot
turn queued in a Redis that restarts without its data is gone, and nothing else would
ever move that game. Beat runs :func:`requeue_stuck_bot_turns` periodically: a digital
game whose seat to act is a bot and that has had no event for
``settings.BOT_TURN_WATCHDOG_AFTER`` gets its bot turn enqueued again. That is safe to
repeat: a turn is keyed by the game's version (``bot:<game>:<version>``), so a second
delivery of the same turn finds the version moved or the key used and writes nothing.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from config.celery import app as celery_app
from games import outbox, services, store
from games.models import Game, Mode

log = logging.getLogger(__name__)

# Games re-enqueued by one run at most; the next run takes the rest.
REQUEUE_LIMIT = 200


def stuck_bot_games(*, older_than: timedelta, limit: int = REQUEUE_LIMIT) -> list[tuple[int, int]]:
    """(game id, version) of the digital games, oldest first, waiting for a bot with no
    event for ``older_than``."""
    cutoff = timezone.now() - older_than
    candidates = (
        Game.objects.filter(mode=Mode.DIGITAL, updated_at__lt=cutoff)
        .exclude(status__in=services.FINAL_STATUSES)
        .order_by("updated_at", "id")
    )
    stuck: list[tuple[int, int]] = []
    for game in candidates.iterator():
        if len(stuck) >= limit:
            break
        # Cheap test first: most waiting games are waiting for a person and seat no bot.
        if not any(seat.get("bot") for seat in game.seats):
            continue
        if services.bot_to_move(store.load_state(game)):
            stuck.append((game.pk, game.version))
    return stuck


def requeue_stuck_bot_turns(*, older_than: timedelta | None = None) -> int:
    """Enqueue the bot turn of every stuck game again; returns how many were sent."""
    after = older_than if older_than is not None else settings.BOT_TURN_WATCHDOG_AFTER
    sent = 0
    for game_id, version in stuck_bot_games(older_than=after):
        log.warning("game %s: no bot move at version %s for %s; enqueuing it again", game_id, version, after)
        try:
            celery_app.tasks[outbox.PLAY_BOT_TURN].apply_async(
                kwargs={"game_id": game_id, "expected_version": version}
            )
        except Exception:  # the broker is down: the next run tries again
            log.exception("game %s: enqueuing the bot turn failed", game_id)
            continue
        sent += 1
    return sent
