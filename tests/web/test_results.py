"""Results that stay and numbers people read: a closed tournament's page is final (no
live note, no polling); standings show decimals with the exact value on hover; the club
page lists finished tournaments with their winners and searches by name; the round clock
on the public page and its length in the tournament form."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from league import clock
from league.models import Club, Membership, Player, Tournament
from tests.support.celery import eager_tasks
from tests.support.public import Cup, autumn_cup
from tests.support.tournaments import add_round, make_tournament, open_game, players, record_hand
from tests.web.test_desk_views import form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup(owner: Any, django_capture_on_commit_callbacks: Any) -> Iterator[Cup]:
    with eager_tasks():
        with django_capture_on_commit_callbacks(execute=True):
            made = autumn_cup(owner)
        yield made


def test_a_closed_tournaments_page_is_final_and_polls_no_more(cup: Cup) -> None:
    url = f"/tournaments/{cup.tournament.pk}/"
    running = Client().get(url).content.decode()
    assert "Live: updated" in running and "hx-get" in running and "Final standings" not in running
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.FINISHED)
    closed = Client().get(url).content.decode()
    assert "Final standings" in closed and "final standings and tables" in closed
    assert "Live: updated" not in closed and "hx-get" not in closed and "hx-trigger" not in closed
    assert "Projector view" not in closed
    # a page left open when it closed gets the final part from its next poll, which stops
    part = Client().get(f"{url}live/").content.decode()
    assert "Final standings" in part and "hx-trigger" not in part


def test_the_round_clock_is_on_the_public_page(cup: Cup, owner: Any) -> None:
    url = f"/tournaments/{cup.tournament.pk}/"
    assert "round-clock" not in Client().get(url).content.decode()
    started = clock.start_round_clock(cup.round2, owner, minutes=30)
    html = Client().get(url).content.decode()
    assert re.search(r'data-clock-remaining="(1799|1800)"', html)
    assert f'Ends at <time datetime="{started.ends_at.isoformat()}"' in html.replace("+00:00", "+00:00")
    assert 'src="/static/js/clock.js"' in html


@pytest.fixture
def thirds(owner: Any, django_capture_on_commit_callbacks: Any) -> Tournament:
    """Ann knocks with 9 against three 2s: she pays 7 + 10, shared by three: 17/3 each."""
    club = Club.objects.create(name="Share club", slug="share")
    tournament = make_tournament(club, name="Shares")
    table = add_round(tournament, 1, [players(club, "Ann", "Bo", "Cy", "Di")]).tables.get()
    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        record_hand(open_game(table, owner), owner, 0, [9, 2, 2, 2])
    return tournament


def test_standings_show_decimals_with_the_exact_value_on_hover(thirds: Tournament) -> None:
    html = Client().get(f"/tournaments/{thirds.pk}/").content.decode()
    cells = re.findall(r'<td class="num points">(.*?)</td>', html)
    assert cells == ['<span class="exact" title="17/3">5.67</span>'] * 3 + ["-17"]
    standings = html.split('class="data standings"')[1].split("</table>")[0]
    assert "2/3" not in standings.replace('title="17/3"', "")


def test_a_rounded_figure_keeps_its_exact_value_on_hover(cup: Cup) -> None:
    from web.public_standings import number

    assert number("249/5").shown == number("49.8").shown and number("249/5").exact == ""
    thirds = number("20/3")
    assert (str(thirds.shown), thirds.exact) == ("6.67", "20/3")
    from django.template import Context, Template

    rendered = Template("{% load numbers %}{% figure value %}").render(Context({"value": thirds}))
    assert rendered == '<span class="exact" title="20/3">6.67</span>'


def test_the_club_page_lists_finished_tournaments_with_their_winners(cup: Cup) -> None:
    page = Client().get(f"/clubs/{cup.club.slug}/").content.decode()
    assert "No tournament or league has finished yet." in page
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.FINISHED)
    page = Client().get(f"/clubs/{cup.club.slug}/").content.decode()
    results = page.split('id="results"')[1].split("</section>")[0]
    assert f'href="/tournaments/{cup.tournament.pk}/">Autumn cup</a>' in results
    words = " ".join(re.sub(r"<[^>]+>", " ", results).split())
    assert "Winner: Bo" in words and "4 players" in words


def test_a_club_search_finds_players_and_tournaments_by_name(cup: Cup) -> None:
    Player.objects.create(club=cup.club, name="Zoé Lefèvre")
    response = Client().get(f"/clubs/{cup.club.slug}/search", {"q": "ZOE lef"})
    assert response.status_code == 200
    html = response.content.decode()
    assert ">Zoé Lefèvre</a>" in html and "No tournament's name contains" in html
    cups = Client().get(f"/clubs/{cup.club.slug}/search", {"q": "autumn"}).content.decode()
    assert f'href="/tournaments/{cup.tournament.pk}/">Autumn cup</a>' in cups
    empty = Client().get(f"/clubs/{cup.club.slug}/search", {"q": "x" * 5000})
    assert empty.status_code == 200
    assert Client().get("/clubs/nowhere/search", {"q": "a"}).status_code == 404
    assert 'action="/clubs/riverside/search"' in Client().get("/clubs/riverside/").content.decode()


def test_the_round_length_is_set_in_the_tournament_form(cup: Cup, make_user: Any) -> None:
    user = make_user("dana")
    Membership.objects.create(club=cup.club, user=user, role=Membership.Role.DIRECTOR)
    director = Client()
    director.force_login(user)
    new = f"/clubs/{cup.club.slug}/tournaments/new"
    too_long = director.post(new, form_data(round_minutes="241"))
    assert too_long.status_code == 400 and "less than or equal to 240" in too_long.content.decode()
    assert director.post(new, form_data(round_minutes="35")).status_code == 302
    created = Tournament.objects.get(name="Winter Open")
    assert created.round_minutes == 35
    edit = f"/tournaments/{created.pk}/edit"
    assert 'name="round_minutes" value="35"' in director.get(edit).content.decode()
    saved = director.post(edit, form_data(round_minutes="50", idempotency_key="form-key-00000002"))
    assert saved.status_code == 302
    assert Tournament.objects.get(pk=created.pk).round_minutes == 50
    # once a round exists the length may still change: it seats no one
    ann, bo = players(cup.club, "Ann W", "Bo W")
    add_round(created, 1, [[ann, bo]])
    page = director.get(edit).content.decode()
    assert re.search(r'name="round_minutes"[^>]*value="50"', page) and "disabled" not in re.search(
        r'<input[^>]*name="round_minutes"[^>]*>', page
    ).group(0)  # type: ignore[union-attr]


def test_a_club_search_with_a_nul_finds_nothing_and_is_no_500(
    cup: Cup, django_assert_num_queries: Any
) -> None:
    """PostgreSQL's text cannot hold a NUL: the query is answered empty, never sent there."""
    from league.search import search_club

    with django_assert_num_queries(0):
        assert search_club(cup.club, "A\x00n", user=None).players == []
    response = Client(raise_request_exception=False).get(f"/clubs/{cup.club.slug}/search?q=A%00n")
    assert response.status_code == 200
    assert response.context["found"].players == [] and response.context["found"].tournaments == []
