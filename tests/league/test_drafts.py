"""Drafts are the club staff's: a draft round (its seating) and a tournament in draft are
invisible to everyone else — a 404, absent from every list, the club page and the archive —
as a draft round already was a 404 to them (docs/running-a-tournament.md)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from league import services
from tests.support.games import client_for
from tests.support.league import checked_in_tournament

pytestmark = pytest.mark.django_db

SIX = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def outsiders(staff: dict[str, Any]) -> dict[str, APIClient]:
    return {
        "anonymous": APIClient(),
        "player": client_for(staff["player"]),
        "outsider": client_for(staff["outsider"]),
        "foreign director": client_for(staff["foreign"]),
    }


def insiders(staff: dict[str, Any]) -> dict[str, APIClient]:
    return {"director": client_for(staff["director"]), "scorekeeper": client_for(staff["scorekeeper"])}


def test_the_archive_shows_a_draft_round_to_the_staff_only(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, SIX)
    services.generate_round(tournament, staff["director"])  # round 1, a draft
    url = f"/api/v1/tournaments/{tournament.pk}/archive"
    for who, client in outsiders(staff).items():
        archive = client.get(url)
        assert archive.status_code == 200, who
        assert archive.json()["rounds"] == [], who
    for who, client in insiders(staff).items():
        rounds = client.get(url).json()["rounds"]
        assert [r["status"] for r in rounds] == ["draft"], who
        assert rounds[0]["tables"][0]["seats"], who


def test_a_tournament_set_back_to_draft_disappears_for_outsiders(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, SIX, name="Secret Cup")
    services.update_tournament(tournament, {"status": "draft"}, staff["director"])
    club = staff["club"]
    paths = [
        f"/api/v1/tournaments/{tournament.pk}",
        f"/api/v1/tournaments/{tournament.pk}/registrations",
        f"/api/v1/tournaments/{tournament.pk}/rounds",
        f"/api/v1/tournaments/{tournament.pk}/standings",
        f"/api/v1/tournaments/{tournament.pk}/standings.csv",
        f"/api/v1/tournaments/{tournament.pk}/standings/changes",
        f"/api/v1/tournaments/{tournament.pk}/archive",
    ]
    for who, client in outsiders(staff).items():
        for path in paths:
            response = client.get(path)
            assert response.status_code == 404, (who, path, response.status_code)
            assert response.json()["code"] == "not_found"
        listed = client.get(f"/api/v1/clubs/{club.pk}/tournaments").json()
        assert listed == [], who
        assert "Secret Cup" not in client.get(f"/clubs/{club.slug}/").content.decode(), who
        assert client.get(f"/api/v1/clubs/{club.pk}").json()["tournaments"] == 0, who
        counts = {c["id"]: c["tournaments"] for c in client.get("/api/v1/clubs").json()}
        assert counts[club.pk] == 0, who
    for who, client in insiders(staff).items():
        for path in paths:
            assert client.get(path).status_code == 200, (who, path)
        assert [t["name"] for t in client.get(f"/api/v1/clubs/{club.pk}/tournaments").json()] == [
            "Secret Cup"
        ]
        assert "Secret Cup" in client.get(f"/clubs/{club.slug}/").content.decode(), who


def test_an_edit_decided_on_an_older_draft_is_refused_and_changes_nothing(staff: dict[str, Any]) -> None:
    from league.selectors import round_tables

    tournament = checked_in_tournament(staff, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"])
    round_ = services.generate_round(tournament, staff["director"])

    def shown() -> tuple[str, list[list[int]]]:
        tables = [list(t.player_ids) for t in round_tables([round_.pk])[round_.pk]]
        round_.refresh_from_db()
        return services.draft_version(tables, round_.byes), tables

    version, tables = shown()
    a, b, c = tables[0][0], tables[1][0], tables[1][1]
    services.edit_draft(round_, {"swap": [a, b], "version": version}, staff["director"])
    after, edited = shown()
    assert after != version and edited != tables
    with pytest.raises(services.LeagueError) as refused:
        services.edit_draft(round_, {"swap": [a, c], "version": version}, staff["director"])
    assert (refused.value.code, refused.value.kind.value, refused.value.field) == (
        "draft_changed",
        "conflict",
        "version",
    )
    assert shown() == (after, edited)
    services.edit_draft(round_, {"swap": [a, b], "version": after}, staff["director"])  # swapped back
    assert shown() == (version, tables)  # the same seating is the same version


def test_the_api_shows_a_drafts_version_and_refuses_an_edit_on_an_older_one(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"])
    services.generate_round(tournament, staff["director"])
    director = client_for(staff["director"])
    url = f"/api/v1/tournaments/{tournament.pk}/rounds/1"
    shown = director.get(url).json()
    a, b, c = shown["tables"][0]["seats"][0], shown["tables"][1]["seats"][0], shown["tables"][1]["seats"][1]
    ids = [seat["player"] for seat in (a, b, c)]
    edited = director.patch(
        url, {"swap": ids[:2], "version": shown["version"]}, format="json", HTTP_IDEMPOTENCY_KEY="v-1"
    )
    assert edited.status_code == 200 and edited.json()["version"] != shown["version"]
    stale = director.patch(
        url,
        {"swap": [ids[0], ids[2]], "version": shown["version"]},
        format="json",
        HTTP_IDEMPOTENCY_KEY="v-2",
    )
    assert stale.status_code == 409 and stale.json()["code"] == "draft_changed"
    assert director.get(url).json() == edited.json()
    junk = director.patch(url, {"swap": ids[:2], "version": "x"}, format="json", HTTP_IDEMPOTENCY_KEY="v-3")
    assert junk.status_code == 400
