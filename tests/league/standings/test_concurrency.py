"""Concurrent refreshes of one tournament on PostgreSQL: one lock per tournament, so they
queue rather than interleave, and the result equals a rebuild from zero."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.db import connection, transaction

from league import projection
from league.models import Club, ResultVersion, StandingsState, Tournament
from tests.support.standings_rows import stored_rows
from tests.support.tournaments import add_round, make_tournament, open_game, players, record_hand


def snapshot(tournament: Tournament) -> tuple[Any, ...]:
    state = StandingsState.objects.get(tournament=tournament)
    versions = list(
        ResultVersion.objects.filter(tournament=tournament)
        .order_by("position")
        .values_list("game_id", "position", "cause", "result")
    )
    return state.position, stored_rows(tournament), state.rows, versions


def in_thread(target: Any, errors: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            target()
        except BaseException as exc:  # reported by the test
            errors.append(exc)
        finally:
            connection.close()

    return threading.Thread(target=run)


@pytest.mark.usefixtures("postgres_required")
@pytest.mark.django_db(transaction=True)
def test_concurrent_refreshes_queue_on_the_tournament_lock_and_agree_with_a_rebuild(owner: Any) -> None:
    club = Club.objects.create(name="Busy club", slug="busy")
    people = players(club, *"ABCDEFGH")
    tournament = make_tournament(club, scoring="placement")
    rnd = add_round(tournament, 1, [people[0:4], people[4:8]])
    games = [open_game(table, owner, hands=4) for table in rnd.tables.all()]
    projection.refresh(tournament.pk)

    # A refresh holding the lock makes another wait for it.
    holding, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []
    waited: list[float] = []

    def hold() -> None:
        with transaction.atomic():
            StandingsState.objects.select_for_update().get(tournament=tournament)
            holding.set()
            release.wait(5)

    def second() -> None:
        holding.wait(5)
        start = time.monotonic()
        projection.refresh(tournament.pk)
        waited.append(time.monotonic() - start)

    threads = [in_thread(hold, errors), in_thread(second, errors)]
    for thread in threads:
        thread.start()
    holding.wait(5)
    time.sleep(0.3)
    release.set()
    for thread in threads:
        thread.join(10)
    assert not errors and waited and waited[0] >= 0.25

    # Hands recorded while four threads refresh over and over.
    def record() -> None:
        for hand in range(4):
            for game in games:
                record_hand(game, owner, hand % 4, [hand, 20, 25, 30])

    def refresher() -> None:
        for _ in range(15):
            projection.refresh(tournament.pk)

    threads = [in_thread(record, errors)] + [in_thread(refresher, errors) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    projection.refresh(tournament.pk)
    incremental = snapshot(tournament)
    assert len(incremental[3]) == 2 * (4 + 1)  # every hand scored, and each game's finish
    projection.rebuild(tournament.pk)
    assert snapshot(tournament) == incremental
