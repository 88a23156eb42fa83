"""Who sits in a game: no digital game nobody can play, and no bot this server cannot run
— at creation, through the club endpoint, in ReplaceSeat commands and in imported logs."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from games import services
from games.models import Game, GameEvent, Source
from league.models import Club, ClubGame, Membership
from tests.support.games import client_for, new_game, play

pytestmark = pytest.mark.django_db

NAMED_ONLY = {"seats": [{"name": "A"}, {"name": "B"}]}


def test_a_digital_game_of_named_seats_only_is_refused(owner: Any) -> None:
    with pytest.raises(engine.IllegalMove) as caught:
        new_game(owner, [services.SeatSpec("A"), services.SeatSpec("B")])
    assert caught.value.code == "unplayable_game"
    assert "at least one seat played by a user or a bot" in caught.value.message
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "seats",
    [
        [services.SeatSpec("A"), services.SeatSpec(bot="greedy")],
        [services.SeatSpec("A"), services.SeatSpec(user_id=-1)],  # replaced by ann's id below
    ],
)
def test_one_user_or_bot_makes_a_digital_game_playable(
    owner: Any, ann: Any, seats: list[services.SeatSpec]
) -> None:
    seats = [services.SeatSpec(user_id=ann.pk) if s.user_id == -1 else s for s in seats]
    assert new_game(owner, seats).game.mode == "digital"


def test_a_physical_game_of_named_seats_is_fine(owner: Any) -> None:
    game = new_game(owner, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical").game
    assert [seat["name"] for seat in game.seats] == ["A", "B"]


def test_the_api_refuses_an_unplayable_game_with_its_code(ann: Any) -> None:
    response = client_for(ann).post("/api/v1/games", NAMED_ONLY, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unplayable_game"
    assert not Game.objects.exists()


def test_the_club_endpoint_refuses_an_unplayable_game(ann: Any) -> None:
    club = Club.objects.create(name="Kings", slug="kings")
    Membership.objects.create(club=club, user=ann, role=Membership.Role.DIRECTOR)
    response = client_for(ann).post(f"/api/v1/clubs/{club.pk}/games", NAMED_ONLY, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == "unplayable_game"
    assert not Game.objects.exists() and not ClubGame.objects.exists()


def test_replacing_a_seat_by_an_unknown_bot_is_refused(owner: Any) -> None:
    created = new_game(owner, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical")
    response = client_for(owner).post(
        f"/api/v1/games/{created.game.pk}/commands",
        {
            "expected_version": created.version,
            "command": {"type": "ReplaceSeat", "seat": 1, "name": "Robo", "bot": "genius"},
        },
        format="json",
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "unknown_bot"
    game = Game.objects.get(pk=created.game.pk)
    assert game.version == created.version and game.seats[1]["bot"] is None


def exported(game_id: int) -> list[dict[str, Any]]:
    return [
        {"type": e.type, "schema_version": e.schema_version, "data": e.data}
        for e in GameEvent.objects.filter(game_id=game_id).order_by("seq")
    ]


def test_import_refuses_a_log_seating_an_unknown_bot(owner: Any, ann: Any) -> None:
    created = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")])
    events = exported(created.game.pk)
    events[0]["data"]["seats"][1]["bot"] = "genius"
    before = Game.objects.count(), GameEvent.objects.count()
    response = client_for(ann).post("/api/v1/games/import", {"events": events}, format="json")
    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["index"], body["event_code"]) == ("invalid_log", 0, "unknown_bot")
    assert "there is no bot 'genius'" in body["message"]
    assert (Game.objects.count(), GameEvent.objects.count()) == before


def test_import_refuses_a_seat_replaced_by_an_unknown_bot(owner: Any) -> None:
    created = new_game(owner, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical")
    play(created.game.pk, owner, {"type": "ReplaceSeat", "seat": 1, "name": "Robo", "bot": "greedy"})
    events = exported(created.game.pk)
    events[-1]["data"]["bot"] = "genius"
    with pytest.raises(services.InvalidLog) as caught:
        services.import_game(log_events=events, owner=owner, source=Source.API)
    assert (caught.value.index, caught.value.event_code) == (len(events) - 1, "unknown_bot")


def test_replacing_the_last_playable_seat_by_a_named_substitute_is_refused(owner: Any, ann: Any) -> None:
    created = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec("Bea")])
    with pytest.raises(engine.IllegalMove) as caught:
        play(created.game.pk, owner, {"type": "ReplaceSeat", "seat": 0, "name": "Sub", "bot": None})
    assert caught.value.code == "unplayable_game"
    assert Game.objects.get(pk=created.game.pk).version == created.version
    # a bot taking the seat over keeps the game playable
    play(created.game.pk, owner, {"type": "ReplaceSeat", "seat": 0, "name": "Robo", "bot": "random"})
    assert Game.objects.get(pk=created.game.pk).seats[0] == {"name": "Robo", "bot": "random", "user": None}
