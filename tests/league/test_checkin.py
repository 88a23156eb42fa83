"""Self check-in (league.checkin): a player with a login checks in with the code shown in
the room, only while it is open; refusals have their codes and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from league import checkin, people
from league.models import Registration, SelfCheckIn, Tournament
from league.services import LeagueError, create_tournament, register

pytestmark = pytest.mark.django_db


def refused(code: str) -> Any:
    return pytest.raises(LeagueError, check=lambda exc: exc.code == code)


@pytest.fixture
def cup(staff: dict[str, Any]) -> dict[str, Any]:
    club = staff["club"]
    tournament = create_tournament(
        club, {"name": "Cup", "table_size": {"min": 2, "max": 4}, "rounds": 2, "seed": "s"}, staff["director"]
    )
    ann = people.add_player(club, "Ann")
    people.link_login(ann, staff["player"])
    return {**staff, "tournament": tournament, "ann": ann}


def test_a_player_checks_in_with_the_rooms_code(cup: dict[str, Any]) -> None:
    tournament, ann = cup["tournament"], cup["ann"]
    registration = register(tournament, player=ann)
    with refused("check_in_closed"):
        checkin.check_in_self(tournament, ann, "ABCDEF")
    code = checkin.open_self_check_in(tournament, cup["director"])
    assert checkin.open_code(tournament) == code and len(code) == checkin.CODE_LENGTH
    with refused("wrong_check_in_code"):
        checkin.check_in_self(tournament, ann, "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY")
    assert Registration.objects.get(pk=registration.pk).status == "registered"
    checkin.check_in_self(tournament, ann, f" {code[:3].lower()}-{code[3:]} ")  # typed loosely
    assert Registration.objects.get(pk=registration.pk).status == "checked_in"
    checkin.check_in_self(tournament, ann, code)  # again: still checked in, nothing else
    assert Registration.objects.get(pk=registration.pk).status == "checked_in"


def test_a_new_code_or_closing_stops_the_old_one(cup: dict[str, Any]) -> None:
    tournament, ann = cup["tournament"], cup["ann"]
    register(tournament, player=ann)
    first = checkin.open_self_check_in(tournament, cup["director"])
    second = checkin.open_self_check_in(tournament, cup["director"])
    assert SelfCheckIn.objects.count() == 1
    if first != second:
        with refused("wrong_check_in_code"):
            checkin.check_in_self(tournament, ann, first)
    assert checkin.close_self_check_in(tournament) is True
    assert checkin.close_self_check_in(tournament) is False
    with refused("check_in_closed"):
        checkin.check_in_self(tournament, ann, second)


def test_an_unregistered_player_is_registered_before_the_first_round_only(cup: dict[str, Any]) -> None:
    tournament, ann = cup["tournament"], cup["ann"]
    code = checkin.open_self_check_in(tournament, cup["director"])
    checkin.check_in_self(tournament, ann, code)
    assert Registration.objects.get(tournament=tournament, player=ann).status == "checked_in"
    bo = people.add_player(cup["club"], "Bo")
    tournament.round_set.create(number=1, method="balanced", seed="s-1", input_digest="-")
    with refused("not_registered"):
        checkin.check_in_self(tournament, bo, code)
    assert not Registration.objects.filter(player=bo).exists()


def test_who_may_not_check_in(cup: dict[str, Any]) -> None:
    tournament, ann = cup["tournament"], cup["ann"]
    code = checkin.open_self_check_in(tournament, cup["director"])
    with refused("not_a_club_player"):
        checkin.check_in_self(tournament, None, code)
    stranger = people.add_player(cup["other"], "Ann")
    with refused("not_a_club_player"):
        checkin.check_in_self(tournament, stranger, code)
    registration = register(tournament, player=ann)
    Registration.objects.filter(pk=registration.pk).update(status="withdrawn")
    with refused("registration_closed"):
        checkin.check_in_self(tournament, ann, code)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    tournament.refresh_from_db()
    with refused("tournament_finished"):
        checkin.open_self_check_in(tournament, cup["director"])
