"""The bot-turn watchdog: which games it finds stuck, that it moves them (eager here),
that repeating it is harmless, and — in CI, with the real broker and worker — that a
bot turn the broker lost is played again with no further write."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from games import services, store, watchdog
from games.models import Game, GameEvent, Source
from games.tasks import watch_bot_turns
from tests.support.games import new_game, play

LONG_AGO = timedelta(minutes=5)


def age(game: Game, by: timedelta) -> None:
    Game.objects.filter(pk=game.pk).update(updated_at=timezone.now() - by)


def bot_waits(owner: Any, user: Any) -> services.SubmitResult:
    """A digital game whose bot is to move; its outbox row is never sent (the test's
    transaction never commits), exactly as if the broker had lost the turn."""
    created = new_game(
        owner, [services.SeatSpec(user_id=user.pk), services.SeatSpec(bot="greedy")], first_dealer=0
    )
    assert created.state.to_move == 1
    return created


@pytest.mark.django_db
def test_the_watchdog_selects_only_digital_games_long_waiting_for_a_bot(
    owner: Any, ann: Any, bob: Any
) -> None:
    stuck = bot_waits(owner, ann).game
    recent = bot_waits(owner, bob).game
    human_turn = new_game(
        owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")], first_dealer=1
    )
    assert human_turn.state.to_move == 0
    people = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])
    physical = new_game(
        owner, [services.SeatSpec("A"), services.SeatSpec("B", bot="greedy")], mode="physical"
    )
    over = bot_waits(owner, bob).game
    play(over.pk, owner, {"type": "AbandonGame", "reason": "rain"})
    for game in (stuck, human_turn.game, people.game, physical.game, over):
        age(Game.objects.get(pk=game.pk), LONG_AGO)
    assert watchdog.stuck_bot_games(older_than=timedelta(seconds=30)) == [(stuck.pk, stuck.version)]
    assert recent.pk in dict(watchdog.stuck_bot_games(older_than=timedelta(0)))
    assert watchdog.stuck_bot_games(older_than=timedelta(seconds=30), limit=0) == []


@pytest.mark.django_db
def test_the_watchdog_task_moves_a_stuck_bot_game_once(
    owner: Any, ann: Any, eager_celery: None, settings: Any
) -> None:
    settings.BOT_TURN_WATCHDOG_AFTER = timedelta(seconds=1)
    created = bot_waits(owner, ann)
    game = created.game
    assert watch_bot_turns() == 0  # not waiting long enough yet
    assert Game.objects.get(pk=game.pk).version == created.version
    age(game, LONG_AGO)
    assert watch_bot_turns(older_than_seconds=3600) == 0  # a threshold of its own: not yet
    assert watch_bot_turns() == 1
    game.refresh_from_db()
    assert game.version > created.version
    assert store.load_state(game, use_cache=False).to_move == 0  # the bot played; ann's turn
    first = GameEvent.objects.filter(game=game, source=Source.BOT).order_by("seq").first()
    assert first is not None and first.command_key == f"bot:{game.pk}:{created.version}"
    # running it again finds nothing to do: the game waits for a person now
    age(game, LONG_AGO)
    count = GameEvent.objects.count()
    assert watch_bot_turns() == 0
    assert GameEvent.objects.count() == count


@pytest.mark.django_db
def test_a_broker_refusing_the_turn_is_logged_and_left_for_the_next_run(
    owner: Any, ann: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games.tasks import play_bot_turn

    created = bot_waits(owner, ann)
    age(created.game, LONG_AGO)

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(play_bot_turn, "apply_async", broker_down)
    assert watchdog.requeue_stuck_bot_turns() == 0
    assert watchdog.stuck_bot_games(older_than=timedelta(seconds=30)) == [(created.game.pk, created.version)]


# Where the CI test sends the original bot turn: a queue no worker consumes, which the
# test then deletes from Redis — the broker has lost the turn, deterministically.
LOST_QUEUE = "lost-bot-turns"


@pytest.mark.django_db(transaction=True)
def test_a_bot_turn_the_broker_lost_is_played_again_by_the_watchdog(
    broker_required: None, postgres_required: None, owner: Any, ann: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from config.celery import app as celery_app
    from games.tasks import play_bot_turn

    sent_to_lost_queue = play_bot_turn.apply_async

    def to_a_queue_nobody_reads(*args: Any, **kwargs: Any) -> Any:
        return sent_to_lost_queue(*args, **{**kwargs, "queue": LOST_QUEUE})

    monkeypatch.setattr(play_bot_turn, "apply_async", to_a_queue_nobody_reads)
    created = new_game(
        owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")], first_dealer=0
    )
    monkeypatch.undo()
    assert created.state.to_move == 1
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    assert broker.llen(LOST_QUEUE) == 1  # the outbox handed the turn to Redis...
    broker.delete(LOST_QUEUE)  # ...and Redis lost it (a restart without persistence)
    game = Game.objects.get(pk=created.game.pk)
    assert game.version == created.version

    # What beat does every 30 s, with a threshold of 1 s instead of the default 30 s (the
    # game waits here only as long as the test takes).
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        watch_bot_turns.delay(older_than_seconds=1)
        time.sleep(1)
        game.refresh_from_db()
        if game.version > created.version:
            break
    else:
        pytest.fail(f"the lost bot turn was not played again within 60 s (version {game.version})")
    first = GameEvent.objects.filter(game=game, source=Source.BOT).order_by("seq").first()
    assert first is not None and first.command_key == f"bot:{game.pk}:{created.version}"
    assert not GameEvent.objects.filter(
        game=game, source__in=[Source.API, Source.WEB], seq__gt=created.version
    )
    assert celery_app.conf.CELERY_TASK_ALWAYS_EAGER is False
    close_old_connections()
