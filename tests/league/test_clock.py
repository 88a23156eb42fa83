"""The round clock (league.clock): started and stopped by a director, computed from the
server's start time; refusals with their codes, nothing written then; the live pages'
ETag moves with it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from league import clock
from league.models import Club, Round, RoundClock, Tournament
from league.services import LeagueError
from tests.support.tournaments import add_round, make_tournament, players
from web.public_reads import live_marker

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_(db: None) -> Round:
    club = Club.objects.create(name="Clock club", slug="clock")
    tournament = make_tournament(club, round_minutes=40)
    ann, bo = players(club, "Ann", "Bo")
    return add_round(tournament, 1, [[ann, bo]])


def test_a_started_clock_counts_down_from_the_servers_start(round_: Round, owner: Any) -> None:
    started = clock.start_round_clock(round_, owner)
    assert started.minutes == 40 and started.state == clock.RUNNING
    assert started.ends_at == started.started_at + timedelta(minutes=40)
    # what any device is shown later is computed from the stored start, not counted
    later = clock.round_clock(round_, now=started.started_at + timedelta(minutes=12, seconds=55.4))
    assert later is not None
    assert (later.remaining, later.remaining_text, later.state) == (27 * 60 + 4, "27:04", clock.RUNNING)
    over = clock.round_clock(round_, now=started.started_at + timedelta(minutes=40, seconds=30))
    assert over is not None and (over.state, over.remaining_text) == (clock.OVER, "-0:30")
    hours = clock.Clock(
        1, 90, started.started_at, started.started_at + timedelta(minutes=90), None, started.started_at
    )
    assert hours.remaining_text == "1:30:00"


def test_a_length_may_be_given_and_is_checked(round_: Round, owner: Any) -> None:
    for bad in (4, 241, "30", True, 4.5):
        with pytest.raises(LeagueError) as refused:
            clock.start_round_clock(round_, owner, minutes=bad)
        assert refused.value.code == "invalid_round_minutes"
        assert "from 5 to 240" in refused.value.message
    assert not RoundClock.objects.exists()
    assert clock.start_round_clock(round_, owner, minutes=5).minutes == 5


def test_a_running_clock_is_not_started_twice_and_a_stopped_one_starts_again(
    round_: Round, owner: Any
) -> None:
    first = clock.start_round_clock(round_, owner)
    with pytest.raises(LeagueError) as refused:
        clock.start_round_clock(round_, owner)
    assert (refused.value.code, refused.value.kind.value) == ("clock_running", "conflict")
    stopped = clock.stop_round_clock(round_, owner)
    assert stopped.state == clock.STOPPED and not stopped.ticking
    # stopped, what was left stays: later reads say the same
    frozen = clock.round_clock(round_, now=timezone.now() + timedelta(minutes=30))
    assert frozen is not None and frozen.remaining == stopped.remaining
    with pytest.raises(LeagueError) as again:
        clock.stop_round_clock(round_, owner)
    assert again.value.code == "clock_not_running"
    restarted = clock.start_round_clock(round_, owner)
    assert restarted.state == clock.RUNNING and restarted.started_at >= first.started_at
    assert RoundClock.objects.count() == 1


@pytest.mark.parametrize("status", [Round.Status.DRAFT, Round.Status.COMPLETE])
def test_only_a_round_in_play_has_a_clock(round_: Round, owner: Any, status: str) -> None:
    Round.objects.filter(pk=round_.pk).update(status=status)
    with pytest.raises(LeagueError) as refused:
        clock.start_round_clock(round_, owner)
    assert refused.value.code == "round_not_running"
    assert not RoundClock.objects.exists()


def test_a_finished_tournament_starts_no_clock_and_keeps_its_length(round_: Round, owner: Any) -> None:
    Tournament.objects.filter(pk=round_.tournament_id).update(status=Tournament.Status.FINISHED)
    with pytest.raises(LeagueError) as refused:
        clock.start_round_clock(round_, owner)
    assert refused.value.code == "tournament_finished"
    with pytest.raises(LeagueError):
        clock.set_round_minutes(round_.tournament, 30, owner)
    assert Tournament.objects.get(pk=round_.tournament_id).round_minutes == 40


def test_the_tournaments_clock_is_its_latest_round_in_play(round_: Round, owner: Any) -> None:
    tournament = round_.tournament
    assert clock.tournament_clock(tournament) is None
    clock.start_round_clock(round_, owner)
    shown = clock.tournament_clock(tournament)
    assert shown is not None and shown.round_number == 1
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.COMPLETE)
    assert clock.tournament_clock(tournament) is None


def test_a_start_and_a_stop_change_the_live_pages_etag(round_: Round, owner: Any) -> None:
    before = live_marker(round_.tournament_id)
    clock.start_round_clock(round_, owner)
    started = live_marker(round_.tournament_id)
    clock.stop_round_clock(round_, owner)
    assert len({before, started, live_marker(round_.tournament_id)}) == 3


def test_the_round_length_has_its_range(round_: Round, owner: Any) -> None:
    clock.set_round_minutes(round_.tournament, 240, owner)
    assert Tournament.objects.get(pk=round_.tournament_id).round_minutes == 240
    with pytest.raises(LeagueError) as refused:
        clock.set_round_minutes(round_.tournament, 0, owner)
    assert refused.value.code == "invalid_round_minutes"
