"""Hidden information: no endpoint shows a viewer another seat's cards or the stock
order before the showdown, whoever asks (seat players, owner, scorekeeper,
strangers, anonymous)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rest_framework.test import APIClient

import engine
from engine.cards import ALL_CARDS, mask_to_cards
from games import services, store
from games.models import Game
from games.redaction import redact_events
from tests.support.games import client_for, new_game
from tests.support.json_values import strings_in

pytestmark = pytest.mark.django_db

URL = "/api/v1/games"
CARD = re.compile(r"^(?:[2-9TJQKA][SHDC]|X\d|\*\d?|JK\d?)$")
VIEWERS = ["ann", "bob", "owner", "scorekeeper", "stranger", "anonymous"]
SEAT_OF = {"ann": 0, "bob": 1}


def card_strings(value: Any) -> Iterator[str]:
    return (string for string in strings_in(value) if CARD.match(string))


def hidden_from(game_id: int, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: the public) must not see now: other hands and the stock."""
    state = store.load_state(Game.objects.get(pk=game_id))
    hand = state.hand
    assert hand is not None
    hidden = {ALL_CARDS[i].code for i in hand.stock if i >= 0}
    for other in range(len(state.seats)):
        if other != seat:
            hidden |= {c.code for c in mask_to_cards(hand.hands[other])}
    return hidden - {ALL_CARDS[i].code for i in hand.pile}


@pytest.fixture
def table(
    duel: services.SubmitResult, owner: Any, ann: Any, bob: Any, make_user: Any, grant_recorder: Any
) -> dict[str, Any]:
    """The duel after ann drew from the stock (a secret card) and is to discard."""
    scorekeeper = make_user("sk")
    grant_recorder(scorekeeper, duel.game)
    services.submit_command(
        game=duel.game,
        command={"type": "DrawFromStock", "seat": 0},
        actor=ann,
        source="api",
        expected_version=2,
    )
    users = {
        "ann": ann,
        "bob": bob,
        "owner": owner,
        "scorekeeper": scorekeeper,
        "stranger": make_user("sam"),
        "anonymous": None,
    }
    return {"game": duel.game.pk, "users": users}


def responses_for(table: dict[str, Any], viewer: str) -> list[Any]:
    game = table["game"]
    client = client_for(table["users"][viewer])
    out = [
        client.get(f"{URL}/{game}"),
        client.get(f"{URL}/{game}?seat=1"),
        client.get(f"{URL}/{game}/events"),
        client.get(f"{URL}/{game}/events?after=1"),
        client.get(f"{URL}/{game}/export"),
        # a stale command: the 409 carries the events since, redacted
        client.post(
            f"{URL}/{game}/commands",
            {"expected_version": 1, "command": {"type": "PassUpcard", "seat": 0}},
            format="json",
        ),
    ]
    return out


@pytest.mark.parametrize("viewer", VIEWERS)
def test_no_endpoint_shows_a_viewer_what_its_seat_may_not_see(table: dict[str, Any], viewer: str) -> None:
    seat = SEAT_OF.get(viewer)
    hidden = hidden_from(table["game"], seat)
    for response in responses_for(table, viewer):
        assert response.status_code in (200, 401, 403, 409), response.content
        leaked = set(card_strings(response.json())) & hidden
        assert not leaked, f"{viewer} sees {sorted(leaked)} at {response.request['PATH_INFO']}"


@pytest.mark.parametrize("viewer", VIEWERS)
def test_each_viewer_gets_its_own_seat_view_or_the_public_one(table: dict[str, Any], viewer: str) -> None:
    state = client_for(table["users"][viewer]).get(f"{URL}/{table['game']}").json()
    seat = SEAT_OF.get(viewer)
    assert state["viewer"]["seat"] == seat
    assert state["view"]["seat"] == seat
    if seat is None:
        assert state["view"]["hand"] is None and state["view"]["legal_commands"] == []
    else:
        assert len(state["view"]["hand"]) == (11 if seat == 0 else 10)
    role = {"ann": "seat", "bob": "seat", "owner": "owner", "scorekeeper": "scorekeeper"}.get(
        viewer, "public"
    )
    assert state["viewer"]["role"] == role


@pytest.mark.parametrize("viewer", VIEWERS)
def test_the_event_log_is_redacted_per_viewer(table: dict[str, Any], viewer: str) -> None:
    events = client_for(table["users"][viewer]).get(f"{URL}/{table['game']}/events").json()["events"]
    dealt, drawn = events[1], events[2]
    seat = SEAT_OF.get(viewer)
    assert dealt["type"] == "HandDealt" and dealt["redacted"] is True
    assert dealt["data"]["deck"] is None and dealt["data"]["upcard"] is not None
    if seat is None:
        assert dealt["data"]["hands"] == {}
    else:
        assert list(dealt["data"]["hands"]) == [str(seat)] and len(dealt["data"]["hands"][str(seat)]) == 10
    assert drawn["type"] == "CardDrawn" and drawn["data"]["source"] == "stock"
    assert (drawn["data"]["card"] is not None) is (viewer == "ann")
    assert drawn["redacted"] is (viewer != "ann")


def test_the_command_response_is_redacted_for_the_caller(
    duel: services.SubmitResult, ann: Any, bob: Any
) -> None:
    response = client_for(ann).post(
        f"{URL}/{duel.game.pk}/commands",
        {"expected_version": 2, "command": {"type": "DrawFromStock", "seat": 0}},
        format="json",
    )
    assert response.json()["events"][0]["data"]["card"] is not None
    bobs = client_for(bob).get(f"{URL}/{duel.game.pk}/events?after=2").json()["events"]
    assert [e["seq"] for e in bobs] == [3] and bobs[0]["data"]["card"] is None


def test_the_creator_response_shows_only_the_creators_seat(ann: Any, bob: Any) -> None:
    body = {"seats": [{"user": bob.pk}, {"user": ann.pk}], "first_dealer": 0}
    data = client_for(ann).post(URL, body, format="json").json()
    dealt = data["events"][1]["data"]
    assert list(dealt["hands"]) == ["1"] and dealt["deck"] is None
    hidden = hidden_from(data["id"], 1)
    assert not set(card_strings(data)) & hidden


def test_once_the_hand_is_over_the_deal_is_public(table: dict[str, Any]) -> None:
    owner = table["users"]["owner"]
    game = table["game"]
    client_for(owner).post(
        f"{URL}/{game}/commands",
        {"expected_version": 3, "command": {"type": "AbandonGame", "reason": "rain"}},
        format="json",
    )
    events = APIClient().get(f"{URL}/{game}/events").json()["events"]
    assert len(events[1]["data"]["deck"]) == 52 and events[2]["data"]["card"] is not None
    assert not any(e["redacted"] for e in events)


def test_physical_hands_entered_by_the_scorekeeper_stay_private(owner: Any, ann: Any, bob: Any) -> None:
    game = new_game(
        owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)], mode="physical"
    )
    hand = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]
    response = client_for(owner).post(
        f"{URL}/{game.game.pk}/commands",
        {"expected_version": 1, "command": {"type": "DealHand", "upcard": "KD", "hands": {"0": hand}}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    for viewer, expected in ((ann, {"0": hand}), (bob, {}), (owner, {}), (None, {})):
        events = client_for(viewer).get(f"{URL}/{game.game.pk}/events").json()["events"]
        assert events[1]["data"]["hands"] == expected
        state = client_for(viewer).get(f"{URL}/{game.game.pk}").json()
        if viewer is not ann:
            assert not set(card_strings(state)) & set(hand)


def test_a_writes_own_states_redact_its_events_as_a_replay_does(duel: services.SubmitResult) -> None:
    """The command answer redacts with the states the write folded (``steps``); that is
    the same as replaying its events, for every viewer, over whole hands (deals,
    stock draws, knocks, the next deal included)."""
    rng = random.Random(7)
    results = [duel]
    actor = duel.game.owner
    while results[-1].state.status == "playing" and len(results) < 400:
        state = results[-1].state
        command = rng.choice(engine.legal_commands(state))
        results.append(
            services.submit_command(
                game=results[-1].game,
                command=engine.command_to_dict(command),
                actor=actor,
                source="system",
                expected_version=state.version,
            )
        )
    assert any(r.state.hand is not None and r.state.hand.number > 1 for r in results), "no second deal"
    for result in results:
        assert result.steps is not None and len(result.steps) == len(result.events)
        for seat in (0, 1, None):
            kwargs = {"state_before": result.state_before, "final_state": result.state, "seat": seat}
            assert redact_events(result.events, steps=result.steps, **kwargs) == redact_events(
                result.events, **kwargs
            )
