"""Helpers of the database-backed tests: API clients and games opened and played through
the services, as the API opens and plays them."""

from __future__ import annotations

from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import engine
from games import services
from games.models import Game, Source


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
    followed: bool = False,
    **options: Any,
) -> services.SubmitResult:
    return services.create_game(
        ruleset=engine.get_ruleset(preset, **options),
        mode=mode,
        seats=seats,
        first_dealer=first_dealer,
        owner=owner,
        source=Source.API,
        followed=followed,
    )


def play(game_id: int, actor: Any, command: dict[str, Any], **kwargs: Any) -> services.SubmitResult:
    """Submit ``command`` at the game's current version (the row read as the API reads it)."""
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
