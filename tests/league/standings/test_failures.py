"""A projection failure stays in its tournament (issue 24, item 2): whatever one
tournament's fold raises, the beat's catch-up goes on with the others, logs it with the
tournament, records its code, and ``manage.py projections_status`` and ``/healthz`` say
which projections are behind or failing."""

from __future__ import annotations

import logging
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from league import projection, ratings
from league.models import Club, RatingProjection, StandingsState, Tournament
from league.projection_failures import error_code
from league.tasks import catch_up_ratings, catch_up_standings, refresh_standings
from tests.support.tournaments import add_round, make_tournament, open_game, players, record_hand

pytestmark = pytest.mark.django_db

# What a setting of 5,000 digits made the fold raise (issue 24, item 1).
DIGITS = "Exceeds the limit (4300 digits) for integer string conversion"


@pytest.fixture
def two_cups(owner: Any) -> tuple[Tournament, Tournament, int, int]:
    """Two tournaments with one recorded hand each; neither's standings read yet."""
    club = Club.objects.create(name="Corner club", slug="corner")
    ann, bo, cy, di = players(club, "Ann", "Bo", "Cy", "Di")
    first = make_tournament(club, name="Poisoned cup", seed="poison")
    second = make_tournament(club, name="Later cup")
    game_ids = []
    for tournament, seats in ((first, [ann, bo]), (second, [cy, di])):
        table = add_round(tournament, 1, [seats]).tables.get()
        game_ids.append(open_game(table, owner, hands=2))
        record_hand(game_ids[-1], owner, 0, [5, 20])
    return first, second, game_ids[0], game_ids[1]


@pytest.fixture
def poisoned(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first cup's standings raise whenever they are computed."""
    compute = projection.rank

    def rank(settings: Any, *args: Any, **kwargs: Any) -> Any:
        if settings.seed == "poison":
            raise ValueError(DIGITS)
        return compute(settings, *args, **kwargs)

    monkeypatch.setattr(projection, "rank", rank)


def test_a_failing_tournament_does_not_stop_a_later_one_catching_up(
    two_cups: tuple[Tournament, Tournament, int, int], poisoned: None, caplog: pytest.LogCaptureFixture
) -> None:
    first, second, _, _ = two_cups
    with caplog.at_level(logging.ERROR, logger="league.projection_failures"):
        assert catch_up_standings() == 1
    later = StandingsState.objects.get(tournament=second)
    assert later.position > 0 and len(later.rows) == 2 and later.error_code == ""
    failed = StandingsState.objects.get(tournament=first)
    assert failed.rows == [] and failed.position == 0  # the failed refresh wrote nothing
    assert (failed.error_code, failed.failed_at is not None) == ("ValueError", True)
    [logged] = caplog.records
    assert logged.getMessage() == f"the standings of tournament {first.pk} failed to refresh (ValueError)"
    assert logged.exc_info is not None and str(logged.exc_info[1]) == DIGITS  # in the log only


def test_the_outbox_refresh_of_a_failing_tournament_is_recorded_not_raised(
    two_cups: tuple[Tournament, Tournament, int, int], poisoned: None
) -> None:
    first, _, game_id, _ = two_cups
    assert refresh_standings(game_id) == 0
    assert StandingsState.objects.get(tournament=first).error_code == "ValueError"


def test_the_next_successful_refresh_clears_the_failure(
    two_cups: tuple[Tournament, Tournament, int, int], monkeypatch: pytest.MonkeyPatch, poisoned: None
) -> None:
    first, _, _, _ = two_cups
    catch_up_standings()
    assert StandingsState.objects.get(tournament=first).error_code == "ValueError"
    monkeypatch.undo()  # the cause is fixed
    assert catch_up_standings() == 1
    state = StandingsState.objects.get(tournament=first)
    assert (state.error_code, state.failed_at, len(state.rows)) == ("", None, 2)


def test_a_failing_clubs_ratings_do_not_stop_the_next_club(
    two_cups: tuple[Tournament, Tournament, int, int], owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, _, game_id, _ = two_cups
    record_hand(game_id, owner, 0, [5, 20])  # the first cup's game finishes: a rated game
    other = Club.objects.create(name="Other club", slug="other")
    cup = make_tournament(other, name="Other cup")
    eve, fay = players(other, "Eve", "Fay")
    other_game = open_game(add_round(cup, 1, [[eve, fay]]).tables.get(), owner)
    record_hand(other_game, owner, 0, [5, 20])
    refresh = ratings.refresh

    def failing(club_id: int, family: str) -> str:
        if club_id == first.club_id:
            raise KeyError("player")
        return refresh(club_id, family)

    monkeypatch.setattr(ratings, "refresh", failing)
    assert catch_up_ratings() == 1  # the other club's knock family
    failed = RatingProjection.objects.get(club_id=first.club_id, family="knock")
    assert failed.error_code == "KeyError"
    assert RatingProjection.objects.get(club=other, family="knock").games == 1


def test_projections_status_lists_what_is_behind_and_failing(
    two_cups: tuple[Tournament, Tournament, int, int], poisoned: None
) -> None:
    first, second, _, _ = two_cups
    out = StringIO()
    call_command("projections_status", stdout=out)
    assert out.getvalue().splitlines() == [
        f"standings of tournament {first.pk} (Poisoned cup): behind",
        f"standings of tournament {second.pk} (Later cup): behind",
    ]
    catch_up_standings()
    out = StringIO()
    with pytest.raises(CommandError, match=r"^1 projection\(s\) failing"):
        call_command("projections_status", stdout=out)
    [line] = out.getvalue().splitlines()
    assert line.startswith(f"standings of tournament {first.pk} (Poisoned cup): behind, failing since ")
    assert line.endswith(" (ValueError)")
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("projections_status", "--all", stdout=out)
    assert f"standings of tournament {second.pk} (Later cup): current" in out.getvalue()
    assert f"knock ratings of club {first.club_id} (corner): current" in out.getvalue()


@pytest.mark.broker  # in CI /healthz reads the real worker's heartbeat (the serial pass's cache prefix)
def test_healthz_counts_failing_projections_and_names_them_to_staff_only(
    two_cups: tuple[Tournament, Tournament, int, int], poisoned: None, make_user: Any
) -> None:
    first, _, _, _ = two_cups
    catch_up_standings()
    public = Client().get("/healthz").json()
    assert public["projections"] == {"failing": 1}
    assert public["status"] == "ok"  # a projection does not take the site out of rotation
    staff = make_user("ops")
    staff.is_staff = True
    staff.save()
    client = Client()
    client.force_login(staff)
    assert client.get("/healthz").json()["projections"] == {
        "failing": 1,
        "projections": [{"kind": "standings", "tournament": first.pk, "code": "ValueError"}],
    }


def test_an_error_code_is_the_errors_own_code_or_its_class_never_its_message() -> None:
    assert error_code(ValueError(DIGITS)) == "ValueError"
    assert error_code(type("Odd", (Exception,), {"code": "Not a code!"})()) == "Odd"
