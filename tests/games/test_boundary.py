"""The API's boundary: each class of hostile input is a 4xx with a stable code, JSON
under /api/ whatever goes wrong, and nothing written (docs/api.md, "Limits")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import services
from games.models import Game, GameEvent
from games.parsers import MAX_DEPTH, MAX_STRING, nesting_depth
from tests.support.games import client_for, new_game

pytestmark = pytest.mark.django_db

URL = "/api/v1/games"
TWO_SEATS = [{"name": "A"}, {"name": "B"}]


def raw_post(client: APIClient, url: str, text: str) -> Any:
    return client.generic("POST", url, text.encode("utf-8"), content_type="application/json")


def unchanged(result: services.SubmitResult) -> tuple[int, int]:
    game = Game.objects.get(pk=result.game.pk)
    return game.version, GameEvent.objects.filter(game_id=game.pk).count()


@pytest.mark.parametrize(("anonymous", "url"), [(True, "/api/v1/auth/token"), (False, URL)])
def test_deep_nesting_is_400_too_deeply_nested(ann: Any, anonymous: bool, url: str) -> None:
    client = APIClient() if anonymous else client_for(ann)
    response = raw_post(client, url, "[" * 2000 + "]" * 2000)
    assert response.status_code == 400
    assert response.json() == {
        "code": "too_deeply_nested",
        "message": f"the body nests deeper than {MAX_DEPTH} levels",
        "detail": {"path": "$"},
    }


def test_nesting_depth_ignores_brackets_inside_strings() -> None:
    assert nesting_depth(b'{"a": "' + b"[" * 100 + b'"}') <= 1
    assert nesting_depth(b"[" * (MAX_DEPTH + 5)) == MAX_DEPTH + 1
    assert nesting_depth(b'[[["\\"[[[["]]]', limit=2) == 3


@pytest.mark.parametrize(
    ("text", "code", "path"),
    [
        ('{"seats": [], "stake": 1e4300}', "value_out_of_range", "$.stake"),
        ('{"first_dealer": 99999999999999999999999999999999}', "value_out_of_range", "$.first_dealer"),
        ('{"first_dealer": -99999999999999999999}', "value_out_of_range", "$.first_dealer"),
        ('{"x": 1.5e300}', "value_out_of_range", "$.x"),
        # an int past a double's range (float(int) overflows) and past Python's digit limit
        ('{"seats": [], "stake": 1' + "0" * 309 + "}", "value_out_of_range", "$.stake"),
        ('{"seats": [{"user": -1' + "0" * 4300 + "}]}", "value_out_of_range", "$.seats[0].user"),
        ('{"first_dealer": 90071992547409930}', "value_out_of_range", "$.first_dealer"),
        ('{"seats": [{"name": "\\ud800"}]}', "invalid_string", "$.seats[0].name"),
        ('{"seats": [{"name": "a\\u0000b"}]}', "invalid_string", "$.seats[0].name"),
        ('{"\\udfff": 1}', "invalid_string", "$ (a key)"),
        ('{"preset": "' + "x" * (MAX_STRING + 1) + '"}', "string_too_long", "$.preset"),
    ],
)
def test_numbers_and_strings_out_of_range_are_400_naming_the_path(
    ann: Any, text: str, code: str, path: str
) -> None:
    response = raw_post(client_for(ann), URL, text)
    body = response.json()
    assert response.status_code == 400, body
    assert body["code"] == code and body["detail"] == {"path": path}
    assert path.split(" ")[0] in body["message"]
    assert not Game.objects.exists()


def test_a_4301_digit_number_is_refused_without_pythons_advice(ann: Any) -> None:
    response = raw_post(client_for(ann), URL, '{"stake": ' + "9" * 4301 + "}")
    assert response.status_code == 400
    assert response.json()["code"] == "value_out_of_range"
    assert "set_int_max_str_digits" not in response.content.decode()


def test_a_surrogate_pair_is_a_character_not_a_lone_surrogate(ann: Any) -> None:
    response = raw_post(
        client_for(ann), URL, '{"mode": "physical", "seats": [{"name": "\\ud83c\\udccf"}, {"name": "B"}]}'
    )
    assert response.status_code == 201, response.json()
    assert Game.objects.get().seats[0]["name"] == "\U0001f0cf"


def test_too_many_values_is_400(ann: Any) -> None:
    response = raw_post(client_for(ann), URL, "[" + ",".join(["0"] * 100_001) + "]")
    assert response.status_code == 400 and response.json()["code"] == "too_many_values"


@pytest.mark.parametrize(
    "body",
    [
        {"seats": TWO_SEATS, "stake": "1/0"},
        {"seats": TWO_SEATS, "stake": "-1"},
        {"seats": TWO_SEATS, "stake": "1000001"},
        {"seats": TWO_SEATS, "stake": "1/1001"},
        {"seats": TWO_SEATS, "stake": "9999999999/1"},
        {"seats": TWO_SEATS, "first_dealer": 2},
        {"seats": TWO_SEATS, "first_dealer": -1},
        {"seats": [{"name": "A"}]},
        {"seats": [{"name": str(n)} for n in range(9)]},
        {"seats": [{"name": "x" * 81}, {"name": "B"}]},
        {"seats": [{"bot": "x" * 41}, {"name": "B"}]},
        {"seats": [{"user": 2**31}, {"name": "B"}]},
        {"seats": TWO_SEATS, "options": {f"o{n}": 1 for n in range(41)}},
    ],
)
def test_serializer_limits_are_400_invalid_request(ann: Any, body: dict[str, Any]) -> None:
    response = client_for(ann).post(URL, body, format="json")
    assert response.status_code == 400, response.json()
    assert response.json()["code"] == "invalid_request"
    assert not Game.objects.exists()


def test_a_stake_in_range_is_taken_exactly(ann: Any) -> None:
    response = client_for(ann).post(
        URL, {"mode": "physical", "seats": TWO_SEATS, "stake": "1000000/1000"}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["events"][0]["data"]["stake"] == "1000"


@pytest.mark.parametrize("value", ["%C2%B2", "-1", "1.0", "%EF%BC%91", "10000000000", "1000000001", "", "+1"])
@pytest.mark.parametrize(("suffix", "name"), [("", "seat"), ("/events", "seat"), ("/events", "after")])
def test_query_numbers_are_ascii_digits_with_a_bound(
    duel: services.SubmitResult, ann: Any, value: str, suffix: str, name: str
) -> None:
    response = client_for(ann).get(f"{URL}/{duel.game.pk}{suffix}?{name}={value}")
    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid_request",
        "message": f"{name} must be a number from 0 to 1000000000",
        "detail": {},
    }


def test_a_query_number_at_the_bound_is_taken(duel: services.SubmitResult, ann: Any) -> None:
    response = client_for(ann).get(f"{URL}/{duel.game.pk}/events?after=1000000000&seat=0")
    assert response.status_code == 200 and response.json()["events"] == []


@pytest.mark.parametrize("path", ["/api/v1/games/abc", "/api/v1/nothing", "/api/", "/api/v2/games/1"])
def test_unmatched_api_paths_are_json_404(path: str) -> None:
    response = APIClient().get(path)
    assert response.status_code == 404 and response["Content-Type"] == "application/json"
    assert response.json() == {"code": "not_found", "message": f"no API endpoint at {path}", "detail": {}}


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
@pytest.mark.parametrize("auth", ["token", "session", "anonymous"])
@pytest.mark.parametrize("path", ["/api/v1/tournaments/-5", "/api/v1/nothing/1", "/api/v1/games/x/commands"])
def test_unmatched_api_paths_are_json_404_for_any_method_and_auth(
    ann: Any, method: str, auth: str, path: str
) -> None:
    # CSRF enforced as a browser's request meets it (the test client skips it by default)
    client = APIClient(enforce_csrf_checks=True)
    if auth == "token":
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=ann).key}")
    elif auth == "session":
        client.force_login(ann)
    response = client.generic(method, path, b'{"name": "x"}', content_type="application/json")
    assert response.status_code == 404, response.content[:200]
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


def test_an_unexpected_error_in_an_api_view_is_json_500_and_rolls_back(
    duel: services.SubmitResult, ann: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from games import selectors

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("a bug")

    monkeypatch.setattr(selectors, "state_payload", broken)
    client = client_for(ann)
    client.raise_request_exception = False
    response = client.get(f"{URL}/{duel.game.pk}")
    assert response.status_code == 500
    assert response.json() == {
        "code": "internal_error",
        "message": "the server failed to answer this request",
        "detail": {},
    }


def test_django_error_handlers_answer_json_under_api_and_html_elsewhere(rf: Any) -> None:
    from django.core.exceptions import PermissionDenied, SuspiciousOperation
    from django.http import Http404

    from config import error_views

    handlers = [
        (lambda r: error_views.bad_request(r, SuspiciousOperation()), 400, "bad_request"),
        (lambda r: error_views.permission_denied(r, PermissionDenied()), 403, "permission_denied"),
        (lambda r: error_views.page_not_found(r, Http404()), 404, "not_found"),
        (error_views.server_error, 500, "internal_error"),
    ]
    for handler, status, code in handlers:
        api = handler(rf.get("/api/v1/games/1"))
        assert api.status_code == status and api["Content-Type"] == "application/json"
        assert json.loads(api.content)["code"] == code
        page = handler(rf.get("/"))
        assert page.status_code == status and page["Content-Type"].startswith("text/html")


def test_a_disallowed_host_under_api_is_json_400() -> None:
    client = APIClient(HTTP_HOST="evil.example")
    client.raise_request_exception = False
    response = client.get("/api/v1/games/1")
    assert response.status_code == 400 and response.json()["code"] == "bad_request"


@pytest.mark.parametrize(
    "command",
    [
        {"type": "Retract", "count": 1, "reason": "oops"},
        {"type": "Retract", "count": 1, "reason": "a\u0000b"},
    ],
)
def test_rejected_commands_leave_the_version_unchanged(ann: Any, command: dict[str, Any]) -> None:
    result = new_game(ann, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(name="Bo")])
    before = unchanged(result)
    response = client_for(ann).post(
        f"{URL}/{result.game.pk}/commands", {"expected_version": before[0], "command": command}, format="json"
    )
    assert response.status_code in (400, 403)
    assert unchanged(result) == before


def test_a_seated_owner_may_not_retract_a_digital_game(ann: Any, bob: Any) -> None:
    result = new_game(ann, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])
    game_id = result.game.pk
    before = unchanged(result)
    response = client_for(ann).post(
        f"{URL}/{game_id}/commands",
        {"expected_version": before[0], "command": {"type": "Retract", "count": 1, "reason": "peek"}},
        format="json",
    )
    assert response.status_code == 403
    assert response.json()["code"] == "seated_player_cannot_retract"
    assert unchanged(result) == before


def test_an_unseated_owner_may_still_retract_a_digital_game(owner: Any, ann: Any, bob: Any) -> None:
    result = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])
    game = Game.objects.get(pk=result.game.pk)
    draw = {"type": "DrawFromStock", "seat": result.state.to_move}
    seated = ann if result.state.to_move == 0 else bob
    assert (
        client_for(seated)
        .post(f"{URL}/{game.pk}/commands", {"expected_version": game.version, "command": draw}, format="json")
        .status_code
        == 201
    ), "setup"
    response = client_for(owner).post(
        f"{URL}/{game.pk}/commands",
        {"expected_version": game.version + 1, "command": {"type": "Retract", "count": 1, "reason": "x"}},
        format="json",
    )
    assert response.status_code == 201, response.json()


def test_the_schema_states_the_limits() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    paths, components = schema["paths"], schema["components"]["schemas"]
    seat_query = next(p for p in paths["/api/v1/games/{game_id}"]["get"]["parameters"] if p["name"] == "seat")
    assert seat_query["schema"] == {"type": "integer", "minimum": 0, "maximum": 1000000000}
    seats = components["GameCreate"]["properties"]["seats"]
    assert seats["minItems"] == 2 and seats["maxItems"] == 8
    command = components["CommandRequest"]["properties"]["command"]
    assert command["properties"]["seat"]["minimum"] == 0 and command["required"] == ["type"]
    key = next(p for p in paths["/api/v1/games"]["post"]["parameters"] if p["name"] == "Idempotency-Key")
    assert key["schema"]["pattern"] == "^[A-Za-z0-9._~+/=-]{1,200}$" and key["schema"]["maxLength"] == 200
    stake = components["GameCreate"]["properties"]["stake"]
    assert stake["pattern"] == "^[0-9]{1,7}(/[0-9]{1,4})?$"
    invalid_log = paths["/api/v1/games/import"]["post"]["responses"]["400"]["content"]["application/json"]
    assert invalid_log["schema"] == {"$ref": "#/components/schemas/InvalidLog"}
    assert set(components["InvalidLog"]["required"]) == {"code", "message", "detail"}
    assert {"index", "event_code", "event_message"} <= set(components["InvalidLog"]["properties"])


def test_a_csrf_refusal_under_api_is_json_and_elsewhere_django_s_page() -> None:
    from django.test import RequestFactory

    from config.error_views import csrf_failure

    api = csrf_failure(RequestFactory().post("/api/v1/anything"), "CSRF cookie not set.")
    assert api.status_code == 403 and json.loads(api.content)["code"] == "csrf_failed"
    page = csrf_failure(RequestFactory().post("/desk/"), "CSRF cookie not set.")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")
