"""A standings refresh after one result costs the same whatever the size of the event:
the same statements and the same rows written at a 64x8 tournament (128 games) and at a
1,504-game league season — only the games the new events belong to are read, only their
players' records are written (issue 26)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import projection
from league.models import Club, StandingsRecord, StandingsState
from tests.support.big_events import BigEvent, build_event, finish, rows_changed

pytestmark = pytest.mark.django_db

# The statements of a refresh that reads one new result, whatever the size of the event.
REFRESH = [
    "SAVEPOINT",
    'SELECT "league_standingsstate" "league_standingsstate"',  # the lock, with the tournament
    'SELECT "league_round" "league_round"',  # the counted rounds' fingerprint (one row)
    'SELECT "games_gameevent" "games_gameevent"',  # the games with events after the position,
    'SELECT "league_table" "league_round"',  # the tournament's tables playing them, with seats
    'SELECT "league_standingsgame" "league_standingsgame"',  # what was read of them
    'SELECT "games_gameevent" "games_gameevent"',  # their logs
    'SELECT "games_game" "games_game"',  # their states, for the pages (the store's cache,
    'SELECT "games_gameevent" "games_gameevent"',  # caught up; here it starts empty)
    'INSERT "league_resultversion"',
    'INSERT "league_standingsgame" "league_standingsgame"',  # upserted
    'SELECT "league_table" "league_round"',  # a game ended: is its round waiting for another?
    'SELECT "league_standingsrecord" "league_standingsrecord"',  # every record, to rank
    'INSERT "league_standingsrecord" "league_standingsrecord"',  # the table's players' records
    'UPDATE "league_standingsstate" "league_standingsstate"',  # the ranked rows
    "RELEASE",
]


def refresh_after_one_result(event: BigEvent) -> tuple[list[str], int, dict[int, Any]]:
    """The statements (their verbs and tables) and the rows written by the refresh that
    reads the last game's finish, and the records before it."""
    projection.refresh(event.tournament.pk)
    before = dict(
        StandingsRecord.objects.filter(tournament=event.tournament).values_list("player_id", "record")
    )
    finish(event.open_game, event.open_log)
    written = rows_changed()
    with CaptureQueriesContext(connection) as captured:
        projection.refresh(event.tournament.pk)
    written = rows_changed() - written
    return shapes(captured), written, before


def shapes(captured: CaptureQueriesContext) -> list[str]:
    """Each statement's verb and first tables."""
    return [
        " ".join(re.findall(r'^\w+|"league_\w+"|"games_\w+"', q["sql"])[:3])
        for q in captured.captured_queries
    ]


def test_a_refresh_reads_and_writes_the_same_at_128_games_and_at_a_1500_game_season() -> None:
    club = Club.objects.create(name="Big club", slug="big")
    small = build_event(club, players=64, rounds=8, seed=1)
    season = build_event(club, players=64, rounds=94, kind="league", seed=2)

    small_shapes, small_rows, small_before = refresh_after_one_result(small)
    season_shapes, season_rows, season_before = refresh_after_one_result(season)

    assert small_shapes == season_shapes == REFRESH
    # the game's row, its 4 players' records, its 2 result versions and the state row
    assert small_rows == season_rows == 8
    for event, before in ((small, small_before), (season, season_before)):
        after = dict(
            StandingsRecord.objects.filter(tournament=event.tournament).values_list("player_id", "record")
        )
        assert len([p for p in after if after[p] != before[p]]) == 4
        state = StandingsState.objects.get(tournament=event.tournament)
        incremental = (state.rows, after)
        projection.rebuild(event.tournament.pk)
        rebuilt = StandingsState.objects.get(tournament=event.tournament)
        records = dict(
            StandingsRecord.objects.filter(tournament=event.tournament).values_list("player_id", "record")
        )
        assert (rebuilt.rows, records) == incremental
        assert all(row["in_play"] == 0 for row in rebuilt.rows)


def test_after_a_quiet_spell_a_refresh_compares_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    """More events of other games than SCAN since the last refresh: the refresh finds its
    games' new events by their versions, and reads to the same standings."""
    club = Club.objects.create(name="Quiet club", slug="quiet")
    quiet = build_event(club, players=8, rounds=2, seed=3)
    projection.refresh(quiet.tournament.pk)
    busy = build_event(club, players=16, rounds=2, seed=4)  # 8 games of another event
    finish(quiet.open_game, quiet.open_log)
    monkeypatch.setattr(projection, "SCAN", 5)
    with CaptureQueriesContext(connection) as captured:
        done = projection.refresh(quiet.tournament.pk)
    assert done.games_read == 1
    assert any('"games_game"."version"' in q["sql"] for q in captured.captured_queries)
    state = StandingsState.objects.get(tournament=quiet.tournament)
    incremental = state.rows
    projection.rebuild(quiet.tournament.pk)
    assert StandingsState.objects.get(tournament=quiet.tournament).rows == incremental
    assert all(row["in_play"] == 0 for row in incremental)
    assert busy.tournament.pk != quiet.tournament.pk
