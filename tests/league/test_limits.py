"""Every number, name and field of a league write is refused at the boundary when it is
outside league.limits (docs/api.md, "Limits of the league's settings"), with a stable
code and nothing stored; a value stored before the limits never breaks the standings."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

from league import limits, services
from league.models import Player, Round, Tournament
from league.projection import rebuild
from tests.support.games import client_for
from tests.support.league import checked_in_tournament, create_tournament, write

pytestmark = pytest.mark.django_db

HUGE_INT = "1" + "0" * 400  # past a double; past 4,300 digits below
BAD_POINTS = [
    "1e5000",
    "1e308",
    "1" + "0" * 4301,
    "-1001",
    "1001",
    "1/0",
    "1/1001",
    "1/" + "9" * 30,
    "0.0001",
    "NaN",
    "Infinity",
    "-inf",
    "٣",  # an Arabic-Indic digit: a digit to Python, not to the API
    "1_000",
    "½",
]


def _director(staff: dict[str, Any]) -> APIClient:
    return client_for(staff["director"])


@pytest.mark.parametrize("value", BAD_POINTS)
def test_bye_points_out_of_range_are_refused_and_not_stored(staff: dict[str, Any], value: str) -> None:
    client = _director(staff)
    made = create_tournament(client, staff["club"].pk)
    response = write(client, "PATCH", f"/api/v1/tournaments/{made['id']}", {"bye_points": value})
    assert response.status_code == 400, response.json()
    assert response.json()["code"] in ("invalid_bye_points", "invalid_request", "string_too_long")
    assert "set_int_max_str_digits" not in response.content.decode()
    assert Tournament.objects.get(pk=made["id"]).bye_points == ""


@pytest.mark.parametrize(
    "points",
    [
        ["1e5000", 0, 0],
        [1001, 0],
        [0.5e-3, 0],
        ["1/2000"],
        [True, 0],
        [[1], 0],
        [{"a": 1}],
        [1] * (limits.MAX_PLACES + 1),
    ],
)
def test_placement_points_out_of_range_are_refused(staff: dict[str, Any], points: list[Any]) -> None:
    client = _director(staff)
    response = write(
        client,
        "POST",
        f"/api/v1/clubs/{staff['club'].pk}/tournaments",
        {"name": "Cup", "table_size": {"min": 3, "max": 4}, "rounds": 2, "placement_points": points},
    )
    assert response.status_code == 400, response.json()
    assert response.json()["code"] in ("invalid_placement_points", "invalid_request"), response.json()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("bye", "places", "expected_bye"),
    [
        ("2.5", ["3", 2, 1.5, "1/3"], "5/2"),
        ("-1000", [1000, "-1000"], "-1000"),
        ("1/1000", [], "1/1000"),
    ],
)
def test_points_within_the_limits_are_taken(
    staff: dict[str, Any], bye: str, places: list[Any], expected_bye: str
) -> None:
    client = _director(staff)
    made = create_tournament(
        client, staff["club"].pk, scoring="placement", placement_points=places, bye_points=bye
    )
    assert made["bye_points"] == bye and made["placement_points"] == places
    assert limits.points(bye, "bye", "x") == Fraction(expected_bye)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("min_games", limits.MAX_MIN_GAMES + 1),
        ("min_games", -1),
        ("rounds", 0),
        ("rounds", limits.MAX_ROUNDS + 1),
        ("table_size", {"min": 1, "max": 4}),
        ("table_size", {"min": 3, "max": limits.MAX_TABLE_SEATS + 1}),
        ("seating_params", {"swap_budget": limits.MAX_SWAP_BUDGET + 1}),
        ("rounds", 2.5),
    ],
)
def test_whole_numbers_out_of_range_are_refused(staff: dict[str, Any], field: str, value: Any) -> None:
    client = _director(staff)
    made = create_tournament(client, staff["club"].pk)
    before = Tournament.objects.filter(pk=made["id"]).values().get()
    response = write(client, "PATCH", f"/api/v1/tournaments/{made['id']}", {field: value})
    assert response.status_code == 400, response.json()
    assert Tournament.objects.filter(pk=made["id"]).values().get() == before


def test_a_huge_integer_anywhere_in_a_league_body_is_value_out_of_range(staff: dict[str, Any]) -> None:
    client = _director(staff)
    made = create_tournament(client, staff["club"].pk)
    for raw in (HUGE_INT, "1" + "0" * 4301):
        response = client.generic(
            "PATCH",
            f"/api/v1/tournaments/{made['id']}",
            ('{"min_games": ' + raw + "}").encode(),
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=f"huge-{len(raw)}",
        )
        assert response.status_code == 400
        assert response.json()["code"] == "value_out_of_range"


# --- unknown fields ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("PATCH", "/api/v1/tournaments/{t}/rounds/1", {"shuffle": True}),
        ("PATCH", "/api/v1/tournaments/{t}/rounds/1", {"move": {"player": 1, "table": 1, "seat": 2}}),
        ("PATCH", "/api/v1/tournaments/{t}", {"name": "X", "colour": "red"}),
        ("PATCH", "/api/v1/tournaments/{t}", {"table_size": {"min": 3, "max": 4, "mid": 3}}),
        ("POST", "/api/v1/tournaments/{t}/rounds/1/publish", {"force": True}),
        ("POST", "/api/v1/tournaments/{t}/registrations", {"name": "Zed", "vip": True}),
        ("PATCH", "/api/v1/tournaments/{t}/registrations/{p}", {"status": "dropped", "why": "x"}),
        ("POST", "/api/v1/clubs/{c}/players", {"name": "Zed", "email": "z@x"}),
        (
            "POST",
            "/api/v1/clubs/{c}/tournaments",
            {"name": "Cup", "rounds": 3, "table_size": {"min": 3, "max": 4}, "x": 1},
        ),
    ],
)
def test_unknown_fields_in_a_league_write_are_refused_and_change_nothing(
    staff: dict[str, Any], method: str, path: str, body: dict[str, Any]
) -> None:
    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"))
    services.generate_round(tournament, staff["director"])
    player = tournament.registrations.first().player_id  # type: ignore[union-attr]
    url = path.format(t=tournament.pk, p=player, c=staff["club"].pk)
    before = (
        list(Round.objects.values()),
        list(Tournament.objects.values()),
        list(Player.objects.values()),
        list(tournament.registrations.values()),
    )
    response = write(_director(staff), method, url, body)
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid_request"
    unknown = set(body) - {"move", "table_size"} or {"seat", "mid"}
    assert set(response.json()["detail"]) & (unknown | {"move", "table_size"}), response.json()
    after = (
        list(Round.objects.values()),
        list(Tournament.objects.values()),
        list(Player.objects.values()),
        list(tournament.registrations.values()),
    )
    assert after == before


def test_unknown_fields_in_a_game_command_body_are_refused(ann: Any, bob: Any) -> None:
    from games.services import SeatSpec
    from tests.support.games import new_game

    game = new_game(ann, [SeatSpec(user_id=ann.pk), SeatSpec(user_id=bob.pk)])
    response = client_for(ann).post(
        f"/api/v1/games/{game.game.pk}/commands",
        {"expected_version": game.game.version, "command": {"type": "DrawFromStock", "seat": 0}, "x": 1},
        format="json",
    )
    assert response.status_code == 400 and response.json()["detail"] == {"x": ["unknown field"]}


# --- control characters: one rule -------------------------------------------------------------


@pytest.mark.parametrize("bad", ["a\x00b", "a\x07b", "tab\there", "new\nline", "del\x7f", "c1\x85c1"])
def test_control_characters_are_refused_in_every_name(staff: dict[str, Any], bad: str) -> None:
    client = _director(staff)
    made = create_tournament(client, staff["club"].pk)
    for method, url, body in (
        ("PATCH", f"/api/v1/tournaments/{made['id']}", {"name": bad}),
        ("POST", f"/api/v1/clubs/{staff['club'].pk}/players", {"name": bad}),
        ("POST", f"/api/v1/tournaments/{made['id']}/registrations", {"name": bad}),
    ):
        response = write(client, method, url, body)
        assert response.status_code == 400, (url, response.json())
    assert Tournament.objects.get(pk=made["id"]).name == "Spring Cup"
    assert not Player.objects.exists()


def test_a_reason_keeps_its_line_breaks_but_not_other_controls() -> None:
    assert limits.clean_text("a\nb\tc", "reason", 10, lines=True) == "a\nb\tc"
    with pytest.raises(limits.OutOfLimits, match="control characters"):
        limits.clean_text("a\x00b", "reason", 10, lines=True)
    with pytest.raises(limits.OutOfLimits, match="control characters"):
        limits.clean_text("a\nb", "name", 10)


def test_a_force_reason_with_a_control_character_is_refused(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"))
    response = write(
        _director(staff), "POST", f"/api/v1/tournaments/{tournament.pk}/rounds", {"force_reason": "late\x00"}
    )
    assert response.status_code == 400
    assert not Round.objects.exists()


# --- one setting stored before the limits never breaks the standings ---------------------------


def test_a_stored_out_of_range_setting_never_breaks_the_standings(staff: dict[str, Any]) -> None:
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")  # 3 + 3 and a bye
    tournament = checked_in_tournament(staff, names, table_size={"min": 3, "max": 3})
    round_ = services.generate_round(tournament, staff["director"])
    services.publish_round(round_, staff["director"])
    assert Round.objects.get(pk=round_.pk).byes
    # as a row written before the limits would hold them
    Tournament.objects.filter(pk=tournament.pk).update(
        bye_points="1e5000", placement_points=["1e5000", 0, 0], min_games=10**6
    )
    rebuild(tournament.pk)
    anonymous = APIClient()
    for url in (
        f"/api/v1/tournaments/{tournament.pk}/standings",
        f"/api/v1/tournaments/{tournament.pk}/standings.csv",
        f"/api/v1/tournaments/{tournament.pk}",
        f"/tournaments/{tournament.pk}/",
    ):
        response = anonymous.get(url)
        assert response.status_code == 200, (url, response.status_code)
    rows = anonymous.get(f"/api/v1/tournaments/{tournament.pk}/standings").json()["rows"]
    byes = [row for row in rows if row["points"] != "0"]
    assert byes == []  # the bye counts as an average game (0 under points), not 1e5000


# --- the archive import: the same checks ------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("bye_points", "1e5000"),
        ("placement_points", ["1e5000", 0, 0]),
        ("min_games", -1),
        ("min_games", 10**6),
        ("table_max", 99),
        ("rounds", 10**9),
        ("name", "Cup\x00"),
        ("name", "x" * 500),
        ("seed", ""),
        ("stake", "1e5000"),
        ("stake", "1/0"),
        ("seating_params", {"swap_budget": 10**12}),
        ("seating_params", {"shuffle": 1}),
        ("status", "bogus"),
        ("kind", "bogus"),
        ("preset", "chess"),
        ("scoring", "bogus"),
    ],
)
def test_an_archive_with_a_setting_out_of_range_imports_nothing(
    staff: dict[str, Any], field: str, value: Any
) -> None:
    from games.models import Game
    from league.archive import ArchiveError, build_archive, import_archive

    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"))
    archive = build_archive(tournament)
    archive["tournament"][field] = value
    counts = (Tournament.objects.count(), Player.objects.count(), Game.objects.count())
    with pytest.raises(ArchiveError) as refused:
        import_archive(archive)
    assert refused.value.code == "invalid_archive"
    assert (Tournament.objects.count(), Player.objects.count(), Game.objects.count()) == counts
