"""The round clock everywhere and the round's progress (issue 27 §4): the director starts
and stops it on the desk; its time left and end show on the desk, the record page, the
player's My games and home; round control says "1 of 2 tables done", which tables still
play and for how long, from stored rows. Also the favicon (§6)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client

from games import services as game_services
from games.models import Game, GameEvent, Source
from league import clock, services
from league import progress as progress_module
from league.models import Club, Player, Round, Tournament
from league.progress import round_progress
from tests.web.test_desk_views import client_of, key, make_tournament, text
from tests.web.test_door import club, director, people  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db

EIGHT = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


@pytest.fixture
def running(club: Club, people: dict[str, Any]) -> Round:  # noqa: F811
    tournament = make_tournament(club, people["director"], table_size={"min": 4, "max": 4})
    for name in EIGHT:
        services.set_registration_status(services.register(tournament, name=name), "checked_in")
    Player.objects.filter(name="Ann").update(user=people["player"])
    round_ = services.generate_round(tournament, people["director"])
    return services.publish_round(round_, people["director"])


def enter_to_the_end(game: Game, recorder: Any) -> None:
    """A scorekeeper's entries (source web) until the game is over."""
    for _ in range(20):
        game.refresh_from_db()
        if game.status in game_services.FINAL_STATUSES:
            return
        counts = {str(seat): (2 if seat == 0 else 20 + seat) for seat in range(len(game.seats))}
        game_services.submit_command(
            game=game,
            command={"type": "RecordHandResult", "knocker": 0, "deadwood": counts},
            actor=recorder,
            source=Source.WEB,
            expected_version=game.version,
        )


def test_the_director_starts_the_clock_and_every_page_shows_it(
    running: Round,
    people: dict[str, Any],  # noqa: F811
    director: Client,  # noqa: F811
) -> None:
    tournament: Tournament = running.tournament
    desk = f"/tournaments/{tournament.pk}/desk"
    before = text(director.get(desk))
    assert "Start the round clock (45 min)" in before
    assert 'data-clock-remaining="' not in before
    started = director.post(f"{desk}/rounds/1/clock/start", {"idempotency_key": key("start")}, follow=True)
    page = text(started)
    assert "Round 1&#x27;s clock started: 45 minutes" in page
    assert 'data-clock-remaining="' in page and "Stop the clock" in page
    row = clock.round_clock(running)
    assert row is not None
    ends = row.ends_at.strftime("%H:%M")
    # the scorekeeper's record page
    table = running.tables.order_by("number").first()
    assert table is not None
    record = text(client_of(people["scorekeeper"]).get(f"/tables/{table.pk}/record"))
    assert 'class="clock-line clock-running"' in record and f">{ends}</time>" in record
    # the player's phone: My games and home, on the seat line
    player = client_of(people["player"])
    for url in ("/mine/games", "/"):
        mine = text(player.get(url))
        assert "Round 1: table" in mine
        assert 'class="clock-line clock-running"' in mine and "round ends at <time" in mine, url
    # started twice: refused in words, one clock
    again = director.post(f"{desk}/rounds/1/clock/start", {"idempotency_key": key("again")}, follow=True)
    assert "already running: stop it first" in text(again)
    stopped = director.post(f"{desk}/rounds/1/clock/stop", {"idempotency_key": key("stop")}, follow=True)
    assert "Round 1&#x27;s clock stopped." in text(stopped)
    assert "clock stopped" in text(player.get("/mine/games"))


@pytest.mark.parametrize("role", ["scorekeeper", "player", "other"])
def test_only_directors_start_the_clock(running: Round, people: dict[str, Any], role: str) -> None:  # noqa: F811
    url = f"/tournaments/{running.tournament_id}/desk/rounds/1/clock/start"
    assert client_of(people[role]).post(url, {"idempotency_key": key(role)}).status_code == 403
    assert clock.round_clock(running) is None


def test_round_control_says_how_many_tables_are_done_and_for_how_long(
    running: Round,
    people: dict[str, Any],  # noqa: F811
    director: Client,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    desk = f"/tournaments/{running.tournament_id}/desk"
    page = text(director.get(desk))
    assert "0 of 2 tables done" in page
    assert "Table 1</strong> — nothing entered yet" in page
    first, second = running.tables.order_by("number")
    assert first.game is not None and second.game is not None
    enter_to_the_end(first.game, people["scorekeeper"])
    # table 2: one hand entered "20 minutes ago"
    game_services.submit_command(
        game=second.game,
        command={"type": "RecordHandResult", "knocker": 1, "deadwood": {"0": 30, "1": 0, "2": 25, "3": 9}},
        actor=people["scorekeeper"],
        source=Source.WEB,
        expected_version=second.game.version,
    )
    # the desk read 20 minutes later (events are append-only: the clock moves instead)
    later = GameEvent.objects.filter(game=second.game).latest("seq").recorded_at + timedelta(minutes=20)
    monkeypatch.setattr(progress_module.timezone, "now", lambda: later)
    page = text(director.get(desk))
    assert "1 of 2 tables done" in page
    assert "Table 2</strong> — playing for 20 min, last entry 20 min ago" in page
    assert "Table 1</strong>" not in page.split('id="tables-done"')[1].split("</ul>")[0]
    progress = round_progress(running)
    assert (progress.done, progress.total) == (1, 2)
    assert [t.number for t in progress.playing] == [2]


def test_the_progress_reads_two_queries_however_many_tables(
    running: Round,
    django_assert_num_queries: Any,
) -> None:
    with django_assert_num_queries(2):
        progress = round_progress(running)
    assert progress.total == 2


def test_a_favicon_is_served(client: Client) -> None:
    assert 'rel="icon" href="/static/img/favicon.svg"' in text(client.get("/"))
    redirect = client.get("/favicon.ico")
    assert (redirect.status_code, redirect["Location"]) == (301, "/static/img/favicon.svg")
    icon = client.get("/static/img/favicon.svg")
    assert icon.status_code == 200
    assert b"<svg" in b"".join(icon.streaming_content)  # type: ignore[attr-defined]
