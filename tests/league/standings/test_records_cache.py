"""The per-process cache of the standings records (league.standings_records.records_cache):
a refresh after the one this process committed moves the cached records instead of
reading every stored one, and still ranks as a rebuild from zero does; a refresh rolled
back, or a write by another process, leaves nothing wrong behind."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from league import projection
from league.models import Club, StandingsRecord, StandingsState
from tests.league.standings.test_refresh_scale import REFRESH, shapes
from tests.support.big_events import BigEvent, build_event, finish

pytestmark = pytest.mark.django_db

Commits = Callable[..., AbstractContextManager[Any]]
RECORDS_READ = 'SELECT "league_standingsrecord" "league_standingsrecord"'


def stored(event: BigEvent) -> tuple[list[Any], dict[int, Any]]:
    state = StandingsState.objects.get(tournament=event.tournament)
    records = StandingsRecord.objects.filter(tournament=event.tournament).values_list("player_id", "record")
    return state.rows, dict(records)


def stored_as_rebuilt(event: BigEvent) -> tuple[list[Any], dict[int, Any]]:
    """The standings and records the refreshes stored, once checked equal to what a
    rebuild from the logs stores."""
    incremental = stored(event)
    projection.rebuild(event.tournament.pk)
    assert stored(event) == incremental
    return incremental


def refresh_reads_records(event: BigEvent, commits: Commits) -> bool:
    """Refresh (its commit callbacks run, as after a commit); whether it read the records."""
    return RECORDS_READ in refresh_statements(event, commits)


def refresh_statements(event: BigEvent, commits: Commits) -> list[str]:
    with commits(execute=True), CaptureQueriesContext(connection) as captured:
        projection.refresh(event.tournament.pk)
    return shapes(captured)


@pytest.fixture
def event() -> BigEvent:
    club = Club.objects.create(name="Cache club", slug="cache")
    return build_event(club, players=16, rounds=3, seed=5, open_games=3)


def test_a_refresh_after_a_committed_one_moves_the_cached_records(
    event: BigEvent, django_capture_on_commit_callbacks: Commits
) -> None:
    assert refresh_reads_records(event, django_capture_on_commit_callbacks) is False  # built whole
    for game in event.open_games:
        finish(game, event.open_log)
        # the statements of a refresh after one result, but the read of every record
        statements = refresh_statements(event, django_capture_on_commit_callbacks)
        assert statements == [s for s in REFRESH if s != RECORDS_READ]
    rows, _ = stored_as_rebuilt(event)
    assert all(row["in_play"] == 0 for row in rows)


def test_a_refresh_rolled_back_leaves_the_cached_records_as_committed(
    event: BigEvent, django_capture_on_commit_callbacks: Commits
) -> None:
    refresh_reads_records(event, django_capture_on_commit_callbacks)
    finish(event.open_games[0], event.open_log)
    with (
        pytest.raises(RuntimeError),
        django_capture_on_commit_callbacks(execute=True),
        transaction.atomic(),
    ):
        projection.refresh(event.tournament.pk)
        raise RuntimeError("rolled back")
    # the same game read again, from the records the rolled-back refresh had moved
    assert refresh_reads_records(event, django_capture_on_commit_callbacks) is False
    stored_as_rebuilt(event)


def test_records_written_elsewhere_are_read_again(
    event: BigEvent, django_capture_on_commit_callbacks: Commits
) -> None:
    refresh_reads_records(event, django_capture_on_commit_callbacks)
    finish(event.open_games[0], event.open_log)
    projection.refresh(event.tournament.pk)  # as another process would: not kept here
    finish(event.open_games[1], event.open_log)
    assert refresh_reads_records(event, django_capture_on_commit_callbacks) is True
    stored_as_rebuilt(event)
