"""One lock order (issue 24, item 5): publishing a round raced against a scorekeeper
opening a club game, on PostgreSQL. Publishing used to hold the club's row (``SELECT …
FOR UPDATE`` over a join reaching the club) while opening each table's game, which waits
for the event store's advisory lock; a club game's creation holds that lock and, at
commit, checks its deferred foreign key on the club (``FOR KEY SHARE``), which waits for
the publish: ``deadlock detected``, a 500 for one of them."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from games.models import Game
from league import services
from league.models import ClubGame, Round
from tests.support.games import client_for
from tests.support.league import ELEVEN, checked_in_tournament, write

RACES = 15
CREATORS = 3  # club games opened during each publish


def in_thread(target: Any, answers: list[Any]) -> threading.Thread:
    def run() -> None:
        try:
            answers.append(target())
        except BaseException as exc:  # reported by the test
            answers.append(exc)
        finally:
            connection.close()

    return threading.Thread(target=run)


def race(publisher: Any, scorekeeper: Any, tournament_id: int, club_id: int) -> list[Any]:
    """Publish round 1 while ``CREATORS`` club games are opened; every answer's status."""
    start = threading.Barrier(1 + CREATORS)
    game = {"preset": "knock-rummy", "mode": "physical", "seats": [{"name": "Ann"}, {"name": "Bo"}]}

    def publish() -> int:
        start.wait(5)
        url = f"/api/v1/tournaments/{tournament_id}/rounds/1/publish"
        return int(write(publisher, "POST", url, {}).status_code)

    def create() -> int:
        start.wait(5)
        return int(write(scorekeeper, "POST", f"/api/v1/clubs/{club_id}/games", game).status_code)

    answers: list[Any] = []
    threads = [in_thread(publish, answers)] + [in_thread(create, answers) for _ in range(CREATORS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return sorted(answers, key=str)


@pytest.mark.usefixtures("postgres_required")
@pytest.mark.django_db(transaction=True)
def test_publishing_raced_against_club_game_creation_never_deadlocks(staff: dict[str, Any]) -> None:
    club, director = staff["club"], staff["director"]
    publisher, scorekeeper = client_for(director, token=True), client_for(staff["scorekeeper"], token=True)
    statuses = []
    for number in range(RACES):
        tournament = checked_in_tournament(staff, ELEVEN[:9], name=f"Cup {number}")  # 3 tables of 3
        services.generate_round(tournament, director)
        statuses.append(race(publisher, scorekeeper, tournament.pk, club.pk))
    assert statuses == [[201] * (1 + CREATORS)] * RACES
    assert Round.objects.filter(status=Round.Status.PUBLISHED).count() == RACES
    # every game is linked to the club once: 3 tables a round, and the club games
    assert ClubGame.objects.filter(club=club).count() == Game.objects.count() == RACES * (3 + CREATORS)


# The modules that may lock rows, and why (league/locks.py has the order).
LOCKERS = {
    "league/locks.py": "the league's rows, in the documented order and strength",
    "league/projection.py": "a tournament's StandingsState, the standings projection's own row",
    "league/ratings.py": "a club family's RatingProjection, the ratings projection's own row",
}


def test_rows_are_locked_only_where_the_lock_order_is_kept() -> None:
    root = Path(__file__).resolve().parents[2]
    found = sorted(
        str(path.relative_to(root))
        for package in ("league", "games", "web", "config")
        for path in (root / package).rglob("*.py")
        if "migrations" not in path.parts and "select_for_update(" in path.read_text()
    )
    assert found == sorted(LOCKERS)
