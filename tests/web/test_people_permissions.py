"""Who may open and post which of the people's pages: a role x page matrix, beside the
API's (tests/league/test_permissions.py).

Roles: anonymous; a signed-in user of no role in the club (outsider); the club's player
(a login linked to a player record), scorekeeper and director; another club's director
(foreign). Managing the club's people — players, logins, roles, invitations, a table's
scorekeeper, self check-in — is its directors' alone: a scorekeeper cannot manage
accounts (403). An invitation's page is its club's directors' and its claimant's: a
player sees only their own (anyone else: 404, as for one that does not exist). The
pages of one's own ("My games", check-in) open for any login; "My tables" for a club's
recorders. Anonymous visitors are sent to sign in. A refused post changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from league import checkin, people
from league.models import Club, Invitation, Membership, Player, SelfCheckIn, TableScorekeeper
from tests.support.tournaments import add_round, make_tournament, players
from tests.support.worlds import make_user, shared_world

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "player", "scorekeeper", "director", "foreign")


def only(ok: int, **more: int) -> dict[str, int]:
    """``ok`` for the club's director, 403 for every other login, the sign-in for anonymous."""
    return {**dict.fromkeys(ROLES, 403), "anonymous": 302, "director": ok, **more}


SIGNED_IN = {**dict.fromkeys(ROLES, 200), "anonymous": 302}
HIDDEN = {**dict.fromkeys(ROLES, 404), "anonymous": 302, "director": 200}

# (name, method, path, form, expected status by role); {slug}, {t}, {table}, {p}, {own},
# {other}, {code} are filled in
MATRIX: list[tuple[str, str, str, dict[str, str], dict[str, int]]] = [
    ("people page", "GET", "/clubs/{slug}/people/", {}, only(200)),
    ("add a player", "POST", "/clubs/{slug}/people/players", {"name": "Zed"}, only(302)),
    ("invite", "POST", "/clubs/{slug}/people/invite", {"role": "scorekeeper"}, only(200)),
    (
        "give a role",
        "POST",
        "/clubs/{slug}/people/roles",
        {"op": "grant", "role": "director", "username": "outsider"},
        only(302),
    ),
    (
        "remove a role",
        "POST",
        "/clubs/{slug}/people/roles",
        {"op": "remove", "role": "scorekeeper", "username": "scorekeeper"},
        only(302),
    ),
    (
        "link a login",
        "POST",
        "/clubs/{slug}/people/players/{p}/login",
        {"op": "link", "username": "outsider"},
        only(302),
    ),
    ("withdraw an invitation", "POST", "/clubs/{slug}/people/invitations/{other}/withdraw", {}, only(302)),
    ("someone else's invitation", "GET", "/clubs/{slug}/people/invitations/{other}", {}, HIDDEN),
    (
        "the player's own invitation",
        "GET",
        "/clubs/{slug}/people/invitations/{own}",
        {},
        {**HIDDEN, "player": 200},
    ),
    (
        "assign a table's scorekeeper",
        "POST",
        "/tournaments/{t}/desk/tables/{table}/scorekeeper",
        {"user": "{keeper}"},
        only(302),
    ),
    ("open self check-in", "POST", "/tournaments/{t}/desk/check-in", {"op": "open"}, only(302)),
    ("the check-in code, full screen", "GET", "/tournaments/{t}/desk/check-in/code", {}, only(200)),
    ("my tables", "GET", "/mine/tables", {}, {**only(200), "scorekeeper": 200, "foreign": 200}),
    ("my games", "GET", "/mine/games", {}, SIGNED_IN),
    ("check in", "GET", "/tournaments/{t}/check-in", {}, SIGNED_IN),
    ("type an invitation's code", "GET", "/join/", {}, dict.fromkeys(ROLES, 200)),
    ("an invitation's link", "GET", "/join/{code}", {}, dict.fromkeys(ROLES, 200)),
]


@pytest.fixture(scope="module")
def world(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Built once for the module; each test runs in a savepoint of it (tests/support/worlds.py)."""
    with shared_world(django_db_blocker):
        yield build_world()


def build_world() -> dict[str, Any]:
    club = Club.objects.create(name="Riverside", slug="riverside")
    other = Club.objects.create(name="Hilltop", slug="hilltop")
    users = {name: make_user(name) for name in ("director", "scorekeeper", "player", "outsider", "foreign")}
    Membership.objects.create(club=club, user=users["director"], role="director")
    Membership.objects.create(club=club, user=users["scorekeeper"], role="scorekeeper")
    Membership.objects.create(club=other, user=users["foreign"], role="director")
    ann, bo, cy, di = players(club, "Ann", "Bo", "Cy", "Di")
    people.link_login(ann, users["player"])
    tournament = make_tournament(club, name="Club night")
    round_ = add_round(tournament, 1, [[ann, bo], [cy, di]])
    own = people.invite(club, role="scorekeeper", player=None, by=users["director"])
    people.claim(own.code, users["player"])  # the player keeps scores too now: their own invitation
    Membership.objects.filter(user=users["player"], role="scorekeeper").delete()  # ...and stopped
    other_invitation = people.invite(club, role="player", player=bo, by=users["director"])
    return {
        **users,
        "club": club,
        "slug": club.slug,
        "t": tournament.pk,
        "table": round_.tables.get(number=1).pk,
        "p": cy.pk,
        "own": own.invitation.pk,
        "other": other_invitation.invitation.pk,
        "code": other_invitation.code,
        "keeper": users["scorekeeper"].pk,
    }


def _fill(text: str, world: dict[str, Any]) -> str:
    return text.format(**{k: v for k, v in world.items() if isinstance(v, int | str)})


def _snapshot() -> tuple[Any, ...]:
    return (
        sorted(Player.objects.values_list("name", "user_id")),
        sorted(Membership.objects.values_list("club_id", "user_id", "role")),
        sorted(Invitation.objects.values_list("pk", "withdrawn_at", "claimed_at")),
        TableScorekeeper.objects.count(),
        SelfCheckIn.objects.count(),
    )


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("name", "method", "path", "form", "expected"), MATRIX, ids=[m[0] for m in MATRIX])
def test_people_permission_matrix(
    world: dict[str, Any],
    role: str,
    name: str,
    method: str,
    path: str,
    form: dict[str, str],
    expected: dict[str, int],
) -> None:
    client = Client()
    if role != "anonymous":
        client.force_login(world[role])
    url = _fill(path, world)
    before = _snapshot()
    if method == "GET":
        response = client.get(url)
    else:
        response = client.post(url, {k: _fill(v, world) for k, v in form.items()})
    assert response.status_code == expected[role], (role, name, response.status_code)
    if response.status_code == 302 and role == "anonymous":
        assert response["Location"].startswith("/login/?next=")
    if method == "POST":
        changed = _snapshot() != before
        assert changed == (role == "director"), (role, name)  # a refusal writes nothing
        if role == "director":
            assert not [m for m in response.wsgi_request._messages if m.level_tag == "error"]  # type: ignore[attr-defined]


def test_the_matrix_covers_every_people_route() -> None:
    from web.mine import urlpatterns as mine
    from web.people.checkin import urlpatterns as checkins
    from web.people.join import urlpatterns as joins
    from web.people.views import urlpatterns as pages

    routes = {str(p.pattern) for p in [*pages, *joins, *checkins, *mine]}
    covered = {
        path.lstrip("/")
        .replace("{slug}", "<slug:slug>")
        .replace("{t}", "<int:pk>")
        .replace("{table}", "<int:table_id>")
        .replace("{p}", "<int:player_id>")
        .replace("{own}", "<int:invitation_id>")
        .replace("{other}", "<int:invitation_id>")
        .replace("{code}", "<str:code>")
        for _, _, path, _, _ in MATRIX
    }
    assert routes <= covered, routes - covered


def test_self_check_in_is_open_for_the_player_once_the_director_opened_it(world: dict[str, Any]) -> None:
    """The check-in page's post: the club's player checks in; others are told why not."""
    from league.models import Tournament

    tournament = Tournament.objects.get(pk=world["t"])
    tournament.registrations.create(player=Player.objects.get(user=world["player"]))
    code = checkin.open_self_check_in(tournament, world["director"])
    url = f"/tournaments/{tournament.pk}/check-in"
    outsider = Client()
    outsider.force_login(world["outsider"])
    refused = outsider.post(url, {"code": code})
    assert refused.status_code == 403 and "ask the director to link your login" in refused.content.decode()
    player = Client()
    player.force_login(world["player"])
    wrong = player.post(url, {"code": "nope"})
    assert wrong.status_code == 400 and "not the code shown in the room" in wrong.content.decode()
    done = player.post(url, {"code": code.lower()})
    assert done.status_code == 302 and done["Location"] == "/mine/games"
    assert tournament.registrations.get().status == "checked_in"
