"""Every web form field is parsed strictly: a bad value is refused with a message (under
its field where the form shows one) and nothing changes — a junk table number is never
read as "no table" and so a bye (docs/running-a-tournament.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from games.models import Game, GameEvent
from league import services
from league.models import Club, Membership, Registration, Round, Tournament
from tests.support.record import club_night
from tests.web.test_desk_views import field_errors, form_data

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
JUNK_NUMBERS = ["abc", "", "-1", "1.5", "²", "\uff11", "9" * 5000, "1e3", "0x1", " 1 2"]


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def desk(make_user: Callable[..., Any]) -> dict[str, Any]:
    """A 7-player tournament (two tables of 3, one bye) with round 1 a draft."""
    club = Club.objects.create(name="Riverside", slug="riverside")
    director = make_user("director")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    data = {"name": "Cup", "table_size": {"min": 3, "max": 3}, "rounds": 3, "seed": "s"}
    tournament = services.create_tournament(club, data, director)
    for name in NAMES:
        registration = services.register(tournament, name=name)
        services.set_registration_status(registration, Registration.Status.CHECKED_IN)
    round_ = services.generate_round(tournament, director)
    return {"club": club, "director": director, "tournament": tournament, "round": round_}


def seating(round_: Round) -> tuple[Any, ...]:
    fresh = Round.objects.get(pk=round_.pk)
    seats = [(t.number, [s.player_id for s in t.seats.order_by("position")]) for t in fresh.tables.all()]
    return tuple(fresh.byes), tuple(sorted(seats)), tuple(fresh.notes)


@pytest.mark.parametrize("table", ["abc", "", "0", "-1", "99999999999999999999", "²", "1.0", "bye "])
def test_a_junk_table_number_is_refused_not_read_as_a_bye(desk: dict[str, Any], table: str) -> None:
    round_ = desk["round"]
    seated = round_.tables.order_by("number").first().seats.first().player_id  # type: ignore[union-attr]
    before = seating(round_)
    response = signed_in(desk["director"]).post(
        f"/tournaments/{desk['tournament'].pk}/desk/rounds/1/edit",
        {"op": "move", "player": str(seated), "table": table, "idempotency_key": "k" * 12},
        follow=True,
    )
    assert response.status_code == 200
    assert "The table" in response.content.decode()
    assert seating(round_) == before


@pytest.mark.parametrize("junk", JUNK_NUMBERS)
def test_a_junk_player_in_a_swap_is_refused(desk: dict[str, Any], junk: str) -> None:
    round_ = desk["round"]
    seated = round_.tables.order_by("number").first().seats.first().player_id  # type: ignore[union-attr]
    before = seating(round_)
    response = signed_in(desk["director"]).post(
        f"/tournaments/{desk['tournament'].pk}/desk/rounds/1/edit",
        {"op": "swap", "player": str(seated), "with": junk, "idempotency_key": "s" * 12},
        follow=True,
    )
    assert "The other player" in response.content.decode()
    assert seating(round_) == before


@pytest.mark.parametrize("junk", ["abc", "0", "²", "9" * 5000, "101"])
def test_a_junk_first_round_is_refused_and_registers_nobody(desk: dict[str, Any], junk: str) -> None:
    before = Registration.objects.count()
    response = signed_in(desk["director"]).post(
        f"/tournaments/{desk['tournament'].pk}/desk/register",
        {"name": "Zed", "from_round": junk, "idempotency_key": "r" * 12},
        follow=True,
    )
    assert "The first round" in response.content.decode()
    assert Registration.objects.count() == before


def test_the_tournament_form_refuses_control_characters_in_the_name(desk: dict[str, Any]) -> None:
    response = signed_in(desk["director"]).post(
        "/clubs/riverside/tournaments/new", form_data(name="Winter\x07Open")
    )
    assert response.status_code == 400
    assert "control characters" in field_errors(response.content.decode(), "name")
    assert not Tournament.objects.filter(name__startswith="Winter").exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("bye_points", "1e5000"),
        ("bye_points", "1/0"),
        ("bye_points", "1001"),
        ("placement_points", "1e5000, 0, 0"),
        ("placement_points", "1/3000, 0"),
        ("placement_points", "1, 1, 1, 1, 1, 1, 1, 1, 1"),
        ("min_games", "1001"),
        ("min_games", "abc"),
        ("rounds", "101"),
        ("table_max", "9"),
    ],
)
def test_the_tournament_form_refuses_numbers_out_of_range_under_their_field(
    desk: dict[str, Any], field: str, value: str
) -> None:
    response = signed_in(desk["director"]).post(
        "/clubs/riverside/tournaments/new", form_data(scoring="placement", **{field: value})
    )
    assert response.status_code == 400
    assert field_errors(response.content.decode(), field), field
    assert not Tournament.objects.filter(name="Winter Open").exists()


def test_the_form_shows_the_documented_points_range(desk: dict[str, Any]) -> None:
    html = signed_in(desk["director"]).get("/clubs/riverside/tournaments/new").content.decode()
    assert "from -1000 to 1000" in html


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "adjust", "seat": "abc", "points": "5", "reason": "r"}, "seat"),
        ({"kind": "adjust", "seat": "7", "points": "5", "reason": "r"}, "seat"),
        ({"kind": "adjust", "seat": "0", "points": "1e5000", "reason": "r"}, "points"),
        ({"kind": "adjust", "seat": "0", "points": "5", "reason": "r\x00"}, "reason"),
        ({"kind": "replace", "seat": "0", "name": "Zed\x1b[31m"}, "name"),
        ({"kind": "retract", "reason": "r", "version": "abc"}, ""),
    ],
)
def test_a_correction_form_refuses_junk_under_its_field(
    make_user: Callable[..., Any], data: dict[str, str], field: str
) -> None:
    night = club_night(make_user)
    url = f"/tournaments/{night.tournament.pk}/desk/tables/{night.table.pk}"
    before = GameEvent.objects.filter(game=night.game).count()
    response = signed_in(night.director).post(url, {**data, "confirmed": "yes", "idempotency_key": "c" * 12})
    assert response.status_code == 400
    html = response.content.decode()
    marker = f'id="{data["kind"]}-{field}-error"' if field else 'id="correction-error"'
    assert marker in html, html[:3000]
    assert GameEvent.objects.filter(game=night.game).count() == before


def test_a_junk_version_on_the_record_page_records_nothing(make_user: Callable[..., Any]) -> None:
    night = club_night(make_user)
    response = signed_in(night.scorekeeper).post(
        night.url, {"action": "deal", "upcard": "7h", "version": "abc", "idempotency_key": "v" * 12}
    )
    assert response.status_code in (200, 400, 409)
    assert Game.objects.get(pk=night.game.pk).version == 1


def test_junk_opponents_on_the_practice_form_start_no_game(make_user: Callable[..., Any]) -> None:
    response = signed_in(make_user("pia")).post(
        "/games/practice/", {"preset": "gin-rummy", "opponents": "abc", "idempotency_key": "p" * 16}
    )
    assert response.status_code == 302
    assert not Game.objects.exists()
