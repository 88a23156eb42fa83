"""schemathesis over /api/schema/, in process against the Django WSGI app: requests
generated from the schema (valid and invalid for it) never answer a 5xx, and every
error is JSON with a code. Bounded: 15 examples per operation (and its method and
content-type variants), derandomized, no example database, so the run is the same every
time and takes seconds."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token

from games import services
from league import services as league_services
from league.models import Club, Membership
from tests.support.games import new_game

EXAMPLES_PER_OPERATION = 15


@pytest.fixture
def keep_connection() -> Iterator[None]:
    """The WSGI handler closes the database connection after every request, which ends
    the test's transaction on PostgreSQL; Django's test client does what this does."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def table(keep_connection: None, owner: Any, ann: Any) -> dict[str, Any]:
    """A digital game ann owns and plays seat 0 of, a club she directs and its tournament
    with six players checked in and round 1 in draft: generated
    requests are pointed at them (random ids would only ever find 404s)."""
    game = new_game(ann, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")]).game
    club = Club.objects.create(name="Club", slug="club")
    Membership.objects.create(club=club, user=ann, role=Membership.Role.DIRECTOR)
    token = Token.objects.get_or_create(user=ann)[0].key
    data = {"name": "Cup", "table_size": {"min": 3, "max": 4}, "rounds": 3, "seed": "schema"}
    tournament = league_services.create_tournament(club, data, ann)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
        registration = league_services.register(tournament, name=name)
        league_services.set_registration_status(registration, "checked_in")
    league_services.generate_round(tournament, ann)  # round 1, a draft
    return {
        "game_id": game.pk,
        "club_id": club.pk,
        "tournament_id": tournament.pk,
        "player_id": registration.player_id,
        "number": 1,
        "token": token,
    }


# Loaded when the module is collected (the schema view reads no database).
# schemathesis.pytest.from_fixture would load it per test, but its lazy loader sets a
# private attribute pytest 9 no longer has.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@schema.parametrize()
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@pytest.mark.django_db
def test_generated_requests_never_answer_5xx(case: Any, table: dict[str, Any]) -> None:
    for name in ("game_id", "club_id", "tournament_id", "player_id", "number"):
        if name in (case.path_parameters or {}):
            case.path_parameters[name] = table[name]
    headers = {"Authorization": f"Token {table['token']}"} if "auth" not in case.operation.path else {}
    response = case.call(headers=headers)
    assert response.status_code < 500, (case.method, case.path, response.status_code, response.text[:300])
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("code"), str) and body["code"], body
