"""Games opened under a club: the club's directors and scorekeepers open and record them."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from league.models import Club, ClubGame, Membership
from tests.support.games import client_for

pytestmark = pytest.mark.django_db

BODY = {"mode": "physical", "seats": [{"name": "A"}, {"name": "B"}]}


@pytest.fixture
def club(ann: Any, bob: Any) -> Club:
    club = Club.objects.create(name="Kings", slug="kings")
    Membership.objects.create(club=club, user=ann, role=Membership.Role.DIRECTOR)
    Membership.objects.create(club=club, user=bob, role=Membership.Role.PLAYER)
    return club


def test_a_director_opens_a_club_game(club: Club, ann: Any) -> None:
    response = client_for(ann).post(f"/api/v1/clubs/{club.pk}/games", BODY, format="json")
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=response.json()["id"])
    assert ClubGame.objects.get(game=game).club == club
    assert game.owner == ann
    assert game.followed  # its writes carry the league's outbox rows


def test_a_plain_member_may_not_open_a_club_game(club: Club, bob: Any) -> None:
    response = client_for(bob).post(f"/api/v1/clubs/{club.pk}/games", BODY, format="json")
    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"
    assert not Game.objects.exists()


def test_unknown_club_is_404_and_anonymous_is_401(club: Club) -> None:
    missing = client_for(None).post("/api/v1/clubs/424242/games", BODY, format="json")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    anonymous = client_for(None).post(f"/api/v1/clubs/{club.pk}/games", BODY, format="json")
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "not_authenticated")


def test_the_clubs_scorekeeper_records_a_club_game_others_may_not(
    club: Club, ann: Any, bob: Any, make_user: Any
) -> None:
    created = client_for(ann).post(f"/api/v1/clubs/{club.pk}/games", BODY, format="json").json()
    scorekeeper = make_user("sk")
    deal = {"expected_version": created["version"], "command": {"type": "DealHand", "upcard": "7H"}}
    url = f"/api/v1/games/{created['id']}/commands"
    refused = client_for(scorekeeper).post(url, deal, format="json")
    assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")

    Membership.objects.create(club=club, user=scorekeeper, role=Membership.Role.SCOREKEEPER)
    accepted = client_for(scorekeeper).post(url, deal, format="json")
    assert accepted.status_code == 201, accepted.json()
    assert client_for(bob).post(url, deal, format="json").status_code == 403


def test_a_retried_club_creation_returns_the_same_game(club: Club, ann: Any) -> None:
    client = client_for(ann)
    first = client.post(f"/api/v1/clubs/{club.pk}/games", BODY, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    again = client.post(f"/api/v1/clubs/{club.pk}/games", BODY, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == again.status_code == 201
    assert first.json()["id"] == again.json()["id"]
    assert ClubGame.objects.count() == 1
