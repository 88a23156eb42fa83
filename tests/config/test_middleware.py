"""config.middleware.LazyMessageMiddleware: Django's messages, with no storage made or
saved for a request that never uses it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory
from django.utils.functional import empty

from config.middleware import LazyMessageMiddleware


def _through(request: HttpRequest, view: object) -> HttpResponse:
    def handler(req: HttpRequest) -> HttpResponse:
        return view(req)  # type: ignore[operator, no-any-return]

    middleware = SessionMiddleware(LazyMessageMiddleware(handler))
    return middleware(request)  # type: ignore[return-value]


def test_a_request_that_adds_a_message_stores_it_for_the_next_one() -> None:
    def add(request: HttpRequest) -> HttpResponse:
        messages.success(request, "Game recorded")
        return HttpResponse("ok")

    response = _through(RequestFactory().get("/"), add)
    assert "messages" in response.cookies  # stored as Django stores it (cookie first)

    shown: list[str] = []

    def show(request: HttpRequest) -> HttpResponse:
        shown.extend(str(m) for m in messages.get_messages(request))
        return HttpResponse("ok")

    request = RequestFactory().get("/")
    request.COOKIES["messages"] = response.cookies["messages"].value
    after = _through(request, show)
    assert shown == ["Game recorded"]
    assert after.cookies["messages"].value == ""  # shown once, then cleared


def test_a_request_that_never_uses_messages_makes_no_storage() -> None:
    request = RequestFactory().get("/api/v1/games/1")
    response = _through(request, lambda req: HttpResponse("{}"))
    assert request._messages._wrapped is empty  # type: ignore[attr-defined]
    assert "messages" not in response.cookies
