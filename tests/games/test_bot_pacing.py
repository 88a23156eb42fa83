"""Bot pacing: a per-game delay between bot moves, carried out as a Celery countdown on
each bot turn (the wait is in the broker, never a sleep in a worker)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import engine
from config.celery import app as celery_app
from games import services
from games.models import Game, OutboxMessage
from games.tasks import play_bot_turn

# The bot sits in seat 0, which moves first when seat 1 deals.
BOT_FIRST = [services.SeatSpec(bot="greedy"), services.SeatSpec(name="Ann")]


@contextmanager
def celery_eager(value: bool) -> Iterator[None]:
    conf = celery_app.conf
    saved = conf.CELERY_TASK_ALWAYS_EAGER
    conf.CELERY_TASK_ALWAYS_EAGER = value
    try:
        yield
    finally:
        conf.CELERY_TASK_ALWAYS_EAGER = saved


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """A broker that records what it is sent (Celery not eager), and no sleeping anywhere."""
    calls: list[dict[str, Any]] = []

    def record(*, kwargs: dict[str, Any], **options: Any) -> None:
        calls.append({"kwargs": kwargs, **options})

    def no_sleep(seconds: float) -> None:
        raise AssertionError(f"slept {seconds} s")

    monkeypatch.setattr(play_bot_turn, "apply_async", record)
    monkeypatch.setattr(time, "sleep", no_sleep)
    with celery_eager(False):
        yield calls


def create(owner: Any, **kwargs: Any) -> services.SubmitResult:
    return services.create_game(
        ruleset=engine.get_ruleset("knock-rummy"),
        mode="digital",
        seats=BOT_FIRST,
        first_dealer=1,
        owner=owner,
        source="api",
        **kwargs,
    )


@pytest.mark.django_db
def test_a_bot_turn_is_sent_with_the_default_delay_as_its_countdown(
    owner: Any, settings: Any, sent: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    settings.BOT_MOVE_DELAY = 0.8
    with django_capture_on_commit_callbacks(execute=True):
        created = create(owner)
    game_id, version = created.game.pk, created.version
    assert sent == [{"kwargs": {"game_id": game_id, "expected_version": version}, "countdown": 0.8}]
    # The task plays one move only, then hands over to the next turn, paced again.
    with django_capture_on_commit_callbacks(execute=True):
        assert services.run_bot_turns(game_id=game_id, expected_version=version) == 1
    assert sent[1] == {"kwargs": {"game_id": game_id, "expected_version": version + 1}, "countdown": 0.8}
    assert not OutboxMessage.objects.filter(dispatched_at__isnull=True).exists()


@pytest.mark.django_db
def test_a_game_sets_its_own_delay(
    owner: Any, settings: Any, sent: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    settings.BOT_MOVE_DELAY = 0.8
    with django_capture_on_commit_callbacks(execute=True):
        create(owner, bot_delay=2.5)
        create(owner, bot_delay=0)
    assert [call.get("countdown") for call in sent] == [2.5, None]


@pytest.mark.django_db
def test_without_a_delay_one_task_plays_every_bot_move_in_a_row(
    owner: Any, sent: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        created = create(owner)
    assert "countdown" not in sent[0]
    played = services.run_bot_turns(game_id=created.game.pk, expected_version=created.version)
    assert played == 2  # the bot draws and discards; then Ann is to move


@pytest.mark.django_db
def test_eager_celery_cannot_wait_so_bots_move_at_once(owner: Any, settings: Any) -> None:
    settings.BOT_MOVE_DELAY = 0.8
    with celery_eager(True):
        created = create(owner, bot_delay=2)
        assert services.bot_move_delay(created.game) == 0
    with celery_eager(False):
        assert services.bot_move_delay(created.game) == 2


@pytest.mark.django_db
@pytest.mark.parametrize("delay", [-1, 10.5])
def test_a_delay_out_of_range_is_refused(owner: Any, delay: float) -> None:
    with pytest.raises(engine.IllegalMove) as refused:
        create(owner, bot_delay=delay)
    assert refused.value.code == "malformed_command"


@pytest.mark.django_db
def test_the_api_sets_a_games_bot_delay(ann: Any) -> None:
    from tests.support.games import client_for

    client = client_for(ann)
    body = {"preset": "gin-rummy", "seats": [{"user": ann.pk}, {"bot": "greedy"}]}
    created = client.post("/api/v1/games", {**body, "bot_delay": "1.5"}, format="json")
    assert created.status_code == 201
    assert Game.objects.get(pk=created.json()["id"]).bot_delay == 1.5
    default = client.post("/api/v1/games", body, format="json")
    assert Game.objects.get(pk=default.json()["id"]).bot_delay is None
    for bad in ("11", "-1", "NaN", "soon", "0.001"):
        refused = client.post("/api/v1/games", {**body, "bot_delay": bad}, format="json")
        assert refused.status_code == 400, bad
        assert "bot_delay" in str(refused.json()), (bad, refused.json())
    assert Game.objects.count() == 2
