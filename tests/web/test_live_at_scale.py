"""The public tournament page's live part reads projections, not replays (issue 26): a
changed live part takes the same queries at a 16-game tournament and at a 128-game one
(64x8), at most 10, reads no event, and shows what a replay of each game shows; once
rendered, the next viewer of the version costs the marker's query alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.selectors import current_states
from league import projection
from league.models import Club, Round
from league.table_views import table_views
from tests.support.big_events import BigEvent, build_event, finish
from tests.support.tournaments import open_game, players, record_hand
from web.public_reads import tournament_rounds

pytestmark = pytest.mark.django_db


def changed_live_part(event: BigEvent) -> tuple[int, list[str]]:
    """Fetch the live part, finish a game, fetch it again with the old ETag: the queries
    of the changed render (a cache miss). Every round but the last is complete: the live
    part holds the last one."""
    rounds = Round.objects.filter(tournament=event.tournament)
    last = rounds.order_by("-number").values_list("number", flat=True)[0]
    rounds.filter(number__lt=last).update(status=Round.Status.COMPLETE)
    client = Client()
    url = f"/tournaments/{event.tournament.pk}/live/"
    projection.refresh(event.tournament.pk)
    etag = client.get(url)["ETag"]
    finish(event.open_game, event.open_log)
    projection.refresh(event.tournament.pk)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and response["ETag"] != etag
    assert f'data-table="{last}-1"' in response.content.decode()
    assert f'data-table="{last - 1}-1"' not in response.content.decode()  # an earlier round
    with CaptureQueriesContext(connection) as hit:
        again = Client().get(url, HTTP_IF_NONE_MATCH=etag)  # another viewer of the old version
    assert again.content == response.content and len(hit.captured_queries) == 1  # the marker
    return len(captured.captured_queries), [q["sql"] for q in captured.captured_queries]


def test_a_changed_live_part_takes_the_same_queries_at_16_and_at_128_games() -> None:
    club = Club.objects.create(name="Live club", slug="live")
    small = build_event(club, players=16, rounds=4, seed=1)
    large = build_event(club, players=64, rounds=8, seed=2)
    small_count, small_sql = changed_live_part(small)
    large_count, large_sql = changed_live_part(large)
    assert small_count == large_count, (small_sql, large_sql)
    assert small_count <= 10
    assert not any("games_gameevent" in sql for sql in large_sql)  # no log read, no replay


def test_the_table_views_show_what_a_replay_shows(owner: Any) -> None:
    from tests.support.tournaments import add_round, command, make_tournament

    club = Club.objects.create(name="View club", slug="view")
    ann, bo, cy, di, ed = players(club, "Ann", "Bo", "Cy", "Di", "Ed")
    tournament = make_tournament(club)
    rnd = add_round(tournament, 1, [[ann, bo, cy], [di, ed]])
    first, second = (open_game(table, owner, hands=2) for table in rnd.tables.order_by("number"))
    record_hand(first, owner, 0, [3, 20, 31])
    command(first, owner, {"type": "AdjustScore", "seat": 1, "points": "-4", "reason": "late"})
    record_hand(second, owner, 1, [12, 0])
    record_hand(second, owner, 0, [0, 25])
    projection.refresh(tournament.pk)
    views = table_views([first, second])
    states = current_states([first, second])
    for game in (first, second):
        state, view = states[game], views[game]
        assert view.status == state.status
        assert view.hands_scored == state.tally.hands_scored
        assert view.scores == state.scores
        assert view.places == (state.result.places if state.result is not None else None)
    assert views[second].places is not None and views[first].places is None
    lines = {t.game_id: t for r in tournament_rounds(tournament) for t in r.tables}
    assert [s.score for s in lines[first].seats] == [str(s) for s in states[first].scores]
