"""The league's refusals name the input they concern (``DomainError.field``), so the
desk's form shows each under its field without reading the message (issue 25 §1)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from league import services
from league.models import Club, Registration, Tournament

pytestmark = pytest.mark.django_db

BASE: dict[str, Any] = {
    "name": "Cup",
    "kind": "tournament",
    "preset": "knock-rummy",
    "mode": "physical",
    "table_size": {"min": 3, "max": 4},
    "seating": "balanced",
    "rounds": 3,
}


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Kings", slug="kings")


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"rounds": 0}, "invalid_request", "rounds"),
        ({"rounds": "3"}, "invalid_request", "rounds"),
        ({"table_size": {"min": 1, "max": 4}}, "invalid_request", "table_size.min"),
        ({"table_size": [3, 4]}, "invalid_request", "table_size"),
        ({"mode": "telepathic"}, "invalid_request", "mode"),
        ({"kind": "marathon"}, "invalid_request", "kind"),
        ({"bots": "yes"}, "invalid_request", "bots"),
        ({"options": {"cards_dealt": {"2": 99}}}, "invalid_ruleset", "options.cards_dealt"),
        ({"options": "fast"}, "invalid_ruleset", "options"),
        ({"name": ""}, "invalid_request", "name"),
        ({"tiebreaks": ["coin_toss"]}, "unknown_tiebreak", "tiebreaks"),
        ({"seating_params": []}, "invalid_request", "seating_params"),
    ],
)
def test_a_refused_tournament_setting_names_its_field(
    club: Club, change: dict[str, Any], code: str, field: str
) -> None:
    with pytest.raises(services.LeagueError) as refused:
        services.create_tournament(club, {**BASE, **change}, None)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert not Tournament.objects.exists()


def test_rounds_below_those_generated_name_the_rounds(club: Club) -> None:
    tournament = services.create_tournament(club, BASE, None)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
        registration = services.register(tournament, name=name)
        services.set_registration_status(registration, Registration.Status.CHECKED_IN)
    services.generate_round(tournament, None)
    with pytest.raises(services.LeagueError) as refused:
        services.update_tournament(tournament, {"rounds": 0}, None)
    assert refused.value.field == "rounds"


def test_a_late_entry_before_the_next_round_names_from_round(club: Club) -> None:
    tournament = services.create_tournament(club, BASE, None)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"):
        registration = services.register(tournament, name=name)
        services.set_registration_status(registration, Registration.Status.CHECKED_IN)
    services.generate_round(tournament, None)
    with pytest.raises(services.LeagueError) as refused:
        services.register(tournament, name="Gus", from_round=1)
    assert (refused.value.code, refused.value.field) == ("invalid_request", "from_round")
    assert not tournament.registrations.filter(player__name="Gus").exists()


def test_the_form_shows_a_rule_options_refusal_under_that_option() -> None:
    from league.errors import LeagueError
    from web.desk.forms import TournamentForm

    data = {
        "name": "Cup",
        "kind": "tournament",
        "preset": "knock-rummy",
        "options_for": "knock-rummy",
        "mode": "physical",
        "table_min": "3",
        "table_max": "4",
        "seating": "balanced",
        "rounds": "4",
    }
    for name, value in engine.get_ruleset("knock-rummy").options().items():
        if name == "cards_dealt":
            data[f"opt_{name}"] = ", ".join(f"{p}:{c}" for p, c in value.items())
        elif value is not None and value is not False:
            data[f"opt_{name}"] = "on" if value is True else str(value)
    form = TournamentForm(data)
    assert form.is_valid(), form.errors
    form.add_service_error(
        LeagueError("invalid_ruleset", "cards_dealt for 2 players must be 1..13", field="options.cards_dealt")
    )
    assert form.errors["opt_cards_dealt"] == ["cards_dealt for 2 players must be 1..13"]
