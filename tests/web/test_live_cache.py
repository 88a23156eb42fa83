"""The live parts are rendered once per version and shared (issue 26, web.live_parts):
every viewer in a language gets the same bytes, from the cache after the first render
(the marker's query alone); each language has its own; the round clock is drawn per
response; a version being rendered keeps a poller on the one it holds. The live part
holds the current round only; the earlier rounds are cached fragments that a correction
of one of their hands changes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from league import clock
from league.models import Club, Round
from tests.support.celery import eager_tasks
from tests.support.public import Cup, autumn_cup
from tests.support.tournaments import add_round, command, make_tournament, open_game, players, record_hand
from web import live_parts

pytestmark = pytest.mark.django_db

OLD = '"p0-r0.0-running0-en"'  # a version the viewer held before


@pytest.fixture
def cup(owner: Any, django_capture_on_commit_callbacks: Any) -> Iterator[Cup]:
    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        made = autumn_cup(owner)
    yield made


def live_url(cup: Cup) -> str:
    return f"/tournaments/{cup.tournament.pk}/live/"


def poll(client: Client, url: str, etag: str = OLD, language: str = "en") -> Any:
    return client.get(url, headers={"HX-Request": "true", "If-None-Match": etag, "Accept-Language": language})


def test_a_changed_version_is_rendered_once_and_every_viewer_gets_the_same_bytes(
    cup: Cup, ann: Any, django_assert_num_queries: Any
) -> None:
    url = live_url(cup)
    first = poll(Client(), url)
    assert first.status_code == 200
    signed_in = Client()
    signed_in.force_login(ann)
    with django_assert_num_queries(1):  # the marker: the body is the cached one
        second = poll(signed_in, url)
    assert second.status_code == 200 and second["ETag"] == first["ETag"]
    assert second.content == first.content
    body = second.content.decode()
    # nothing of the viewer: no name, no CSRF token, no session
    assert ann.username not in body and "csrf" not in body.lower()
    assert "Round 2" in body and 'id="live"' in body
    assert second["HX-Trigger"] == live_parts.LIVE_CHANGED


def test_each_language_has_its_own_version(cup: Cup) -> None:
    url = live_url(cup)
    english = poll(Client(), url, language="en")
    french = poll(Client(), url, language="fr")
    assert english["ETag"].endswith('-en"') and french["ETag"].endswith('-fr"')
    assert "Standings" in english.content.decode() and "Classement" in french.content.decode()
    again = poll(Client(), url, language="fr")
    assert again.content == french.content


def test_the_round_clock_is_drawn_for_each_response(cup: Cup, owner: Any) -> None:
    clock.start_round_clock(cup.round2, owner, minutes=30)
    url = live_url(cup)
    part_html = poll(Client(), url).content.decode()
    etag = poll(Client(), url)["ETag"]
    cached: live_parts.Part = cache.get(live_parts._key("public", cup.tournament.pk, etag))
    assert cached is not None and cached.clock is not None
    assert live_parts.CLOCK_SLOT in cached.body and "data-clock-remaining" not in cached.body
    assert 'data-clock-remaining="' in part_html
    later = cached.clock.now + timedelta(minutes=10)
    left = re.search(r'data-clock-remaining="(\d+)"', cached.html(later))
    assert left is not None and int(left.group(1)) == cached.clock.remaining - 600


def test_a_version_being_rendered_keeps_a_poller_on_the_one_it_holds(
    cup: Cup, django_assert_max_num_queries: Any
) -> None:
    url = live_url(cup)
    etag = poll(Client(), url, etag='"none"')["ETag"]
    key = live_parts._key("public", cup.tournament.pk, etag)
    cache.delete(key)
    cache.add(f"{key}:rendering", 1, live_parts.LOCK_SECONDS)  # another request is rendering it
    try:
        with django_assert_max_num_queries(1):
            waiting = poll(Client(), url)
        assert waiting.status_code == 304 and waiting["ETag"] == OLD and cache.get(key) is None
        opened = Client().get(url)  # a viewer holding no version gets it rendered
        assert opened.status_code == 200 and opened["ETag"] == etag
    finally:
        cache.delete(f"{key}:rendering")


def test_the_live_part_holds_the_current_round_and_the_page_the_earlier_ones(cup: Cup) -> None:
    part = poll(Client(), live_url(cup)).content.decode()
    assert 'data-table="2-1"' in part and 'data-table="1-1"' not in part
    page = Client().get(f"/tournaments/{cup.tournament.pk}/").content.decode()
    earlier = page[page.index('id="earlier-rounds"') :]
    assert 'data-table="1-1"' in earlier and 'data-table="1-2"' in earlier
    assert 'hx-trigger="live-changed from:body"' in earlier


def test_a_correction_of_an_earlier_rounds_hand_shows(
    cup: Cup, owner: Any, django_capture_on_commit_callbacks: Any, django_assert_num_queries: Any
) -> None:
    url = f"/tournaments/{cup.tournament.pk}/rounds/"
    first = Client().get(url)
    etag = first["ETag"]
    with django_assert_num_queries(1):  # unchanged: the rounds' versions, one query
        assert Client().get(url, headers={"If-None-Match": etag}).status_code == 304

    def table_2(html: str) -> str:
        return html[html.index('data-table="1-2"') :].split("</li>")[0]

    assert "+4" in table_2(first.content.decode()) or ">4<" in table_2(first.content.decode())
    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        game = cup.games["t2"]
        command(game, owner, {"type": "Retract", "count": 3, "reason": "wrong seats"})
        record_hand(game, owner, 1, [30, 2])  # Di knocked: Cy -28
    corrected = Client().get(url, headers={"If-None-Match": etag})
    assert corrected.status_code == 200 and corrected["ETag"] != etag
    assert "-28" in table_2(corrected.content.decode())
    page = Client().get(f"/tournaments/{cup.tournament.pk}/").content.decode()
    assert "-28" in table_2(page[page.index('id="earlier-rounds"') :])


def test_a_result_in_the_round_in_play_leaves_the_earlier_rounds_unchanged(
    owner: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The live part changes; the earlier rounds' version (a row a round and the position
    of the last refresh that read a complete round's game) does not, so the page's fetch
    of them after the change is a 304."""
    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        club = Club.objects.create(name="Hill club", slug="hill")
        tournament = make_tournament(club, rounds=3)
        ann, bo = players(club, "Ann", "Bo")
        round1 = add_round(tournament, 1, [[ann, bo]])
        record_hand(open_game(round1.tables.get(), owner), owner, 0, [3, 20])
        Round.objects.filter(pk=round1.pk).update(status=Round.Status.COMPLETE)
        round2 = add_round(tournament, 2, [[ann, bo]])
        game = open_game(round2.tables.get(), owner, hands=3)
    rounds_url, live_url = (f"/tournaments/{tournament.pk}/{part}/" for part in ("rounds", "live"))
    earlier = Client().get(rounds_url)["ETag"]
    assert earlier.startswith('"e1-')  # round 1
    live = poll(Client(), live_url)["ETag"]
    with eager_tasks(), django_capture_on_commit_callbacks(execute=True):
        record_hand(game, owner, 0, [5, 9])  # round 2's first hand of three
    changed = poll(Client(), live_url, etag=live)
    assert changed.status_code == 200 and changed["ETag"] != live
    assert Client().get(rounds_url, headers={"If-None-Match": earlier}).status_code == 304


def test_an_unreachable_cache_renders_the_parts_for_each_request(cup: Cup, monkeypatch: Any) -> None:
    """Redis down: every cache call fails, and the pages still answer, rendered for each
    request (never a 500)."""
    from redis.exceptions import ConnectionError as RedisDown

    def down(*args: Any, **kwargs: Any) -> Any:
        raise RedisDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    for name in ("get", "add", "set", "delete", "get_many", "set_many"):
        monkeypatch.setattr(cache, name, down)
    client = Client(raise_request_exception=False)
    first, second = poll(client, live_url(cup)), poll(client, live_url(cup))
    assert first.status_code == second.status_code == 200 and first.content == second.content
    page = client.get(f"/tournaments/{cup.tournament.pk}/")
    assert page.status_code == 200 and "Round 1" in page.content.decode()
