"""The projector view (web/projector): its screens, cut to fit at 64 players; its live
part's conditional polls; a finished tournament's view polls no more. The browser test
(test_paper_browser.py) checks the fit at 1920x1080."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from league import clock
from league.models import Club, Tournament
from tests.support.celery import eager_tasks
from tests.support.public import Cup, autumn_cup
from tests.support.tournaments import add_round, make_tournament, players
from web.projector.views import COLUMNS, NAMES_PER_COLUMN, STANDINGS_PER_SCREEN

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(owner: Any, django_capture_on_commit_callbacks: Any) -> Iterator[Cup]:
    with eager_tasks():
        with django_capture_on_commit_callbacks(execute=True):
            made = autumn_cup(owner)
        yield made


def big_night(count: int = 64) -> Tournament:
    club = Club.objects.create(name="Big club", slug="big")
    tournament = make_tournament(club, name="Big night")
    people = players(club, *[f"Player {n:02}" for n in range(count)])
    add_round(tournament, 1, [people[i : i + 4] for i in range(0, count, 4)])
    return tournament


def screens(html: str) -> list[str]:
    return re.findall(r'data-screen="([a-z]+-\d+)"', html)


def test_the_view_cycles_tables_clock_and_standings(cup: Cup, owner: Any) -> None:
    clock.start_round_clock(cup.round2, owner)
    response = Client().get(f"/tournaments/{cup.tournament.pk}/projector")
    assert response.status_code == 200
    html = response.content.decode()
    assert screens(html) == ["tables-1", "clock-1", "standings-1"]
    assert html.count(" hidden") >= 2  # one screen shown at a time, the script turns them
    assert "Round 2: where you sit" in html
    assert re.search(
        r"Ann <span class=\"deals\">deals</span></td><td class=\"num\">1</td><td class=\"num\">1", html
    )
    assert 'data-clock-remaining="' in html and 'src="/static/js/projector.js"' in html
    assert "<script>" not in html and "style=" not in html  # the strict CSP: nothing inline


def test_sixty_four_players_are_cut_into_screens_that_fit(db: None) -> None:
    tournament = big_night(64)
    html = Client().get(f"/tournaments/{tournament.pk}/projector").content.decode()
    per_screen = NAMES_PER_COLUMN * COLUMNS
    tables = [s for s in screens(html) if s.startswith("tables")]
    standings = [s for s in screens(html) if s.startswith("standings")]
    assert len(tables) == -(-64 // per_screen) == 2
    assert len(standings) == -(-64 // STANDINGS_PER_SCREEN) == 4
    assert "1 of 2" in html and "4 of 4" in html
    # each player once, alphabetical across the screens
    names = re.findall(r'<td class="name">(Player \d\d)', html.split('data-screen="standings-1"')[0])
    assert names == sorted(names) and len(names) == 64


def test_an_unchanged_poll_is_a_304_and_a_started_clock_is_not(cup: Cup, owner: Any) -> None:
    url = f"/tournaments/{cup.tournament.pk}/projector/live"
    first = Client().get(url)
    assert first.status_code == 200 and first["ETag"]
    again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    clock.start_round_clock(cup.round2, owner)
    changed = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and "clock-1" in changed.content.decode()


def test_a_closed_tournaments_view_shows_final_standings_and_polls_no_more(cup: Cup) -> None:
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.FINISHED)
    html = Client().get(f"/tournaments/{cup.tournament.pk}/projector").content.decode()
    assert "Final standings" in html and "hx-get" not in html.split('id="projector-live"')[1][:80]
    assert screens(html) == ["standings-1"]


def test_a_draft_tournament_has_no_projector(cup: Cup) -> None:
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.DRAFT)
    assert Client().get(f"/tournaments/{cup.tournament.pk}/projector").status_code == 404
    assert Client().get(f"/tournaments/{cup.tournament.pk}/projector/live").status_code == 404
    assert Client().get("/tournaments/99999999999999999999/projector").status_code == 404
