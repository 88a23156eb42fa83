"""Who may call which league endpoint: a role x endpoint matrix.

Roles: anonymous; a signed-in user of no role in the club (outsider); the club's
player, scorekeeper and director; the director of another club (foreign). Reads are
public, but a draft round is shown to the club's directors and scorekeepers only
(others get 404, as for a round that does not exist). Writes need the club's director
(anonymous: 401; any other role: 403), except opening a club game, which its
scorekeepers may too. A refused write changes nothing.

The world is built once for the module; each case runs in a savepoint of it, rolled back
after the case (tests/support/worlds.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from league import services
from league.models import Club, ClubGame, LeagueWrite, Membership, Player, Registration, Round, Tournament
from tests.support.games import client_for
from tests.support.league import write
from tests.support.worlds import make_user, shared_world

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "scorekeeper", "director", "foreign")
OK_ALL = dict.fromkeys(ROLES, 200)
DRAFT_READ = {**dict.fromkeys(ROLES, 404), "scorekeeper": 200, "director": 200}


def _write(ok: int) -> dict[str, int]:
    return {
        "anonymous": 401,
        "outsider": 403,
        "player": 403,
        "scorekeeper": 403,
        "director": ok,
        "foreign": 403,
    }


CLUB_GAME = {"mode": "physical", "seats": [{"name": "A"}, {"name": "B"}]}
TOURNAMENT = {"name": "Cup", "table_size": {"min": 3, "max": 4}, "rounds": 2, "seed": "s"}

# (name, method, path, body, expected status by role); {club}, {t}, {t2}, {p} are filled in
MATRIX: list[tuple[str, str, str, Any, dict[str, int]]] = [
    ("clubs", "GET", "/api/v1/clubs", None, OK_ALL),
    ("club", "GET", "/api/v1/clubs/{club}", None, OK_ALL),
    ("players", "GET", "/api/v1/clubs/{club}/players", None, OK_ALL),
    ("add player", "POST", "/api/v1/clubs/{club}/players", {"name": "Zed"}, _write(201)),
    ("club game", "POST", "/api/v1/clubs/{club}/games", CLUB_GAME, {**_write(201), "scorekeeper": 201}),
    ("tournaments", "GET", "/api/v1/clubs/{club}/tournaments", None, OK_ALL),
    ("create tournament", "POST", "/api/v1/clubs/{club}/tournaments", TOURNAMENT, _write(201)),
    ("tournament", "GET", "/api/v1/tournaments/{t}", None, OK_ALL),
    ("change tournament", "PATCH", "/api/v1/tournaments/{t}", {"name": "Renamed"}, _write(200)),
    ("registrations", "GET", "/api/v1/tournaments/{t}/registrations", None, OK_ALL),
    ("register", "POST", "/api/v1/tournaments/{t}/registrations", {"name": "Zed"}, _write(201)),
    ("check in", "PATCH", "/api/v1/tournaments/{t}/registrations/{p}", {"status": "dropped"}, _write(200)),
    ("rounds", "GET", "/api/v1/tournaments/{t}/rounds", None, OK_ALL),
    ("generate", "POST", "/api/v1/tournaments/{t2}/rounds", {}, _write(201)),
    ("draft round", "GET", "/api/v1/tournaments/{t}/rounds/1", None, DRAFT_READ),
    ("edit draft", "PATCH", "/api/v1/tournaments/{t}/rounds/1", {"swap": "{swap}"}, _write(200)),
    ("publish", "POST", "/api/v1/tournaments/{t}/rounds/1/publish", {}, _write(201)),
    ("published round", "GET", "/api/v1/tournaments/{t2}/rounds/1", None, OK_ALL),
]
# A draft is not found by those who may not see it: their writes to it are 404 too.
for name, _method, _path, _body, expected in MATRIX:
    if name in ("edit draft", "publish"):
        expected.update({"outsider": 404, "player": 404, "foreign": 404})


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    with shared_world(django_db_blocker):
        yield build_world()


def build_staff() -> dict[str, Any]:
    """As the ``staff`` fixture (tests/league/conftest.py): a club and one user in each role."""
    club = Club.objects.create(name="Kings", slug="kings")
    other = Club.objects.create(name="Queens", slug="queens")
    users = {name: make_user(name) for name in ("director", "scorekeeper", "player", "outsider", "foreign")}
    Membership.objects.create(club=club, user=users["director"], role=Membership.Role.DIRECTOR)
    Membership.objects.create(club=club, user=users["scorekeeper"], role=Membership.Role.SCOREKEEPER)
    Membership.objects.create(club=club, user=users["player"], role=Membership.Role.PLAYER)
    Membership.objects.create(club=other, user=users["foreign"], role=Membership.Role.DIRECTOR)
    return {"club": club, "other": other, **users}


def build_world() -> dict[str, Any]:
    staff = build_staff()
    club = staff["club"]
    director = staff["director"]
    tournaments = []
    for name in ("First", "Second"):
        tournament = services.create_tournament(
            club, {"name": name, "table_size": {"min": 3, "max": 4}, "rounds": 3, "seed": "perm"}, director
        )
        for player_name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
            player, _ = Player.objects.get_or_create(club=club, name=player_name)
            registration = services.register(tournament, player=player)
            services.set_registration_status(registration, "checked_in")
        tournaments.append(tournament)
    first, second = tournaments
    draft = services.generate_round(first, director)
    swap = [draft.tables.all()[0].seats.all()[0].player_id, draft.tables.all()[1].seats.all()[0].player_id]
    # the second has round 1 published and its games ended: round 2 may be generated
    published = services.publish_round(services.generate_round(second, director), director)
    for table in published.tables.all():
        assert table.game is not None
        table.game.status = "abandoned"
        table.game.save(update_fields=["status"])
    assert services.check_round_complete(published)
    p = Registration.objects.filter(tournament=first).first()
    assert p is not None
    return {**staff, "t": first.pk, "t2": second.pk, "p": p.player_id, "swap": swap}


def _fill(value: Any, world: dict[str, Any]) -> Any:
    if isinstance(value, str):
        if value == "{swap}":
            return world["swap"]
        return value.format(club=world["club"].pk, t=world["t"], t2=world["t2"], p=world["p"])
    if isinstance(value, dict):
        return {k: _fill(v, world) for k, v in value.items()}
    return value


def _snapshot() -> tuple[int, ...]:
    return (
        Player.objects.count(),
        Tournament.objects.count(),
        Registration.objects.count(),
        Round.objects.count(),
        ClubGame.objects.count(),
        LeagueWrite.objects.count(),
        len(Tournament.objects.filter(name="Renamed")),
        Registration.objects.filter(status="dropped").count(),
        Round.objects.filter(status="published").count(),
    )


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "method", "path", "body", "expected"), MATRIX, ids=[m[0] for m in MATRIX])
def test_permission_matrix(
    world: dict[str, Any], role: str, name: str, method: str, path: str, body: Any, expected: dict[str, int]
) -> None:
    client = client_for(None if role == "anonymous" else world[role])
    url = _fill(path, world)
    before = _snapshot()
    response = client.get(url) if method == "GET" else write(client, method, url, _fill(body, world))
    assert response.status_code == expected[role], (role, name, response.json())
    if response.status_code >= 400:
        assert set(response.json()) >= {"code", "message"}
        assert _snapshot() == before  # a refusal writes nothing
    elif method != "GET":
        assert _snapshot() != before


def test_the_matrix_covers_every_league_route() -> None:
    from api.urls import LEAGUE_ROUTES as urlpatterns

    routes = {str(p.pattern) for p in urlpatterns}
    covered = {
        path.replace("/api/v1/", "")
        .replace("{club}", "<int:club_id>")
        .replace("{t2}", "<int:tournament_id>")
        .replace("{t}", "<int:tournament_id>")
        .replace("{p}", "<int:player_id>")
        .replace("rounds/1", "rounds/<int:number>")
        for _, _, path, _, _ in MATRIX
    }
    covered |= {"clubs/<int:club_id>/tournaments"}
    assert routes <= covered, routes - covered
