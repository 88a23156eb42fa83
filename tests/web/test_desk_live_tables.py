"""The desk's round control reads projections, not replays (issue 26): its live tables
take the same queries at a 16-game tournament and at a 128-game one, read no event, and
show what a replay of each game shows — between hands, mid-hand (a deal after the
projection last read the game included), finished, and before anything is recorded."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.selectors import current_states
from league import projection
from league.models import Club, Membership, Round
from tests.support.big_events import BigEvent, build_event, finish
from tests.support.tournaments import add_round, command, make_tournament, open_game, players, record_hand
from web.desk.pages import _table_rows, live_status

pytestmark = pytest.mark.django_db


def desk_live_queries(event: BigEvent, director: Client) -> tuple[int, list[str]]:
    """Finish a game of the last round, then fetch round control's tables with the tag
    from before: the queries of the changed render."""
    number = Round.objects.filter(tournament=event.tournament).order_by("-number").first()
    assert number is not None
    url = f"/tournaments/{event.tournament.pk}/desk/rounds/{number.number}/live"
    projection.refresh(event.tournament.pk)
    etag = director.get(url)["ETag"]
    finish(event.open_game, event.open_log)
    projection.refresh(event.tournament.pk)
    with CaptureQueriesContext(connection) as captured:
        response = director.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response["ETag"] != etag
    assert response.content.decode().count('data-status="complete"') >= 1
    return len(captured.captured_queries), [q["sql"] for q in captured.captured_queries]


def test_the_desks_live_tables_take_the_same_queries_at_16_and_at_128_games(make_user: Any) -> None:
    club = Club.objects.create(name="Desk club", slug="desk")
    user = make_user("dora")
    Membership.objects.create(club=club, user=user, role=Membership.Role.DIRECTOR)
    director = Client()
    director.force_login(user)
    small = build_event(club, players=16, rounds=4, seed=1)
    large = build_event(club, players=64, rounds=8, seed=2)
    small_count, small_sql = desk_live_queries(small, director)
    large_count, large_sql = desk_live_queries(large, director)
    assert small_count == large_count, (small_sql, large_sql)
    # no log read, no replay: of the events, round progress reads only each game's first
    # and latest entry times (league.progress), never an event's data
    events = [sql for sql in small_sql + large_sql if "games_gameevent" in sql]
    assert len(events) == 2 and all('"games_gameevent"."data"' not in sql for sql in events), events


def test_the_desk_shows_what_a_replay_shows(owner: Any) -> None:
    club = Club.objects.create(name="Replay club", slug="replay")
    ann, bo, cy, di, ed, flo, gus, hal, ivy = players(
        club, "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"
    )
    tournament = make_tournament(club)
    rnd = add_round(tournament, 1, [[ann, bo, cy], [di, ed], [flo, gus], [hal, ivy]])
    between, mid, finished, fresh = (open_game(t, owner, hands=3) for t in rnd.tables.order_by("number"))
    record_hand(between, owner, 0, [3, 20, 31])
    record_hand(mid, owner, 1, [12, 0])
    command(mid, owner, {"type": "DealHand", "upcard": "7H"})
    command(mid, owner, {"type": "AdjustScore", "seat": 0, "points": "-4", "reason": "late"})  # read mid-hand
    for _ in range(3):
        record_hand(finished, owner, 0, [0, 25])
    projection.refresh(tournament.pk)
    # dealt after the projection read it: the hand in play shows through the game's status
    command(between, owner, {"type": "DealHand", "upcard": "7H"})
    rows = {row.table.game_id: row for row in _table_rows(Round.objects.get(pk=rnd.pk), live=True)}
    states = current_states([between, mid, finished, fresh])
    expected = {
        between: ("playing", 2),
        mid: ("playing", 2),
        finished: ("complete", 3),
        fresh: ("playing", 0),
    }
    for game, (progress, hand) in expected.items():
        row = rows[game]
        assert (row.status, row.label, row.hand, row.scores) == live_status(states[game])
        assert (row.status, row.hand) == (progress, hand)
    assert rows[fresh].scores == ["0", "0"]  # before the projection has read it
