"""A request to the game API leaves no reference cycles holding the request, the view
or the response (config.middleware, games.views.ApiView): they are freed by reference
counting when the server drops the response, not left for the cycle collector.

The requests go straight through Django's WSGI handler, as gunicorn sends them: the test
client would keep the request and response (and cycles of its own) for the test to read.
"""

from __future__ import annotations

import gc
import io
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.http import HttpRequest, HttpResponseBase
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.views import APIView

from games import services
from tests.games.conftest import a_legal_move, new_game, play

pytestmark = pytest.mark.django_db

URL = "/api/v1/games"
# What a request is made of: none of these may be left in a cycle.
REQUEST_SCOPED = (HttpRequest, Request, APIView, HttpResponseBase)


@pytest.fixture
def wsgi() -> Iterator[WSGIHandler]:
    # As Django's test client: the test's transaction holds the connection, which
    # close_old_connections would otherwise close when a request starts and ends.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def call(app: WSGIHandler, method: str, path: str, body: Any = None, **headers: str) -> tuple[int, Any]:
    """Send one request as a WSGI server does; its status and its JSON body."""
    data = b"" if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    path, _, query = path.partition("?")
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "testserver",
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "wsgi.errors": io.StringIO(),
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(data)),
        **{"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()},
    }
    statuses: list[int] = []

    def start_response(status: str, response_headers: Any, exc_info: Any = None) -> None:
        statuses.append(int(status.split()[0]))

    response = app(environ, start_response)
    try:
        content = b"".join(response)
    finally:
        response.close()  # what the server does when it has sent the body: request_finished
    return statuses[0], json.loads(content) if content else None


def left_in_cycles(run: Callable[[], Any]) -> tuple[Any, list[Any]]:
    """What ``run()`` returned, and what of what it made only the cycle collector frees."""
    gc.collect()
    was_enabled, flags = gc.isenabled(), gc.get_debug()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what a collection finds, to look at it
    try:
        result = run()
        gc.collect()
        found = list(gc.garbage)
    finally:
        gc.garbage.clear()
        gc.set_debug(flags)
        if was_enabled:
            gc.enable()
    return result, found


def names(found: list[Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in found:
        counts[type(item).__qualname__] = counts.get(type(item).__qualname__, 0) + 1
    return counts


def test_the_check_finds_a_request_left_in_a_cycle(wsgi: WSGIHandler) -> None:
    """The check itself: a request kept in a cycle is seen, by its type."""

    def leak() -> None:
        request = HttpRequest()
        request.META["self"] = request

    _, found = left_in_cycles(leak)
    assert any(isinstance(item, HttpRequest) for item in found)
    _, found = left_in_cycles(HttpRequest)
    assert found == []


def api_requests(game: services.SubmitResult, token: str, cookie: str, document: Any) -> list[Any]:
    """One request of every kind on ``game``, and the status each must answer."""
    url, version = f"{URL}/{game.game.pk}", game.version
    seats = [{"user": seat["user"]} for seat in game.game.seats]
    command = {"expected_version": version, "command": a_legal_move(game.state)}
    stale = {**command, "expected_version": version - 1}
    tokened = {"Authorization": f"Token {token}"}
    key = f"{game.game.uid}-move"
    opening = {"preset": "knock-rummy", "seats": seats}
    return [
        ("POST", URL, opening, {**tokened, "Idempotency-Key": key + "-new"}, 201),
        ("GET", url, None, tokened, 200),
        ("GET", url, None, {"Cookie": f"sessionid={cookie}"}, 200),
        ("GET", url, None, {}, 200),  # the public view
        ("GET", f"{url}/events?after=0", None, tokened, 200),
        ("POST", f"{url}/commands", command, {**tokened, "Idempotency-Key": key}, 201),
        ("POST", f"{url}/commands", command, {**tokened, "Idempotency-Key": key}, 201),  # a retry
        ("POST", f"{url}/commands", stale, {**tokened, "Idempotency-Key": key + "-2"}, 409),
        ("POST", f"{url}/commands", b'{"expected_version": ', tokened, 400),
        ("POST", f"{url}/commands", command, {}, 401),
        ("GET", f"{url}/export", None, tokened, 403),  # not before the game is over
        ("POST", f"{URL}/import", document, tokened, 201),
        ("POST", f"{URL}/import", {"events": document["events"][1:]}, tokened, 400),
    ]


@pytest.fixture
def callers(wsgi: WSGIHandler, owner: Any, ann: Any) -> tuple[str, str, Any]:
    """ann's token and session cookie, and the export of an abandoned game to import."""
    token = Token.objects.create(user=ann).key
    session = Client()
    session.force_login(ann)
    ended = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(name="Cy")])
    play(ended.game.pk, owner, {"type": "AbandonGame", "reason": "rain"})
    owner_token = f"Token {Token.objects.create(user=owner).key}"
    status, document = call(wsgi, "GET", f"{URL}/{ended.game.pk}/export", Authorization=owner_token)
    assert status == 200
    return token, session.cookies["sessionid"].value, document


@pytest.fixture
def warmed(
    wsgi: WSGIHandler, owner: Any, ann: Any, bob: Any, callers: tuple[str, str, Any]
) -> tuple[str, str, Any]:
    """``callers``, after every kind of request once on another game: what a first call
    builds and keeps (imports, compiled patterns, prepared statements) is not a
    request's garbage."""
    other = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])
    for method, path, body, headers, expected in api_requests(other, *callers):
        assert call(wsgi, method, path, body, **headers)[0] == expected, (method, path)
    return callers


def test_no_request_view_or_response_is_left_in_a_cycle(
    wsgi: WSGIHandler, duel: services.SubmitResult, warmed: tuple[str, str, Any]
) -> None:
    left = {}
    for method, path, body, headers, expected in api_requests(duel, *warmed):
        status, found = left_in_cycles(lambda: call(wsgi, method, path, body, **headers)[0])  # noqa: B023
        assert status == expected, (method, path)
        kept = [item for item in found if isinstance(item, REQUEST_SCOPED)]
        if kept:
            left[f"{method} {path} {status}"] = names(kept)
    assert not left, "\n".join(f"{request}: {kept}" for request, kept in left.items())
