"""The league's settings as a hostile caller sends them (tests/games/hostile.py,
``settings_corpus``): hostile numbers at every numeric setting, control characters in every
name and reason, unknown fields in every body, unknown paths. Never a 5xx; a refusal is
JSON with a stable code and writes nothing (every row of the games and league tables
compared); an accepted value still lets the tournament render.

One world per endpoint, each case in a savepoint rolled back after it: the corpus costs
a few seconds, not a world per case (docs/api.md, "Limits of the league's settings")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from league import services
from league.models import Club, Membership, Tournament
from tests.games.hostile import (
    LEAGUE_NUMBER_FIELDS,
    LEAGUE_TEXT_FIELDS,
    UNKNOWN_PATHS,
    SettingCase,
    settings_corpus,
)
from tests.support.games import client_for
from tests.support.worlds import app_models, row_digests

pytestmark = pytest.mark.django_db

CORPUS = settings_corpus()
SIX = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def database_rows() -> dict[str, str]:
    """What every games and league table holds (:func:`row_digests`: contents, not only
    counts, in one query on PostgreSQL): what "nothing written" compares. A write's
    idempotency record (``LeagueWrite``) is left out."""
    return row_digests(m for m in app_models("games", "league") if m._meta.label != "league.LeagueWrite")


def world(make_user: Callable[..., Any]) -> dict[str, Any]:
    """A club directed by Dora, a tournament of six checked in, round 1 a draft."""
    director = make_user("dora")
    club = Club.objects.create(name="Club", slug="club")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    data = {"name": "Cup", "table_size": {"min": 3, "max": 4}, "rounds": 3, "seed": "fuzz"}
    tournament = services.create_tournament(club, data, director)
    for name in SIX:
        registration = services.register(tournament, name=name)
        services.set_registration_status(registration, "checked_in")
    services.generate_round(tournament, director)
    return {
        "director": director,
        "club": club.pk,
        "tournament": tournament.pk,
        "player": registration.player_id,
    }


def path_of(case: SettingCase, ids: dict[str, Any]) -> str:
    return (
        case.endpoint.path.replace("{club}", str(ids["club"]))
        .replace("{tournament}", str(ids["tournament"]))
        .replace("{player}", str(ids["player"]))
    )


def problem_of(client: APIClient, case: SettingCase, ids: dict[str, Any]) -> str | None:
    before = database_rows()
    response = client.generic(
        case.endpoint.method,
        path_of(case, ids),
        case.body,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=f"k-{abs(hash(case.id))}",
    )
    status = response.status_code
    if status >= 500:
        return f"{case.id}: {status}"
    if status >= 400:
        if not response["Content-Type"].startswith("application/json") or "code" not in response.json():
            return f"{case.id}: {status} without the JSON error body"
        if database_rows() != before:
            return f"{case.id}: refused ({status}) but wrote"
        return None
    if case.must_refuse:
        return f"{case.id}: taken ({status}), must be refused"
    # taken: the tournament (or the new one) still renders everywhere
    tournament = response.json().get("id") if case.endpoint.name == "tournament_create" else ids["tournament"]
    for read in (
        f"/api/v1/tournaments/{tournament}",
        f"/api/v1/tournaments/{tournament}/standings",
        f"/api/v1/tournaments/{tournament}/standings.csv",
    ):
        again = client.get(read)
        if again.status_code != 200:
            return f"{case.id}: taken, then {read} answered {again.status_code}"
    return None


@pytest.mark.parametrize("endpoint", sorted(CORPUS))
def test_hostile_settings_get_no_5xx_and_a_refusal_writes_nothing(
    endpoint: str, make_user: Callable[..., Any]
) -> None:
    ids = world(make_user)
    client = client_for(ids["director"])
    client.raise_request_exception = False
    problems = []
    for case in CORPUS[endpoint]:
        savepoint = transaction.savepoint()
        try:
            problem = problem_of(client, case, ids)
        finally:
            transaction.savepoint_rollback(savepoint)
        if problem:
            problems.append(problem)
    assert not problems, "\n".join(problems)


def test_the_settings_corpus_covers_every_numeric_setting_and_name() -> None:
    ids = {case.id for cases in CORPUS.values() for case in cases}
    for endpoint, paths in {**LEAGUE_NUMBER_FIELDS, **LEAGUE_TEXT_FIELDS}.items():
        for path in paths:
            assert any(i.startswith(f"{endpoint}-{path}-") for i in ids), (endpoint, path)
    assert all(any(i.endswith("-unknown_field") for i in ids if i.startswith(name)) for name in CORPUS)
    assert len(ids) == sum(len(cases) for cases in CORPUS.values()) >= 600


@pytest.mark.parametrize("path", UNKNOWN_PATHS)
def test_unknown_api_paths_are_the_json_404_for_any_method_and_caller(path: str, ann: Any) -> None:
    callers = {"anonymous": APIClient(enforce_csrf_checks=True)}
    callers["session"] = APIClient(enforce_csrf_checks=True)
    callers["session"].force_login(ann)
    callers["token"] = APIClient(enforce_csrf_checks=True)
    callers["token"].credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=ann)[0].key}")
    before = database_rows()
    for who, client in callers.items():
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"):
            response = client.generic(method, path, b'{"name": "x"}', content_type="application/json")
            assert response.status_code == 404, (who, method, path, response.status_code)
            assert response["Content-Type"] == "application/json", (who, method, path)
            if method != "HEAD":
                assert response.json()["code"] == "not_found", (who, method, path)
    assert database_rows() == before


def test_nothing_written_sees_an_update_that_keeps_every_count(make_user: Callable[..., Any]) -> None:
    """The comparison is of contents: a refusal that renamed a tournament would be caught."""
    ids = world(make_user)
    before = database_rows()
    Tournament.objects.filter(pk=ids["tournament"]).update(name="Cup!")
    after = database_rows()
    assert [label for label in before if before[label] != after[label]] == ["league.Tournament"]
