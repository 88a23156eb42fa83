"""``manage.py regenerate_round --check``: every method's rounds compute again to the
same tables from what the round stored; a changed round is reported, with a non-zero
exit."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from league import services
from league.models import Player, Round, Tournament
from tests.support.league import finish_round

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida")


def _tournament(
    staff: dict[str, Any], method: str, low: int, high: int, count: int, **extra: Any
) -> Tournament:
    data = {
        "name": f"{method} cup",
        "seating": method,
        "table_size": {"min": low, "max": high},
        "rounds": 3,
        "seed": f"seed-{method}",
        "options": {"hands": 1},
        **extra,
    }
    tournament = services.create_tournament(staff["club"], data, staff["director"])
    for name in NAMES[:count]:
        player, _ = Player.objects.get_or_create(club=staff["club"], name=name)
        registration = services.register(tournament, player=player, seed_number=NAMES.index(name) + 1)
        services.set_registration_status(registration, "checked_in")
    return tournament


def _play_rounds(tournament: Tournament, staff: dict[str, Any], rounds: int, manual: Any = None) -> None:
    director = staff["director"]
    for _ in range(rounds):
        round_ = services.generate_round(tournament, director, manual=manual)
        round_ = services.publish_round(round_, director)
        finish_round(round_, director)
        assert services.check_round_complete(round_)


def _check(tournament: Tournament, number: int) -> str:
    out = StringIO()
    call_command("regenerate_round", str(tournament.pk), str(number), "--check", stdout=out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("method", "low", "high", "count", "rounds"),
    [
        ("balanced", 3, 4, 9, 3),
        ("swiss", 2, 2, 7, 3),
        ("swiss", 3, 4, 9, 2),
        ("round_robin", 2, 2, 6, 3),
        ("round_robin", 3, 3, 9, 2),
        ("knockout", 2, 2, 7, 3),
    ],
)
def test_every_round_regenerates_the_same(
    staff: dict[str, Any], method: str, low: int, high: int, count: int, rounds: int
) -> None:
    tournament = _tournament(staff, method, low, high, count)
    _play_rounds(tournament, staff, rounds)
    for number in range(1, rounds + 1):
        assert "the same seating" in _check(tournament, number)
    # a later round was seated from the earlier ones: its request holds their results
    last = Round.objects.get(tournament=tournament, number=rounds)
    assert len(last.request["history"]) == rounds - 1
    if method in ("swiss", "knockout"):
        assert all(table[2] is not None for past in last.request["history"] for table in past[1])


def test_a_manual_round_regenerates_the_same(staff: dict[str, Any]) -> None:
    tournament = _tournament(staff, "manual", 3, 4, 7)
    ids = [r.player_id for r in tournament.registrations.order_by("id")]
    _play_rounds(tournament, staff, 1, manual={"tables": [ids[:4], ids[4:]], "byes": []})
    assert "the same seating" in _check(tournament, 1)


def test_knockout_winners_advance(staff: dict[str, Any]) -> None:
    tournament = _tournament(staff, "knockout", 2, 2, 4, rounds=None)
    director = staff["director"]
    first = services.publish_round(services.generate_round(tournament, director), director)
    # seeds 1 v 4 and 2 v 3; seat 1 wins at table 1, seat 0 at table 2
    finish_round(first, director, winners={1: 1})
    tables = {t.number: [s.player_id for s in t.seats.all()] for t in first.tables.all()}
    final = services.generate_round(tournament, director)
    seats = [s.player_id for s in final.tables.get().seats.all()]
    assert sorted(seats) == sorted([tables[1][1], tables[2][0]])
    final = services.publish_round(final, director)
    finish_round(final, director)
    assert services.check_round_complete(final)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert "the same seating" in _check(tournament, 2)


def test_a_changed_round_fails_the_check(staff: dict[str, Any]) -> None:
    tournament = _tournament(staff, "balanced", 3, 4, 8)
    round_ = services.generate_round(tournament, staff["director"])
    generated = dict(round_.generated)
    first = generated["tables"][0]["seats"]
    generated["tables"][0]["seats"] = [*first[1:], first[0]]
    Round.objects.filter(pk=round_.pk).update(generated=generated)
    with pytest.raises(CommandError) as refused:
        _check(tournament, 1)
    assert refused.value.returncode == 1
    # without --check the difference is reported and the command succeeds
    out = StringIO()
    call_command("regenerate_round", tournament.slug, "1", stdout=out)
    assert "differs" in out.getvalue() and "tables" in out.getvalue()
    # a changed input is caught by its digest
    Round.objects.filter(pk=round_.pk).update(generated=round_.generated, seed="other")
    request = dict(round_.request)
    request["seed"] = "other"
    Round.objects.filter(pk=round_.pk).update(request=request)
    with pytest.raises(CommandError):
        _check(tournament, 1)


def test_unknown_tournament_or_round(staff: dict[str, Any]) -> None:
    with pytest.raises(CommandError, match="no tournament"):
        call_command("regenerate_round", "4242", "1")
    tournament = _tournament(staff, "balanced", 3, 4, 6)
    with pytest.raises(CommandError, match="no round 1"):
        call_command("regenerate_round", str(tournament.pk), "1")


def test_a_round_robin_schedule_is_computed_once_and_given_back(staff: dict[str, Any]) -> None:
    tournament = _tournament(staff, "round_robin", 3, 3, 9)
    _play_rounds(tournament, staff, 3)
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    # round 1 computed the schedule (9 players at 3 over 3 rounds: AG(2,3)) and stored it
    schedule = rounds[0].generated["schedule"]
    assert schedule["first"] == 1 and len(schedule["rounds"]) == 3
    assert "schedule" not in rounds[0].request
    # the later rounds were given it in their request, seated its rows, computed nothing
    for round_ in rounds[1:]:
        assert round_.request["schedule"] == schedule
        assert "schedule" not in round_.generated
        row = schedule["rounds"][round_.number - 1][0]
        seated = sorted(sorted(t["seats"]) for t in round_.generated["tables"])
        assert seated == sorted(sorted(t) for t in row)
    for number in (1, 2, 3):
        assert "the same seating" in _check(tournament, number)


def test_a_round_seated_by_algorithm_1_still_regenerates(staff: dict[str, Any]) -> None:
    """A round stored before look-ahead seating (its request has no "algorithm") is
    computed again by the algorithm that seated it, notes included."""
    from league.seating import Request, input_digest, make_seating

    tournament = _tournament(staff, "balanced", 3, 4, 9)
    round_ = services.generate_round(tournament, staff["director"])
    old = dict(round_.request)
    old.pop("algorithm")
    request = Request.from_dict(old)
    assert request.algorithm == 1
    seating = make_seating("balanced", request)
    assert seating.notes[-1].code == "repeat_cost"  # the version-1 summary
    Round.objects.filter(pk=round_.pk).update(
        request=old, generated=seating.to_dict(), input_digest=input_digest(request, "balanced")
    )
    assert request.to_dict() == old  # the digest of a stored request does not move
    assert "the same seating" in _check(tournament, 1)
