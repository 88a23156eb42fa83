"""config.middleware: Django's messages, with no storage made or saved for a request that
never uses it; Django's request.user and request.auser; neither keeps the request alive."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.utils.functional import empty

from config.middleware import AuthenticationMiddleware, LazyMessageMiddleware


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


def _signed_in(request: HttpRequest, cookie: str | None) -> HttpRequest:
    if cookie is not None:
        request.COOKIES["sessionid"] = cookie
    SessionMiddleware(lambda req: HttpResponse()).process_request(request)
    AuthenticationMiddleware(lambda req: HttpResponse()).process_request(request)
    return request


@pytest.mark.django_db
def test_request_user_and_auser_are_the_session_user_or_anonymous() -> None:
    ann = get_user_model().objects.create_user("ann")
    client = Client()
    client.force_login(ann)

    request = _signed_in(RequestFactory().get("/"), client.cookies["sessionid"].value)
    assert request.user == ann and request.user.is_authenticated
    anonymous = _signed_in(RequestFactory().get("/"), None)
    assert isinstance(anonymous.user, AnonymousUser)
    # (the async lookup runs in another thread: the anonymous one needs no database)
    assert isinstance(asyncio.run(anonymous.auser()), AnonymousUser)  # type: ignore[attr-defined]


def test_authentication_needs_the_session_middleware() -> None:
    with pytest.raises(ImproperlyConfigured, match="session middleware"):
        AuthenticationMiddleware(lambda req: HttpResponse()).process_request(RequestFactory().get("/"))


def test_neither_middleware_keeps_the_request_alive() -> None:
    """Freed by reference counting alone, with the collector off: no cycle through
    request.user, request.auser or the lazy message storage."""
    request = _signed_in(RequestFactory().get("/"), None)
    LazyMessageMiddleware(lambda req: HttpResponse()).process_request(request)
    gone = weakref.ref(request)
    gc.disable()
    try:
        del request
        assert gone() is None
    finally:
        gc.enable()
