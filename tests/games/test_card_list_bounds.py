"""Oversize card lists through the command API: the engine refuses them on their size
before it arranges anything (issue 24, item 3), in a fraction of a second."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from engine.cards import ALL_CARDS
from games import services
from tests.support.games import client_for, new_game, play

pytestmark = pytest.mark.django_db

DECK = [card.code for card in ALL_CARDS[:52]]


def post(
    user: Any, game: services.SubmitResult, command: dict[str, Any]
) -> tuple[int, dict[str, Any], float]:
    game.game.refresh_from_db()
    body = json.dumps({"expected_version": game.game.version, "command": command})
    started = time.perf_counter()
    response = client_for(user).post(
        f"/api/v1/games/{game.game.pk}/commands", body, content_type="application/json"
    )
    return response.status_code, response.json(), time.perf_counter() - started


@pytest.fixture
def at_showdown(ann: Any) -> services.SubmitResult:
    created = new_game(ann, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical", first_dealer=1)
    for command in (
        {"type": "DealHand", "upcard": "KS"},
        {"type": "DrawFromStock", "seat": 0},
        {"type": "Knock", "seat": 0},
    ):
        play(created.game.pk, ann, command)
    return created


@pytest.mark.parametrize(
    ("command", "code", "message"),
    [
        (
            {"type": "RevealHand", "seat": 0, "cards": DECK},
            "inconsistent_reveal",
            "seat 0 holds 10 cards but 52 were revealed",
        ),
        (
            {"type": "RecordHandResult", "knocker": 0, "hands": {"0": DECK[:26], "1": DECK[26:]}},
            "inconsistent_reveal",
            "seat 0 holds 10 cards but 26 were revealed",
        ),
    ],
)
def test_a_whole_deck_is_refused_on_its_size(
    at_showdown: services.SubmitResult, ann: Any, command: dict[str, Any], code: str, message: str
) -> None:
    status, body, seconds = post(ann, at_showdown, command)
    assert (status, body["code"], body["message"]) == (400, code, message)
    assert seconds < 2


def test_a_quick_result_between_hands_is_refused_on_its_size(ann: Any) -> None:
    """Between hands no hand is recorded yet: the result's own sizes are checked."""
    created = new_game(ann, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical", first_dealer=1)
    status, body, seconds = post(
        ann, created, {"type": "RecordHandResult", "knocker": 0, "hands": {"0": DECK[:26], "1": DECK[26:]}}
    )
    assert (status, body["code"]) == (400, "inconsistent_reveal")
    assert body["message"] == "seat 0 shows 26 cards; with 2 players each hand holds 10"
    assert seconds < 2
