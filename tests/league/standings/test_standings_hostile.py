"""The standings endpoints against hostile query strings and headers (the corpus of
tests/games/hostile.py), and the hidden-information audit: no card code in any of them,
whatever games are in play."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.cards import ALL_CARDS
from games import services
from league import projection
from league.models import Club
from tests.games.hostile import AUTHORIZATIONS, QUERY_VALUES
from tests.support.games import client_for, new_game
from tests.support.tournaments import add_round, make_tournament, open_game, players, record_hand

pytestmark = pytest.mark.django_db

PATHS = ("/standings", "/standings.csv", "/standings/changes")
CODE = re.compile(r"\b(" + "|".join(sorted({c.code for c in ALL_CARDS}, key=len, reverse=True)) + r")\b")


@pytest.fixture
def tournament_id(owner: Any, ann: Any, bob: Any) -> int:
    club = Club.objects.create(name="Audit club", slug="audit")
    a, b, c, d = players(club, "Ann", "Bo", "Cy", "Di")
    tournament = make_tournament(club)
    rnd = add_round(tournament, 1, [[a, b], [c, d]])
    physical, digital = rnd.tables.all()
    game = open_game(physical, owner, hands=3)
    record_hand(game, owner, 0, [3, 25])  # one hand scored, two to go
    dealt = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])
    digital.game = dealt.game
    digital.save(update_fields=["game"])  # a digital hand in play: its cards are secret
    projection.refresh(tournament.pk)
    return int(tournament.pk)


def test_no_standings_answer_holds_a_card_code(tournament_id: int, ann: Any) -> None:
    for user in (None, ann):
        client = client_for(user)
        for path in PATHS:
            for query in ({}, {"timeline": "recorded", "at": "1"}, {"after_round": "1"}):
                if path.endswith("changes") and query:
                    continue
                response = client.get(f"/api/v1/tournaments/{tournament_id}{path}", query)
                assert response.status_code == 200, (path, query, response.content[:200])
                text = response.content.decode()
                assert not CODE.findall(text.replace(str(tournament_id), "")), (path, query)


@pytest.mark.parametrize("path", PATHS)
def test_hostile_queries_and_headers_are_never_a_5xx(tournament_id: int, path: str) -> None:
    client = client_for(None)
    client.raise_request_exception = False
    url = f"/api/v1/tournaments/{tournament_id}{path}"
    queries = [
        f"{param}={value}" for param in ("after_round", "at", "timeline") for value in QUERY_VALUES.values()
    ]
    queries += [f"timeline=recorded&at={value}" for value in QUERY_VALUES.values()]
    queries += [
        "after_round=1&after_round=x",
        "timeline=recorded&at=2026-13-45T99:00:00Z",
        "at=" + "9" * 5000,
    ]
    responses = [client.get(f"{url}?{query}") for query in queries]
    responses += [client.get(url, HTTP_AUTHORIZATION=auth) for auth in AUTHORIZATIONS.values()]
    for response in responses:
        assert response.status_code < 500, (response.status_code, response.content[:200])
        if response.status_code >= 400:
            body = response.json()
            assert isinstance(body["code"], str) and body["code"] and isinstance(body["message"], str)
    assert any(r.status_code == 400 for r in responses)
