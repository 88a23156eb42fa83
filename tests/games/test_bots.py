"""Bot seats and the outbox: turns are played after commit, duplicates write nothing,
a crash between commit and send is repaired by drain_outbox, and in CI a real Celery
worker plays a bot turn."""

from __future__ import annotations

import sys
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import close_old_connections
from django.utils import timezone

import engine
from games import outbox, services, store
from games.models import Game, GameEvent, OutboxMessage, Source
from games.tasks import drain_outbox, play_bot_turn
from tests.support.games import new_game, play

BOTS = [services.SeatSpec(bot="greedy"), services.SeatSpec(bot="random")]


def stack_depth() -> int:
    frame, depth = sys._getframe(), 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1  # type: ignore[assignment]
    return depth


def replayed_state(game_id: int) -> Any:
    return store.load_state(Game.objects.get(pk=game_id), use_cache=False)


@pytest.mark.django_db
def test_a_bot_game_is_driven_to_completion_through_the_outbox(
    owner: Any, eager_celery: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        created = new_game(owner, BOTS, preset="knock-rummy", hands=3)
    game = Game.objects.get(pk=created.game.pk)
    assert game.status == "finished"
    assert game.version == replayed_state(game.pk).version > 10
    assert not OutboxMessage.objects.filter(dispatched_at__isnull=True).exists()
    sources = set(GameEvent.objects.filter(game=game).values_list("source", flat=True))
    assert sources == {Source.API, Source.SYSTEM, Source.BOT}
    bot_events = GameEvent.objects.filter(game=game, source=Source.BOT)
    bot_keys = bot_events.values_list("idempotency_key", flat=True)
    assert all(key.startswith(f"bot:{game.pk}:") for key in bot_keys)


@pytest.mark.django_db
def test_a_bot_answers_a_human_move_and_hands_the_turn_back(
    owner: Any, ann: Any, eager_celery: None, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        created = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")])
    assert created.state.to_move == 0
    game_id = created.game.pk
    drawn = play(game_id, ann, {"type": "DrawFromStock", "seat": 0}).state
    discard = next(c for c in engine.view(drawn, 0).legal_commands if c.TYPE == "Discard")
    with django_capture_on_commit_callbacks(execute=True):
        after_ann = play(game_id, ann, engine.command_to_dict(discard)).state
    assert after_ann.to_move == 1
    now = replayed_state(game_id)
    assert now.version > after_ann.version  # the bot moved after ann
    assert now.to_move == 0 or now.status != "playing"
    assert GameEvent.objects.filter(game_id=game_id, seq=after_ann.version + 1).get().source == Source.BOT


@pytest.mark.django_db
def test_a_duplicate_delivery_writes_nothing(owner: Any, ann: Any) -> None:
    created = new_game(
        owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")], first_dealer=0
    )
    version = created.version
    assert play_bot_turn(created.game.pk, version) >= 2  # the bot draws, then discards
    assert replayed_state(created.game.pk).to_move in (0, None)
    count = GameEvent.objects.count()
    assert play_bot_turn(created.game.pk, version) == 0
    assert GameEvent.objects.count() == count


@pytest.mark.django_db
def test_drain_outbox_resends_what_a_crash_left_behind(owner: Any, ann: Any, eager_celery: None) -> None:
    # on_commit never runs in this test: exactly the crash between commit and send
    created = new_game(
        owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")], first_dealer=0
    )
    message = OutboxMessage.objects.get()
    assert drain_outbox() == 0  # too young: its on_commit send may still be under way
    OutboxMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(seconds=30))
    assert drain_outbox() == 1
    message.refresh_from_db()
    assert message.dispatched_at is not None and message.attempts == 1
    assert Game.objects.get(pk=created.game.pk).version > created.version
    assert drain_outbox() == 0


@pytest.mark.django_db
def test_a_failed_send_is_kept_for_the_drain(owner: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    new_game(owner, [services.SeatSpec("A"), services.SeatSpec(bot="greedy")], first_dealer=0)
    message = OutboxMessage.objects.get()

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(play_bot_turn, "apply_async", broker_down)
    assert outbox.send(message) is False
    message.refresh_from_db()
    assert message.dispatched_at is None and message.attempts == 1 and "broker down" in message.last_error


@pytest.mark.django_db(transaction=True)
def test_eager_bot_games_with_real_commits_do_not_recurse(
    postgres_required: None, owner: Any, eager_celery: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every move commits and its outbox row is dispatched on commit; the bot loop holds
    those rows, and with a small cap per task the turns hop from task to task."""
    monkeypatch.setattr(services, "BOT_MOVES_PER_TASK", 7)
    depths: list[int] = []
    play_one = services._play_bot_move

    def measured(game_id: int, version: int) -> tuple[int | None, bool]:
        depths.append(stack_depth())
        return play_one(game_id, version)

    monkeypatch.setattr(services, "_play_bot_move", measured)
    created = new_game(owner, BOTS, hands=8)
    assert len(depths) > 15
    # the stack grows by one task per 7 moves, not by one per move
    assert max(depths) - min(depths) < 40 * (len(depths) // 7 + 1)
    game = Game.objects.get(pk=created.game.pk)
    assert game.status == "finished"
    assert game.version == replayed_state(game.pk).version
    assert not OutboxMessage.objects.filter(dispatched_at__isnull=True).exists()
    seqs = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, game.version + 1))


@pytest.mark.django_db(transaction=True)
def test_a_real_celery_worker_plays_the_bot_turn(
    broker_required: None, postgres_required: None, owner: Any, ann: Any
) -> None:
    created = new_game(
        owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")], first_dealer=0
    )
    assert created.state.to_move == 1
    deadline = time.monotonic() + 30
    game = Game.objects.get(pk=created.game.pk)
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.version > created.version and store.load_state(game, use_cache=False).to_move != 1:
            break
        time.sleep(0.2)
    else:
        pytest.fail(f"the worker did not play the bot's turn within 30 s (version {game.version})")
    bot_events = GameEvent.objects.filter(game=game, source=Source.BOT)
    assert bot_events.exists()
    assert bot_events.order_by("seq").first().command_key == f"bot:{game.pk}:{created.version}"
    message = OutboxMessage.objects.get(payload__game_id=game.pk, payload__expected_version=created.version)
    assert message.dispatched_at is not None
    close_old_connections()
