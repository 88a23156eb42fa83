"""The game API: create, read, command, export/import, tokens, errors, query counts."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

import engine
from games import services, store
from games.models import Game, GameEvent, Source
from tests.support.games import a_legal_move, client_for, new_game

pytestmark = pytest.mark.django_db

URL = "/api/v1/games"


def post_command(client: APIClient, game_id: int, version: int, command: Any, **headers: str) -> Any:
    return client.post(
        f"{URL}/{game_id}/commands",
        {"expected_version": version, "command": command},
        format="json",
        **headers,
    )


def test_creating_a_game_makes_the_caller_its_owner(ann: Any, bob: Any) -> None:
    body = {
        "preset": "gin",
        "options": {"target_score": 50},
        "mode": "digital",
        "seats": [{"user": ann.pk}, {"name": "Bob", "user": bob.pk}, {"bot": "greedy"}],
        "first_dealer": 2,
        "stake": "1/2",
    }
    response = client_for(ann).post(URL, body, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()
    game = Game.objects.get(pk=data["id"])
    assert game.owner == ann and game.mode == "digital" and game.ruleset["options"]["target_score"] == 50
    assert [s["name"] for s in game.seats] == ["ann", "Bob", "Greedy bot"]
    assert data["version"] == 2 and [e["type"] for e in data["events"]] == ["GameStarted", "HandDealt"]
    assert data["state"]["viewer"] == {"role": "seat", "seat": 0, "seats": [0]}
    assert data["events"][0]["data"]["stake"] == "1/2"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"preset": "canasta", "seats": [{"name": "A"}, {"name": "B"}]}, "invalid_ruleset"),
        ({"options": {"knock_penalty": 5}, "seats": [{"name": "A"}, {"name": "B"}]}, "invalid_ruleset"),
        ({"seats": [{"name": "A"}]}, "invalid_request"),
        ({"seats": [{"name": "A"}, {"bot": "genius"}]}, "unknown_bot"),
        ({"seats": [{"name": "A"}, {"user": 424242}]}, "unknown_user"),
        ({"seats": [{"name": "A"}, {"name": "B"}], "stake": "lots"}, "invalid_request"),
    ],
)
def test_bad_game_bodies_are_400_with_a_code(ann: Any, body: dict[str, Any], code: str) -> None:
    response = client_for(ann).post(URL, body, format="json")
    assert response.status_code == 400
    assert response.json()["code"] == code
    assert not Game.objects.exists()


def test_creating_needs_a_signed_in_user() -> None:
    response = APIClient().post(URL, {"seats": [{"name": "A"}, {"name": "B"}]}, format="json")
    assert response.status_code == 401 and response.json()["code"] == "not_authenticated"


def test_token_authentication_and_the_token_endpoint(ann: Any) -> None:
    response = APIClient().post(
        "/api/v1/auth/token", {"username": "ann", "password": "pw-ann"}, format="json"
    )
    assert response.status_code == 200
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    created = client.post(URL, {"seats": [{"user": ann.pk}, {"name": "B"}]}, format="json")
    assert created.status_code == 201
    assert GameEvent.objects.get(game_id=created.json()["id"], seq=1).source == Source.API
    bad = APIClient().post("/api/v1/auth/token", {"username": "ann", "password": "nope"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_request"


def test_a_token_decides_even_beside_a_session_cookie(
    duel: services.SubmitResult, ann: Any, bob: Any
) -> None:
    """The token is checked first: a request with both acts as the token's user, and a
    bad token is refused even when the session is valid (nothing written either way
    but by the token's user)."""
    client = client_for(bob)  # signed in as bob
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=ann).key}")
    response = post_command(client, duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0})
    assert response.status_code == 201
    assert [(e["source"], e["actor"]) for e in response.json()["events"]] == [("api", ann.pk)]

    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = post_command(client, duel.game.pk, 3, {"type": "Discard", "seat": 0, "card": "X1"})
    assert refused.status_code == 401
    assert GameEvent.objects.filter(game=duel.game).count() == 3


@pytest.mark.parametrize(
    ("header", "game", "body", "status", "code"),
    [
        # a bad token is refused before the game is looked up or the body read
        ("Token not-a-token", "duel", "good", 401, "authentication_failed"),
        ("Token not-a-token", "missing", "good", 401, "authentication_failed"),
        ("Token not-a-token", "duel", "[]", 401, "authentication_failed"),
        ("Token", "duel", "good", 401, "authentication_failed"),
        ("Token two parts", "duel", "good", 401, "authentication_failed"),
        # a good one: then the game, then the body
        ("ann", "missing", "good", 404, "not_found"),
        ("ann", "missing", "[]", 404, "not_found"),
        ("ann", "duel", "[]", 400, "invalid_request"),
        ("ann", "duel", "good", 201, None),
    ],
)
def test_the_token_is_checked_first_on_the_command_endpoint(
    duel: services.SubmitResult, ann: Any, header: str, game: str, body: str, status: int, code: str | None
) -> None:
    """On PostgreSQL the token is checked by the statement that reads the game: the
    refusals keep their order all the same."""
    client = APIClient()
    token = Token.objects.create(user=ann).key
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}" if header == "ann" else header)
    game_id = duel.game.pk if game == "duel" else duel.game.pk + 1000
    content = json.dumps({"expected_version": 2, "command": {"type": "DrawFromStock", "seat": 0}})
    response = client.post(
        f"{URL}/{game_id}/commands", content if body == "good" else body, content_type="application/json"
    )
    assert response.status_code == status, response.json()
    if code:
        assert response.json()["code"] == code
    if status == 401:
        assert response["WWW-Authenticate"] == 'Token realm="api"'
    written = GameEvent.objects.filter(game=duel.game)
    assert written.count() == (3 if status == 201 else 2)
    assert status != 201 or (written.last().source, written.last().actor_id) == (Source.API, ann.pk)


def test_session_writes_are_recorded_as_web(duel: services.SubmitResult, ann: Any) -> None:
    response = post_command(client_for(ann), duel.game.pk, 2, a_legal_move(duel.state))
    assert response.status_code == 201
    assert response.json()["events"][0]["source"] == "web"


def test_a_command_answers_201_with_version_events_and_state(duel: services.SubmitResult, ann: Any) -> None:
    response = post_command(
        client_for(ann, token=True), duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0}
    )
    assert response.status_code == 201
    data = response.json()
    assert data["version"] == 3
    assert [(e["seq"], e["type"], e["source"], e["actor"]) for e in data["events"]] == [
        (3, "CardDrawn", "api", ann.pk)
    ]
    assert data["events"][0]["data"]["card"] is not None  # ann sees the card she drew
    assert data["state"]["view"]["phase"] == "discard" and len(data["state"]["view"]["hand"]) == 11


def test_a_repeated_idempotency_key_returns_the_original_201_body(
    duel: services.SubmitResult, ann: Any
) -> None:
    client = client_for(ann, token=True)
    move = {"type": "DrawFromStock", "seat": 0}
    first = post_command(client, duel.game.pk, 2, move, HTTP_IDEMPOTENCY_KEY="phone-42")
    second = post_command(client, duel.game.pk, 2, move, HTTP_IDEMPOTENCY_KEY="phone-42")
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert Game.objects.get(pk=duel.game.pk).version == 3
    other = post_command(
        client, duel.game.pk, 3, {"type": "Discard", "seat": 0, "card": "QS"}, HTTP_IDEMPOTENCY_KEY="phone-42"
    )
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"


def test_a_stale_version_is_409_with_the_events_since(duel: services.SubmitResult, ann: Any) -> None:
    client = client_for(ann)
    assert post_command(client, duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0}).status_code == 201
    response = post_command(client, duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0})
    assert response.status_code == 409
    data = response.json()
    assert data["code"] == "version_conflict" and data["current_version"] == 3
    assert "version 3" in data["message"]
    assert [e["seq"] for e in data["events_since"]] == [3]


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        (
            '{"expected_version": 2, "command": {"type": "Discard", "seat": 0, "card": "QZ"}}',
            "invalid_card",
            "'card' is not a card",
        ),
        (
            '{"expected_version": 2, "command": {"type": "Shuffle"}}',
            "unknown_command",
            "unknown command type",
        ),
        ('{"expected_version": 2, "command": {"seat": 0}}', "malformed_command", "needs a 'type'"),
        (
            '{"expected_version": 2, "command": {"type": "Discard", "seat": 0}}',
            "malformed_command",
            "missing",
        ),
        ('{"expected_version": 2, "command": [1]}', "invalid_request", "not valid"),
        ('{"command": {"type": "DrawFromStock", "seat": 0}}', "invalid_request", "not valid"),
        ('{"expected_version": 2, "command": {"type": "DrawFromStock"', "malformed_json", "JSON parse error"),
        ('{"expected_version": NaN, "command": {}}', "malformed_json", "JSON parse error"),
        ("[]", "invalid_request", "not valid"),
    ],
)
def test_malformed_commands_are_400_with_a_code(
    duel: services.SubmitResult, ann: Any, body: str, code: str, message: str
) -> None:
    response = client_for(ann).post(f"{URL}/{duel.game.pk}/commands", body, content_type="application/json")
    assert response.status_code == 400
    data = response.json()
    assert set(data) >= {"code", "message", "detail"}
    assert data["code"] == code and message in data["message"]
    assert Game.objects.get(pk=duel.game.pk).version == 2


@pytest.mark.parametrize(
    ("command", "code", "message"),
    [
        (
            {"type": "Discard", "seat": 0, "card": "QS"},
            "must_draw_first",
            "seat 0 must draw before discarding",
        ),
        ({"type": "Knock", "seat": 0, "card": "2C"}, "must_draw_first", "seat 0 must draw before discarding"),
    ],
)
def test_a_rules_refusal_names_the_engine_code(
    duel: services.SubmitResult, ann: Any, command: dict[str, Any], code: str, message: str
) -> None:
    response = post_command(client_for(ann), duel.game.pk, 2, command)
    assert response.status_code == 400
    assert response.json()["code"] == code and response.json()["message"].startswith(message)


def test_an_oversized_body_is_413_json_not_an_html_page(duel: services.SubmitResult, ann: Any) -> None:
    padding = "x" * (256 * 1024)
    body = json.dumps(
        {"expected_version": 2, "command": {"type": "DrawFromStock", "seat": 0}, "pad": padding}
    )
    response = client_for(ann).post(f"{URL}/{duel.game.pk}/commands", body, content_type="application/json")
    assert response.status_code == 413
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["code"] == "request_too_large"


def test_a_bad_idempotency_key_is_400(duel: services.SubmitResult, ann: Any) -> None:
    response = post_command(
        client_for(ann), duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0}, HTTP_IDEMPOTENCY_KEY="bot:1:2"
    )
    assert response.status_code == 400 and response.json()["code"] == "invalid_idempotency_key"


def test_unknown_games_are_404(ann: Any) -> None:
    for response in (
        client_for(ann).get(f"{URL}/999999"),
        client_for(ann).get(f"{URL}/999999/events"),
        post_command(client_for(ann), 999999, 0, {"type": "DrawFromStock", "seat": 0}),
    ):
        assert response.status_code == 404 and response.json()["code"] == "not_found"


@pytest.mark.parametrize(
    ("who", "command", "status", "code"),
    [
        ("anonymous", {"type": "DrawFromStock", "seat": 0}, 401, "not_authenticated"),
        ("stranger", {"type": "DrawFromStock", "seat": 0}, 403, "permission_denied"),
        ("bob", {"type": "DrawFromStock", "seat": 0}, 403, "not_your_seat"),
        ("owner", {"type": "DrawFromStock", "seat": 0}, 403, "not_your_seat"),
        ("ann", {"type": "DealHand"}, 403, "dealt_by_system"),
        ("ann", {"type": "AbandonGame", "reason": "bored"}, 403, "recorder_only"),
        ("owner", {"type": "AbandonGame", "reason": "storm"}, 201, None),
        ("ann", {"type": "DrawFromStock", "seat": 0}, 201, None),
    ],
)
def test_who_may_act_in_a_digital_game(
    duel: services.SubmitResult,
    make_user: Any,
    who: str,
    command: dict[str, Any],
    status: int,
    code: str | None,
) -> None:
    from django.contrib.auth import get_user_model

    users = {u.username: u for u in get_user_model().objects.all()}
    user = {"anonymous": None, "stranger": make_user("sam"), "owner": users["olga"]}.get(who, users.get(who))
    response = post_command(client_for(user), duel.game.pk, 2, command)
    assert response.status_code == status, response.json()
    if code:
        assert response.json()["code"] == code


def test_physical_games_are_recorded_by_owner_and_scorekeepers(
    owner: Any, ann: Any, bob: Any, grant_recorder: Any
) -> None:
    game = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec("Bo")], mode="physical").game
    grant_recorder(bob, game)
    deal = {"type": "DealHand", "upcard": "7H"}
    refused = post_command(client_for(ann), game.pk, 1, deal)
    assert refused.status_code == 403 and refused.json()["code"] == "recorder_only"
    assert post_command(client_for(bob), game.pk, 1, deal).status_code == 201
    draw = post_command(
        client_for(owner), game.pk, 2, a_legal_move(store.load_state(Game.objects.get(pk=game.pk)))
    )
    assert draw.status_code == 201


def test_export_and_import_round_trip_a_finished_game(
    duel: services.SubmitResult, owner: Any, ann: Any
) -> None:
    client = client_for(owner)
    assert client.get(f"{URL}/{duel.game.pk}/export").json()["code"] == "export_not_allowed"
    post_command(client, duel.game.pk, 2, {"type": "AbandonGame", "reason": "rain"})
    exported = client.get(f"{URL}/{duel.game.pk}/export")
    assert exported.status_code == 200
    document = exported.json()
    assert [e["seq"] for e in document["events"]] == [1, 2, 3]
    assert len(document["events"][1]["data"]["deck"]) == 52
    imported = client_for(ann).post(f"{URL}/import", document, format="json")
    assert imported.status_code == 201, imported.json()
    copy = Game.objects.get(pk=imported.json()["id"])
    assert copy.owner == ann and copy.version == 3 and copy.status == "abandoned"
    original = [(e.type, e.data) for e in GameEvent.objects.filter(game_id=duel.game.pk).order_by("seq")]
    assert [(e.type, e.data) for e in GameEvent.objects.filter(game=copy).order_by("seq")] == original


@pytest.mark.parametrize(
    ("mutate", "index", "event_code"),
    [
        (lambda ev: ev.__setitem__(1, {**ev[1], "type": "Shuffled"}), 1, "unknown_event_type"),
        (lambda ev: ev.__setitem__(0, {**ev[0], "schema_version": 99}), 0, "event_from_the_future"),
        (lambda ev: ev.insert(0, ev[1]), 0, "invalid_event"),
        (
            lambda ev: ev.__setitem__(2, {**ev[2], "data": {"seat": 0, "source": "stock", "card": "ZZ"}}),
            2,
            "invalid_event",
        ),
    ],
)
def test_import_refuses_a_bad_log_naming_the_first_bad_event(
    duel: services.SubmitResult, ann: Any, mutate: Any, index: int, event_code: str
) -> None:
    services.submit_command(
        game=duel.game,
        command={"type": "DrawFromStock", "seat": 0},
        actor=ann,
        source=Source.API,
        expected_version=2,
    )
    events = [
        {"type": e.type, "schema_version": e.schema_version, "data": e.data}
        for e in GameEvent.objects.filter(game_id=duel.game.pk).order_by("seq")
    ]
    mutate(events)
    games_before, events_before = Game.objects.count(), GameEvent.objects.count()
    response = client_for(ann).post(f"{URL}/import", {"events": events}, format="json")
    assert response.status_code == 400
    data = response.json()
    assert data["code"] == "invalid_log"
    assert (data["index"], data["event_code"]) == (index, event_code)
    assert data["message"].startswith(f"event {index}: ")
    assert (Game.objects.count(), GameEvent.objects.count()) == (games_before, events_before)


def test_import_refuses_a_log_whose_score_is_not_the_rules(ann: Any) -> None:
    """A recorded hand's score is computed again from the recorded entry: a log whose
    HandScored says otherwise is refused, though it replays event by event."""
    log = engine.decide(
        None, engine.StartGame(engine.get_ruleset("knock-rummy", hands=1), ("A", "B"), "physical")
    )
    log += engine.decide(engine.replay(log), engine.RecordHandResult(knocker=0, deadwood={0: 3, 1: 20}))
    events = [engine.event_to_dict(e) for e in log]
    events[2]["data"]["points"] = {"0": "99", "1": "-99"}
    engine.replay(engine.event_from_dict(e) for e in events)  # the plain fold takes it
    games_before = Game.objects.count()
    response = client_for(ann).post(f"{URL}/import", {"events": events}, format="json")
    assert response.status_code == 400
    data = response.json()
    assert (data["code"], data["index"], data["event_code"]) == ("invalid_log", 2, "rescored")
    assert data["message"] == (
        "event 2: HandScored is not what the rules give: points.0: recorded '99', the rules give '17'; "
        "points.1: recorded '-99', the rules give '-17'"
    )
    assert Game.objects.count() == games_before


def test_the_schema_documents_bodies_and_errors() -> None:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    commands = schema["paths"]["/api/v1/games/{game_id}/commands"]["post"]
    assert {"201", "400", "403", "409", "413", "422"} <= set(commands["responses"])
    assert any(p["name"] == "Idempotency-Key" for p in commands["parameters"])
    assert "requestBody" in commands
    assert {
        "/api/v1/games",
        "/api/v1/games/import",
        "/api/v1/auth/token",
        "/api/v1/games/{game_id}/export",
        "/api/v1/games/{game_id}/events",
        "/api/v1/games/{game_id}",
    } <= set(schema["paths"])


def _vendor_queries(sqlite: int, postgresql: int) -> int:
    return postgresql if connection.vendor == "postgresql" else sqlite


@pytest.mark.both_databases
def test_query_count_of_the_state_endpoint(
    duel: services.SubmitResult, ann: Any, django_assert_num_queries: Any
) -> None:
    client = client_for(ann, token=True)
    # token with its user, game, then the log (cold cache)
    with django_assert_num_queries(3):
        assert client.get(f"{URL}/{duel.game.pk}").status_code == 200
    # warm: the cached state is at the game's version
    with django_assert_num_queries(2):
        assert client.get(f"{URL}/{duel.game.pk}").status_code == 200


@pytest.mark.both_databases
def test_query_count_of_game_creation(ann: Any, bob: Any, django_assert_num_queries: Any) -> None:
    client = client_for(ann, token=True)
    body = {"seats": [{"user": ann.pk}, {"user": bob.pk}]}
    # token with its user, the seats' users, savepoint (the test's transaction stands
    # for BEGIN), the game row, the events (PostgreSQL: one games_append; SQLite: in a
    # savepoint of their own, the game row's update, top position, insert), release;
    # the answer is made from the row just written
    with django_assert_num_queries(_vendor_queries(sqlite=10, postgresql=6)):
        assert client.post(URL, body, format="json").status_code == 201


@pytest.mark.both_databases
def test_query_count_of_the_command_endpoint(
    duel: services.SubmitResult, ann: Any, django_assert_num_queries: Any
) -> None:
    client = client_for(ann, token=True)
    client.get(f"{URL}/{duel.game.pk}")  # warm the state cache
    # token with its user; the game row (the access check runs on it) with whether the key
    # was used and the events after the cached state (PostgreSQL: one statement; SQLite:
    # the row, then the key); then the write: PostgreSQL, one call of games_append, which
    # updates the game row if still at its version, takes the append lock and inserts the
    # events (no savepoint, though the test runs in a transaction); SQLite: savepoint,
    # update game, top position, insert events, release savepoint
    with django_assert_num_queries(_vendor_queries(sqlite=8, postgresql=3)):
        response = post_command(
            client, duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0}, HTTP_IDEMPOTENCY_KEY="draw-1"
        )
    assert response.status_code == 201
    # without a key (a fresh one is made: no lookup) and with a cold cache, PostgreSQL
    # reads the whole log with the row, in the same statement; SQLite reads it for replay
    store.state_cache.clear()
    discard = a_legal_move(store.load_state(Game.objects.get(pk=duel.game.pk), use_cache=False))
    with django_assert_num_queries(_vendor_queries(sqlite=8, postgresql=3)):
        response = post_command(client, duel.game.pk, 3, discard)
    assert response.status_code == 201
    # a retry: the key's statement says it was used, and the original answer is rebuilt
    # from the write's events and the log before them (no write)
    with django_assert_num_queries(_vendor_queries(sqlite=5, postgresql=4)):
        retried = post_command(
            client, duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0}, HTTP_IDEMPOTENCY_KEY="draw-1"
        )
    assert retried.status_code == 201 and retried.json()["version"] == 3


@pytest.mark.parametrize(
    ("who", "game", "body", "headers", "status", "code"),
    [
        # who is refused comes before what is wrong with the body, as it always did
        ("anonymous", "missing", "[]", {}, 404, "not_found"),
        ("anonymous", "duel", "[]", {}, 401, "not_authenticated"),
        ("ann", "missing", "[]", {}, 404, "not_found"),
        ("stranger", "duel", "[]", {}, 403, "permission_denied"),
        (
            "stranger",
            "duel",
            '{"expected_version": 2, "command": {"type": "Shuffle"}}',
            {},
            403,
            "permission_denied",
        ),
        (
            "bob",
            "duel",
            '{"expected_version": 2, "command": {"type": "DrawFromStock", "seat": 0}}',
            {"HTTP_IDEMPOTENCY_KEY": "bad key!"},
            403,
            "not_your_seat",
        ),
        (
            "ann",
            "duel",
            '{"expected_version": 2, "command": {"type": "DrawFromStock", "seat": 0}}',
            {"HTTP_IDEMPOTENCY_KEY": "bad key!"},
            400,
            "invalid_idempotency_key",
        ),
        (
            "ann",
            "duel",
            '{"expected_version": -1, "command": {"type": "DrawFromStock", "seat": 0}}',
            {},
            400,
            "invalid_request",
        ),
        (
            "ann",
            "duel",
            '{"expected_version": true, "command": {"type": "DrawFromStock", "seat": 0}}',
            {},
            400,
            "invalid_request",
        ),
        (
            "ann",
            "duel",
            '{"expected_version": 2, "command": {"type": "StartGame"}}',
            {},
            400,
            "malformed_command",
        ),
        # the serializer still takes what it always took
        (
            "ann",
            "duel",
            '{"expected_version": "2", "command": {"type": "DrawFromStock", "seat": 0}}',
            {},
            201,
            None,
        ),
    ],
)
def test_refusals_and_body_errors_keep_their_order(
    duel: services.SubmitResult,
    make_user: Any,
    who: str,
    game: str,
    body: str,
    headers: dict[str, str],
    status: int,
    code: str | None,
) -> None:
    from django.contrib.auth import get_user_model

    users = {u.username: u for u in get_user_model().objects.all()}
    user = {"anonymous": None, "stranger": make_user("sam")}.get(who, users.get(who))
    game_id = duel.game.pk if game == "duel" else 999999
    response = client_for(user).post(
        f"{URL}/{game_id}/commands", body, content_type="application/json", **headers
    )
    assert response.status_code == status, response.json()
    if code:
        assert response.json()["code"] == code
    assert Game.objects.get(pk=duel.game.pk).version == (3 if status == 201 else 2)


def test_a_revoked_token_or_a_deactivated_user_is_refused_at_once(
    duel: services.SubmitResult, ann: Any
) -> None:
    from rest_framework.authtoken.models import Token

    client = client_for(ann, token=True)
    assert client.get(f"{URL}/{duel.game.pk}").json()["viewer"]["role"] == "seat"
    move = {"type": "DrawFromStock", "seat": 0}
    ann.is_active = False
    ann.save(update_fields=["is_active"])
    refused = post_command(client, duel.game.pk, 2, move)
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"
    ann.is_active = True
    ann.save(update_fields=["is_active"])
    assert post_command(client, duel.game.pk, 2, move).status_code == 201
    Token.objects.filter(user=ann).delete()
    refused = post_command(client, duel.game.pk, 3, {"type": "Discard", "seat": 0, "card": "QS"})
    assert refused.status_code == 401 and refused.json()["code"] == "authentication_failed"
    assert Game.objects.get(pk=duel.game.pk).version == 3


def test_the_token_user_is_the_whole_user(duel: services.SubmitResult, ann: Any) -> None:
    """The API's token lookup (one written statement) gives what DRF's queryset gives."""
    from rest_framework import authentication
    from rest_framework.authtoken.models import Token

    from games.authentication import TokenAuthentication

    client = client_for(ann, token=True)
    key = Token.objects.get(user=ann).key  # the token client_for made and sends
    user, token = TokenAuthentication().authenticate_credentials(key)
    drf_user, drf_token = authentication.TokenAuthentication().authenticate_credentials(key)
    assert user == drf_user == ann and token.key == drf_token.key == key and token.user is user
    fields = [f.attname for f in type(ann)._meta.concrete_fields]
    assert [getattr(user, f) for f in fields] == [getattr(drf_user, f) for f in fields]
    assert response_source(client, duel) == "api"
    with pytest.raises(AuthenticationFailed, match="Invalid token"):
        TokenAuthentication().authenticate_credentials(key[:-1] + ("0" if key[-1] != "0" else "1"))


def response_source(client: APIClient, duel: services.SubmitResult) -> str:
    response = post_command(client, duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0})
    return response.json()["events"][0]["source"]


def test_a_refused_caller_learns_nothing_about_an_earlier_key(
    duel: services.SubmitResult, ann: Any, bob: Any
) -> None:
    """The permission check runs before the key is looked up: another user's retry of
    ann's key is refused as any command of theirs would be, not answered from ann's write."""
    move = {"type": "DrawFromStock", "seat": 0}
    assert post_command(client_for(ann), duel.game.pk, 2, move, HTTP_IDEMPOTENCY_KEY="k1").status_code == 201
    refused = post_command(client_for(bob), duel.game.pk, 2, move, HTTP_IDEMPOTENCY_KEY="k1")
    assert (refused.status_code, refused.json()["code"]) == (403, "not_your_seat")
    assert GameEvent.objects.filter(game=duel.game).count() == 3
