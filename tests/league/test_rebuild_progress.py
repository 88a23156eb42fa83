"""The rebuild commands show their progress: a line per batch when their output is no
terminal (issue 26)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from league import projection, ratings
from league.models import Club, Player, RatingEntry, StandingsGame
from tests.support.big_events import build_event, club_games

pytestmark = pytest.mark.django_db


def test_rebuild_ratings_prints_a_line_per_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    club = Club.objects.create(name="Batch club", slug="batch")
    people = Player.objects.bulk_create([Player(club=club, name=f"P{i}") for i in range(8)])
    club_games(club, people, 25)
    monkeypatch.setattr(ratings, "BATCH_GAMES", 10)
    out = StringIO()
    call_command("rebuild_ratings", "batch", stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines[:3]] == [
        "batch knock: 10 games rated",
        "batch knock: 20 games rated",
        "batch knock: 25 games rated",
    ]
    assert "batch knock: 25 games rated" in lines[3] and lines[-1].startswith("rebuilt in ")
    assert RatingEntry.objects.filter(club=club).values("game").distinct().count() == 25


def test_rebuild_standings_prints_a_line_per_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    club = Club.objects.create(name="Batch club", slug="batch")
    event = build_event(club, players=16, rounds=3)
    monkeypatch.setattr(projection, "BATCH_GAMES", 5)
    out = StringIO()
    call_command("rebuild_standings", str(event.tournament.pk), stdout=out)
    assert out.getvalue().splitlines() == [
        f"tournament {event.tournament.pk}: 5 game(s) read",
        f"tournament {event.tournament.pk}: 10 game(s) read",
        f"tournament {event.tournament.pk}: 12 game(s) read",
        f"tournament {event.tournament.pk}: 12 game(s) read, 22 result version(s), current to position "
        f"{projection.refresh(event.tournament.pk).position}",
    ]
    assert StandingsGame.objects.filter(tournament=event.tournament).count() == 12
