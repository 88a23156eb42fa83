"""Helpers of the league tests: driving a tournament through the API, and recording a
physical table's game to its end."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from rest_framework.test import APIClient

from games.models import Game
from league import services as league_services
from league.models import Player, Tournament

_keys = itertools.count(1)

ELEVEN = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim")


def write(client: APIClient, method: str, url: str, body: Any = None, key: str | None = None) -> Any:
    """A write with a fresh Idempotency-Key (or ``key``)."""
    send = getattr(client, method.lower())
    return send(url, body or {}, format="json", HTTP_IDEMPOTENCY_KEY=key or f"test-{next(_keys)}")


def checked_in_tournament(staff: dict[str, Any], names: Sequence[str], **data: Any) -> Tournament:
    """A tournament made through the services (3-4 a table, 4 rounds, seed ``s`` unless
    ``data`` says otherwise) with ``names`` registered and checked in."""
    body = {
        "name": "Cup",
        "table_size": {"min": 3, "max": 4},
        "rounds": 4,
        "seed": "s",
        "options": {"hands": 1},
    }
    tournament = league_services.create_tournament(staff["club"], {**body, **data}, staff["director"])
    for name in names:
        player, _ = Player.objects.get_or_create(club=staff["club"], name=name)
        registration = league_services.register(tournament, player=player)
        league_services.set_registration_status(registration, "checked_in")
    return tournament


def create_tournament(client: APIClient, club_id: int, **body: Any) -> dict[str, Any]:
    data = {
        "name": "Spring Cup",
        "kind": "tournament",
        "preset": "knock-rummy",
        "options": {"hands": 1},
        "mode": "physical",
        "table_size": {"min": 3, "max": 4},
        "seating": "balanced",
        "rounds": 3,
        "seed": "spring",
        **body,
    }
    data = {key: value for key, value in data.items() if value is not None}  # None: leave it out
    response = write(client, "POST", f"/api/v1/clubs/{club_id}/tournaments", data)
    assert response.status_code == 201, response.json()
    result: dict[str, Any] = response.json()
    return result


def register_and_check_in(client: APIClient, tournament_id: int, names: tuple[str, ...]) -> list[int]:
    ids = []
    for name in names:
        response = write(client, "POST", f"/api/v1/tournaments/{tournament_id}/registrations", {"name": name})
        assert response.status_code == 201, response.json()
        ids.append(response.json()["player"])
    for player in ids:
        url = f"/api/v1/tournaments/{tournament_id}/registrations/{player}"
        response = write(client, "PATCH", url, {"status": "checked_in"})
        assert response.status_code == 200, response.json()
    return ids


def record_to_the_end(client: APIClient, game_id: int, winner: int = 0) -> dict[str, Any]:
    """Record hands of a physical game until it is over: ``winner`` knocks each hand
    with 2 deadwood, everyone else holds more (distinct counts, so no ties)."""
    for _ in range(20):
        game = Game.objects.get(pk=game_id)
        if game.status in ("finished", "abandoned"):
            break
        counts = {str(seat): (2 if seat == winner else 20 + seat) for seat in range(len(game.seats))}
        command = {"type": "RecordHandResult", "knocker": winner, "deadwood": counts}
        response = write(
            client,
            "POST",
            f"/api/v1/games/{game_id}/commands",
            {"expected_version": game.version, "command": command},
        )
        assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=game_id)
    assert game.status == "finished", game.status
    return {"id": game.pk, "status": game.status}


def finish_round(round_: Any, recorder: Any, winners: dict[int, int] | None = None) -> None:
    """Record every game of a published round to its end through the game services:
    at table ``n`` the seat ``winners.get(n, 0)`` wins every hand."""
    from games import services
    from games.models import Source

    for table in round_.tables.all():
        winner = (winners or {}).get(table.number, 0)
        for _ in range(20):
            game = Game.objects.get(pk=table.game_id)
            if game.status in ("finished", "abandoned"):
                break
            counts = {str(seat): (2 if seat == winner else 20 + seat) for seat in range(len(game.seats))}
            services.submit_command(
                game=game,
                command={"type": "RecordHandResult", "knocker": winner, "deadwood": counts},
                actor=recorder,
                source=Source.SYSTEM,
                expected_version=game.version,
            )
