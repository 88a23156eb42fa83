"""Fixtures of the event-store tests: users, API clients, games ready to play."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import engine
from config.celery import app as celery_app
from games import services, store
from games.models import Source


@pytest.fixture(autouse=True)
def _fresh_state_cache() -> Iterator[None]:
    store.state_cache.clear()
    yield
    store.state_cache.clear()


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Run outbox tasks in process, even when a broker is configured (CI)."""
    # The app reads Django settings (CELERY_ namespace): override the prefixed keys.
    conf = celery_app.conf
    saved = conf.CELERY_TASK_ALWAYS_EAGER, conf.CELERY_TASK_EAGER_PROPAGATES
    conf.CELERY_TASK_ALWAYS_EAGER = conf.CELERY_TASK_EAGER_PROPAGATES = True
    yield
    conf.CELERY_TASK_ALWAYS_EAGER, conf.CELERY_TASK_EAGER_PROPAGATES = saved


@pytest.fixture
def make_user(db: None, settings: Any) -> Callable[..., Any]:
    # Hashing with the production hasher costs a third of a second per user.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    def make(username: str) -> Any:
        return get_user_model().objects.create_user(username=username, password="pw-" + username)

    return make


@pytest.fixture
def ann(make_user: Callable[..., Any]) -> Any:
    return make_user("ann")


@pytest.fixture
def bob(make_user: Callable[..., Any]) -> Any:
    return make_user("bob")


@pytest.fixture
def owner(make_user: Callable[..., Any]) -> Any:
    return make_user("olga")


def client_for(user: Any | None, *, token: bool = False) -> APIClient:
    client = APIClient()
    if user is not None:
        if token:
            key = Token.objects.get_or_create(user=user)[0].key
            client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        else:
            client.force_login(user)
    return client


def new_game(
    owner: Any,
    seats: list[services.SeatSpec],
    *,
    mode: str = "digital",
    preset: str = "knock-rummy",
    first_dealer: int = 1,
    **options: Any,
) -> services.SubmitResult:
    return services.create_game(
        ruleset=engine.get_ruleset(preset, **options),
        mode=mode,
        seats=seats,
        first_dealer=first_dealer,
        owner=owner,
        source=Source.API,
    )


@pytest.fixture
def duel(owner: Any, ann: Any, bob: Any) -> services.SubmitResult:
    """A dealt digital knock-rummy game: ann in seat 0 (to move first), bob in seat 1."""
    return new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])


def play(game_id: int, actor: Any, command: dict[str, Any], **kwargs: Any) -> services.SubmitResult:
    """Submit ``command`` at the game's current version (the row read as the API reads it)."""
    from games.models import Game

    game = Game.objects.defer("snapshot").get(pk=game_id)
    return services.submit_command(
        game=game,
        command=command,
        actor=actor,
        source=Source.API,
        expected_version=kwargs.pop("expected_version", game.version),
        **kwargs,
    )


def a_legal_move(state: Any, seat: int | None = None) -> dict[str, Any]:
    """The first legal command of the seat to move (its own view decides; a physical game's
    moves are entered by its recorder, who sees every card the seat could hold)."""
    seat = state.to_move if seat is None else seat
    recorder = state.mode == "physical"
    return engine.command_to_dict(engine.view(state, seat, recorder=recorder).legal_commands[0])


@pytest.fixture
def grant_recorder(monkeypatch: pytest.MonkeyPatch) -> Callable[[Any, Any], None]:
    """Make a user a scorekeeper of one game through games.access's recorder checks,
    the extension point the league uses for its clubs."""
    from games import access

    granted: set[tuple[int, int]] = set()

    def check(user_id: int, game: Any) -> bool:
        return (user_id, game.pk) in granted

    monkeypatch.setattr(access, "_recorder_checks", [*access._recorder_checks, check])

    def grant(user: Any, game: Any) -> None:
        granted.add((user.pk, game.pk))

    return grant
