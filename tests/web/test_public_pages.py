"""The public pages, rendered by the Django test client: the tournament page (rounds and
tables, standings with tiebreaks and ordinals, as of a moment, corrections), the live
part's conditional requests, the player page and the home page."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from html import unescape
from typing import Any

import pytest
from django.test import Client

from league.models import RatingEntry, Tournament
from league.standings import REGISTRY
from tests.support.celery import eager_tasks
from tests.support.public import Cup, autumn_cup
from web.corrections import CODES as CORRECTION_CODES

pytestmark = pytest.mark.django_db

# Round 1 as corrected: Bo won table 1 by 28, Cy table 2 by 4.
CORRECTED = [("1", "Bo", "28"), ("2", "Cy", "4"), ("3", "Di", "-4"), ("4", "Ann", "-28")]
# As shown before the correction: Ann had won table 1 by 17.
SHOWN_BEFORE = [("1", "Ann", "17"), ("2", "Cy", "4"), ("3", "Di", "-4"), ("4", "Bo", "-17")]


@pytest.fixture
def cup(owner: Any, django_capture_on_commit_callbacks: Any) -> Iterator[Cup]:
    # The outbox's tasks (standings and ratings refreshes) run after each commit, eagerly.
    with eager_tasks():
        with django_capture_on_commit_callbacks(execute=True):
            made = autumn_cup(owner)
        yield made


@pytest.fixture
def record(owner: Any, django_capture_on_commit_callbacks: Any) -> Any:
    """Record a hand as a scorekeeper would, with the refreshes it queues."""
    from tests.support.tournaments import record_hand

    def record(game_id: int, knocker: int, deadwood: list[int]) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            record_hand(game_id, owner, knocker, deadwood)

    return record


def standings_rows(html: str) -> list[tuple[str, str, str]]:
    """(rank, name, points) of each standings row, in order."""
    table = html.split('class="data standings"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r'<tr data-player="\d+"[^>]*>\s*<td class="num">([^<]*)</td>\s*'
        r'<td><a href="/players/\d+/">([^<]+)</a>.*?<td class="num points">([^<]*)</td>',
        table,
        re.S,
    )
    return [(rank, name, points) for rank, name, points in rows]


def test_the_tournament_page_shows_rounds_tables_results_and_standings(client: Client, cup: Cup) -> None:
    response = client.get(f"/tournaments/{cup.tournament.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Autumn cup</h1>" in html
    # Rounds newest first; each table links to its game page, not to JSON.
    assert html.index("Round 2") < html.index("Round 1")
    for game_id in cup.games.values():
        assert f'href="/games/{game_id}/"' in html
    assert "/api/v1/games/" not in html
    assert "Bye: Bo" in html
    assert 'greedy <span class="muted">(bot)</span>' in html
    # The corrected result of table 1: Bo knocked with 2 against Ann's 30 and won 28.
    table1 = html.split('data-table="1-1"', 1)[1].split("</li>", 1)[0]
    assert re.search(r">Ann</a></td>\s*<td class=\"num\">-28</td><td class=\"num\">2</td>", table1)
    assert re.search(r">Bo</a></td>\s*<td class=\"num\">28</td><td class=\"num\">1</td>", table1)
    # Standings: points, then the default tiebreak columns, and the rating column.
    assert standings_rows(html) == CORRECTED
    header = html.split('class="data standings"', 1)[1].split("</thead>", 1)[0]
    assert [h for h in re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', header)] == [
        "#", "Player", "Points", "Played", "Wins", "Avg place", "Buchholz", "H2H", "Rating",
    ]  # fmt: skip
    # The live part polls its own URL.
    assert f'hx-get="/tournaments/{cup.tournament.pk}/live/"' in html
    assert 'hx-trigger="every 2s"' in html


def test_the_tiebreak_columns_are_the_registry_s_words_and_flags(
    client: Client, cup: Cup, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Headings, their help and which tiebreaks are columns come from the registry's
    records (league.standings.tiebreaks), worded through gettext: no page names one."""
    monkeypatch.setitem(REGISTRY, "wins", dataclasses.replace(REGISTRY["wins"], abbreviation="Firsts"))
    monkeypatch.setitem(REGISTRY, "random", dataclasses.replace(REGISTRY["random"], shown=True))
    html = client.get(f"/tournaments/{cup.tournament.pk}/").content.decode()
    header = html.split('class="data standings"', 1)[1].split("</thead>", 1)[0]
    assert re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', header)[4:] == [
        "Firsts", "Avg place", "Buchholz", "H2H", "Draw", "Rating",
    ]  # fmt: skip
    assert f'title="Tiebreak: {REGISTRY["wins"].label}">Firsts</th>' in header


def test_standings_show_each_players_rating_ordinal(client: Client, cup: Cup) -> None:
    entry = RatingEntry.objects.filter(player=cup.bo, family="knock").order_by("-position").first()
    assert entry is not None, "finishing a tournament game rates it"
    html = client.get(f"/tournaments/{cup.tournament.pk}/").content.decode()
    row = html.split(f'<tr data-player="{cup.bo.pk}"', 1)[1].split("</tr>", 1)[0]
    assert f'<td class="num">{entry.ordinal:.1f}</td>' in row


def test_after_round_limits_the_standings_and_the_tables(client: Client, cup: Cup, record: Any) -> None:
    # Round 2's table scores one hand: Cy knocks with 4.
    record(cup.games["t3"], 1, [20, 4, 10])
    live = client.get(f"/tournaments/{cup.tournament.pk}/").content.decode()
    after1 = client.get(f"/tournaments/{cup.tournament.pk}/?after_round=1").content.decode()
    assert standings_rows(after1) == CORRECTED
    assert "Standings after round 1" in after1
    assert "Round 2" not in after1.split('id="rounds-title"', 1)[1]
    assert 'id="live"' not in after1  # a moment in the past does not poll
    assert "Round 2" in live.split('id="rounds-title"', 1)[1]


def test_as_shown_then_highlights_the_rows_a_correction_changed(client: Client, cup: Cup) -> None:
    url = f"/tournaments/{cup.tournament.pk}/?timeline=recorded&at={cup.before_correction}"
    html = client.get(url).content.decode()
    # What the page showed before the correction: Ann had won table 1.
    assert standings_rows(html) == SHOWN_BEFORE
    assert "2 rows differ from the standings as corrected now (highlighted)." in html
    changed = re.findall(r'<tr data-player="(\d+)" class="changed">', html)
    assert sorted(int(p) for p in changed) == sorted([cup.ann.pk, cup.bo.pk])
    ann_row = html.split(f'<tr data-player="{cup.ann.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "#4, -28" in ann_row  # where Ann stands now
    cy_row = html.split(f'<tr data-player="{cup.cy.pk}"', 1)[1].split("</tr>", 1)[0]
    assert ">same<" in cy_row


def test_corrections_are_listed_with_their_reason_and_link_to_their_game(client: Client, cup: Cup) -> None:
    html = client.get(f"/tournaments/{cup.tournament.pk}/").content.decode()
    section = html.split('id="corrections-title"', 1)[1]
    assert "Moves retracted" in section
    assert not any(event in section for event in CORRECTION_CODES)  # never an event's class name
    assert f'<a href="/games/{cup.games["t1"]}/">game #{cup.games["t1"]}</a>, hand 1' in section
    assert "Reason: deadwood entered for the wrong seats" in section
    assert "by olga" in section
    ann = section.split(f'href="/players/{cup.ann.pk}/">Ann</a>', 1)[1].split("</tr>", 1)[0]
    assert re.findall(r'<td class="num">([^<]*)</td>', ann) == ["17", "-28", "1", "4"]


@pytest.mark.parametrize(
    ("query", "code", "message"),
    [
        ("after_round=x", "invalid_after_round", "After round must be a round number"),
        ("after_round=0", "invalid_after_round", "After round must be a round number"),
        ("after_round=7", "round_not_played", "Round 7 has not been played: the last round played is 2."),
        ("timeline=yesterday", "invalid_timeline", "Timeline must be"),
        ("timeline=recorded", "at_required", "needs a time"),
        ("timeline=recorded&at=soon", "invalid_at", "is neither a time"),
        ("timeline=recorded&at=2026-13-45T00:00", "invalid_at", "is neither a time"),
        ("timeline=recorded&at=99999999999999999999", "invalid_at", "past the last possible event position"),
        ("timeline=recorded&at=-3", "invalid_at", "is neither a time"),
    ],
)
def test_a_bad_as_of_query_is_a_clear_error_with_the_live_standings(
    client: Client, cup: Cup, query: str, code: str, message: str
) -> None:
    response = client.get(f"/tournaments/{cup.tournament.pk}/?{query}")
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<p class="error" role="alert" data-code="{code}">' in html
    assert message in html
    assert len(standings_rows(html)) == 4


def test_as_shown_at_a_time_reads_the_recorded_timeline(client: Client, cup: Cup) -> None:
    html = client.get(
        f"/tournaments/{cup.tournament.pk}/", {"timeline": "recorded", "at": "2000-01-01T00:00"}
    ).content.decode()
    assert "No result yet." in html
    assert 'value="2000-01-01T00:00"' in html


def test_a_draft_or_missing_tournament_is_not_found(client: Client, cup: Cup) -> None:
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.DRAFT)
    assert client.get(f"/tournaments/{cup.tournament.pk}/").status_code == 404
    assert client.get(f"/tournaments/{cup.tournament.pk}/live/").status_code == 404
    assert client.get("/tournaments/999999/").status_code == 404
    assert client.post(f"/tournaments/{cup.tournament.pk}/").status_code == 405


def test_the_live_part_answers_an_unchanged_poll_with_304(client: Client, cup: Cup, record: Any) -> None:
    url = f"/tournaments/{cup.tournament.pk}/live/"
    first = client.get(url, headers={"HX-Request": "true"})
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert "no-cache" in first.headers["Cache-Control"]
    assert 'id="live"' in first.content.decode()
    # The part sends its own ETag back with the next poll (htmx's hx-headers).
    page = client.get(f"/tournaments/{cup.tournament.pk}/").content.decode()
    sent = json.loads(unescape(re.search(r'hx-headers="([^"]+)"', page).group(1)))  # type: ignore[union-attr]
    assert sent == {"If-None-Match": etag}
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.content == b""
    record(cup.games["t3"], 1, [20, 4, 10])
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["ETag"] != etag
    table = changed.content.decode().split('data-table="2-1"', 1)[1]
    assert re.search(r'>Cy</a></td>\s*<td class="num">22</td>', table)  # knocked with 4 against 20 and 10


def test_publishing_a_round_changes_the_etag(client: Client, cup: Cup) -> None:
    from league.models import Round
    from tests.support.tournaments import add_round

    url = f"/tournaments/{cup.tournament.pk}/live/"
    etag = client.get(url).headers["ETag"]
    draft = add_round(cup.tournament, 3, [[cup.bo, cup.di]])
    Round.objects.filter(pk=draft.pk).update(status=Round.Status.DRAFT)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304  # a draft is not public
    Round.objects.filter(pk=draft.pk).update(status=Round.Status.PUBLISHED)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 200


def test_the_player_page_shows_results_head_to_head_and_rating_chart(client: Client, cup: Cup) -> None:
    response = client.get(f"/players/{cup.ann.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Ann</h1>" in html
    results = html.split('id="results-title"', 1)[1].split('id="h2h-title"', 1)[0]
    assert f'href="/tournaments/{cup.tournament.pk}/">Autumn cup</a>' in results
    assert "1 finished game, 0 won, -28 game points." in results
    assert f'href="/games/{cup.games["t1"]}/">#{cup.games["t1"]}</a>' in results
    assert "2 of 2" in results
    assert "Cy, greedy" in results  # round 2's opponents, the bot included
    h2h = html.split('id="h2h-title"', 1)[1]
    bo = h2h.split(f'href="/players/{cup.bo.pk}/">Bo</a>', 1)[1].split("</tr>", 1)[0]
    assert re.findall(r'<td class="num">([^<]*)</td>', bo) == ["1", "0", "0", "1", "-56"]
    assert "greedy" not in h2h  # bots have no head-to-head record
    # The rating chart: an SVG drawn on the server, one point per rated game.
    chart = html.split('<svg class="rating-chart"', 1)[1].split("</svg>", 1)[0]
    assert chart.count("<circle") == RatingEntry.objects.filter(player=cup.ann).count() == 1
    assert "<script" not in html.split('id="rating-title"', 1)[1]


def test_a_player_without_games_has_an_empty_page(client: Client, cup: Cup) -> None:
    from league.models import Player

    newcomer = Player.objects.create(club=cup.club, name="Eve")
    html = client.get(f"/players/{newcomer.pk}/").content.decode()
    assert "No rated game yet." in html
    assert "No tournament game yet." in html
    assert "No finished game against another player yet." in html
    assert client.get("/players/999999/").status_code == 404


def test_the_home_page_shows_running_tournaments_and_their_leaders(client: Client, cup: Cup) -> None:
    html = client.get("/").content.decode()
    running = html.split('id="running-title"', 1)[1].split("</section>", 1)[0]
    assert f'href="/tournaments/{cup.tournament.pk}/"><strong>Autumn cup</strong></a>' in running
    assert "round 2 of 3" in running
    leaders = re.findall(
        r'<li>(\d)\. <a href="/players/\d+/">(\w+)</a> <span class="muted">([^<]+)</span>', running
    )
    assert leaders == [("1", "Bo", "28"), ("2", "Cy", "4"), ("3", "Di", "-4")]
    for game_id in cup.games.values():
        assert f'href="/games/{game_id}/">#{game_id}</a>' in html
    assert "/api/v1/games/" not in html


def test_a_finished_tournament_is_not_listed_as_running(client: Client, cup: Cup) -> None:
    Tournament.objects.filter(pk=cup.tournament.pk).update(status=Tournament.Status.FINISHED)
    html = client.get("/").content.decode()
    assert "No tournament is running now." in html
    assert client.get(f"/tournaments/{cup.tournament.pk}/").status_code == 200


def test_no_public_page_shows_a_card_of_a_game_in_play(
    client: Client, cup: Cup, ann: Any, owner: Any
) -> None:
    """A digital game in play at a tournament table: neither a hand nor the stock shows on
    any public page, for a visitor, the seated player or the game's owner."""
    from engine.cards import ALL_CARDS, mask_to_cards
    from games import services, store
    from games.models import Game
    from league.models import Table
    from tests.support.games import new_game

    table = Table.objects.get(round=cup.round2, number=1)
    seats = [
        services.SeatSpec(name="Ann", user_id=ann.pk),
        services.SeatSpec(name="Cy"),
        services.SeatSpec(bot="greedy"),
    ]
    game = new_game(owner, seats, mode="digital").game
    Table.objects.filter(pk=table.pk).update(game=game)
    state = store.load_state(Game.objects.get(pk=game.pk))
    assert state.hand is not None and state.status == "playing"
    hidden = {c.code for seat in range(3) for c in mask_to_cards(state.hand.hands[seat])}
    hidden |= {ALL_CARDS[i].code for i in state.hand.stock}
    assert len(hidden) > 30
    pages = ["/", f"/tournaments/{cup.tournament.pk}/", f"/tournaments/{cup.tournament.pk}/live/"]
    pages += [f"/players/{player.pk}/" for player in (cup.ann, cup.cy)]
    for user in (None, ann, owner):
        viewer = Client()
        if user is not None:
            viewer.force_login(user)
        for url in pages:
            html = viewer.get(url).content.decode()
            assert f"/games/{game.pk}/" in html or url.startswith("/players/")
            shown = set(re.findall(r"\b([2-9TJQKA][CDHS])\b", html)) & hidden
            assert not shown, (url, user, shown)
            assert 'class="card' not in html


def test_a_tournament_before_its_first_round(client: Client) -> None:
    from league.models import Club
    from tests.support.tournaments import make_tournament

    club = Club.objects.create(name="Hill Club", slug="hill")
    tournament = make_tournament(club, name="Winter open", status=Tournament.Status.REGISTRATION)
    response = client.get(f"/tournaments/{tournament.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "No result yet." in page
    assert "No round has been published yet." in page
    assert "No correction has changed the standings." in page
    assert client.get(f"/tournaments/{tournament.pk}/live/").status_code == 200
