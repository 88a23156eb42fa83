"""The hostile corpus (tests/games/hostile.py) against every endpoint: never a 5xx, every
error JSON with a stable code, a refused write changes nothing, an accepted one can be
read back (docs/api.md, "Limits").

The world a case needs is built once per endpoint (the ``world`` fixture, parametrized by
the endpoint's name at module scope, so pytest runs an endpoint's cases one after the
other) and each case runs in a savepoint of it, rolled back after the case
(tests/support/worlds.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from games import services
from games.models import Game, GameEvent
from league import services as league_services
from league.models import Club, Membership, Player
from tests.games.hostile import (
    CLUB,
    ENDPOINTS,
    GAME,
    PHYSICAL,
    PLAYER,
    READS,
    TOURNAMENT,
    Case,
    Endpoint,
    corpus,
)
from tests.support.games import new_game
from tests.support.worlds import make_user, shared_world

pytestmark = pytest.mark.django_db

CASES = corpus()
# Every endpoint the corpus sends to, by its place here; its cases together (in the
# corpus's order otherwise), so that each world is built once.
ALL_ENDPOINTS = [*ENDPOINTS, *READS]
BY_ENDPOINT = sorted(CASES, key=lambda case: ALL_ENDPOINTS.index(case.endpoint))


def test_the_corpus_covers_every_class_and_endpoint() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids)) and len(ids) >= 500
    for word in ("nesting", "numbers", "strings", "types", "malformed", "content_type", "unknown_field"):
        assert any(f"-{word}-" in i or i.endswith(f"-{word}") for i in ids), word
    for word in ("idempotency_key", "authorization", "query-seat", "query-after", "options.name"):
        assert any(word in i for i in ids), word
    names = {case.endpoint.name for case in CASES}
    assert names >= {
        "create",
        "club_create",
        "draw",
        "record",
        "import",
        "token",
        "detail",
        "events",
        "export",
        "tournament_create",
        "round_edit",
        "round_publish",
        "ratings",
        "archive",
    }


def build_world(endpoint: Endpoint) -> dict[str, Any]:
    """Only what ``endpoint``'s cases need: the digital duel (ann in seat 0, to move; bob
    in seat 1; olga owns it without a seat), a physical game olga records (awaiting its
    first deal), or a club Dora directs."""
    owner, ann, bob = make_user("olga"), make_user("ann"), make_user("bob")
    games: dict[str, int] = {}
    callers = {"player": ann, "owner": owner, "anonymous": None}
    club = None
    needs = endpoint.game or (
        "digital" if GAME in endpoint.path else "physical" if PHYSICAL in endpoint.path else ""
    )
    if needs == "digital":
        duel = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])
        games["digital"] = duel.game.pk
    elif needs == "physical":
        physical = new_game(owner, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical")
        games["physical"] = physical.game.pk
    tournament, player = None, None
    if CLUB in endpoint.path or TOURNAMENT in endpoint.path or PLAYER in endpoint.path:
        callers["director"] = make_user("dora")
        club = Club.objects.create(name="Club", slug="club")
        Membership.objects.create(club=club, user=callers["director"], role=Membership.Role.DIRECTOR)
    if club is not None and TOURNAMENT in endpoint.path:
        data = {"name": "Cup", "table_size": {"min": 3, "max": 4}, "rounds": 3, "seed": "fuzz"}
        made = league_services.create_tournament(club, data, callers["director"])
        for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
            registration = league_services.register(made, name=name)
            league_services.set_registration_status(registration, "checked_in")
        league_services.generate_round(made, callers["director"])
        tournament, player = made.pk, registration.player_id
    elif club is not None and PLAYER in endpoint.path:
        player = Player.objects.create(club=club, name="Pia").pk
    return {
        "games": games,
        "club": club.pk if club else None,
        "tournament": tournament,
        "player": player,
        "callers": callers,
        # each caller signed in once, with the world: a case's client carries the session
        # (its row is the world's, so a case's savepoint leaves it), not a sign-in of its own
        "sessions": {name: session_of(user) for name, user in callers.items()},
    }


def session_of(user: Any | None) -> str | None:
    if user is None:
        return None
    client = APIClient()
    client.force_login(user)
    return str(client.session.session_key)


def client_as(world: dict[str, Any], caller: str) -> APIClient:
    """A client signed in as the world's ``caller`` (anonymous: no session)."""
    client = APIClient()
    session = world["sessions"][caller]
    if session is not None:
        client.cookies[settings.SESSION_COOKIE_NAME] = session
    return client


def fingerprint(game_id: int) -> tuple[int, int]:
    return Game.objects.get(pk=game_id).version, GameEvent.objects.filter(game_id=game_id).count()


def send(client: APIClient, case: Case, world: dict[str, Any]) -> Any:
    games = world["games"]
    path = (
        case.endpoint.path.replace(GAME, str(games.get("digital")))
        .replace(PHYSICAL, str(games.get(case.endpoint.game or "physical")))
        .replace(CLUB, str(world["club"]))
        .replace(TOURNAMENT, str(world["tournament"]))
        .replace(PLAYER, str(world["player"]))
    )
    endpoint = case.endpoint
    if case.query:
        path = f"{path}?{case.query}"
    headers = dict(case.headers)
    if endpoint.method == "GET":
        return client.get(path, **headers)
    return client.generic(endpoint.method, path, case.body or b"", content_type=case.content_type, **headers)


def assert_json_error(response: Any, case: Case) -> None:
    assert response["Content-Type"].startswith("application/json"), (case.id, response["Content-Type"])
    body = response.json()
    assert set(body) >= {"code", "message", "detail"}, (case.id, body)
    assert isinstance(body["code"], str) and body["code"] and isinstance(body["message"], str)


@pytest.fixture(scope="module")
def world(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> Iterator[dict[str, Any]]:
    """The world of one endpoint (``request.param``: its place in ALL_ENDPOINTS), for all
    its cases."""
    with shared_world(django_db_blocker):
        yield build_world(ALL_ENDPOINTS[request.param])


@pytest.mark.parametrize(
    ("world", "case"),
    [(ALL_ENDPOINTS.index(case.endpoint), case) for case in BY_ENDPOINT],
    ids=[case.id for case in BY_ENDPOINT],
    indirect=["world"],
    scope="module",
)
def test_a_hostile_request_is_never_a_5xx(world: dict[str, Any], case: Case) -> None:
    endpoint = case.endpoint
    client = client_as(world, endpoint.caller)
    client.raise_request_exception = False
    written = world["games"][endpoint.game] if endpoint.game else None
    before = fingerprint(written) if written else None
    games_before = Game.objects.count()

    response = send(client, case, world)

    assert response.status_code < 500, (case.id, response.status_code, response.content[:300])
    if response.status_code >= 400:
        assert_json_error(response, case)
        if written:
            assert fingerprint(written) == before, case.id
        assert Game.objects.count() == games_before, case.id
    else:
        assert not case.must_refuse, (case.id, response.status_code, response.content[:300])
        # A committed write always has a renderable answer, now and when read again.
        response.json()
        game_id = written or response.json().get("id")
        if endpoint.method == "POST" and game_id and not endpoint.league:
            for suffix in ("", "/events", "/export"):
                again = client_as(world, "owner").get(f"/api/v1/games/{game_id}{suffix}")
                assert again.status_code in (200, 403), (case.id, suffix, again.status_code)
    if case.must_refuse:
        assert 400 <= response.status_code < 500, case.id
