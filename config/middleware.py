"""Middleware of the project's own.

No reference cycles per request
-------------------------------
Django's ``AuthenticationMiddleware`` and ``MessageMiddleware`` hang objects on the
request that refer back to it (``request.user``'s lazy lookup and ``request.auser``
close over the request; the message storage keeps it). Such a request is not freed
when it ends: it waits for the cycle collector, with everything it refers to (its
environ, session, user and body). Under ``tests/bench/bench_api.py`` that was about a
hundred objects per request, which made the young collections 1.7 times as frequent and
filled the oldest generation, whose full collections stop a worker for 20-50 ms. The
two classes here do the same through a weak reference to the request, so (with
``games.views.ApiView``, which does it for DRF's links) an API request is freed by
reference counting as soon as the server drops it; ``tests/games/test_request_cycles.py``
holds every API endpoint to that. A request that uses the message storage still keeps
itself through it, as with Django's middleware: only pages do, never the API.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial
from typing import Any

from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.contrib.auth.middleware import auser, get_user
from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponseBase
from django.utils.functional import SimpleLazyObject, empty


def _through(function: Callable[[HttpRequest], Any], request: weakref.ref[HttpRequest]) -> Any:
    """``function(request())``: what a lazy attribute of a request computes, without the
    attribute holding the request (the attribute lives on the request, so it is never
    asked for after the request is gone)."""
    live = request()
    if live is None:  # pragma: no cover - only if a caller kept the attribute past its request
        raise RuntimeError("the request this was made for no longer exists")
    return function(live)


class AuthenticationMiddleware(DjangoAuthenticationMiddleware):
    """Django's: ``request.user`` (lazy) and ``request.auser``, through a weak reference
    to the request (see the module's docstring)."""

    def process_request(self, request: HttpRequest) -> None:
        if not hasattr(request, "session"):
            raise ImproperlyConfigured(
                "The authentication middleware requires the session middleware before it in MIDDLEWARE."
            )
        ref = weakref.ref(request)
        request.user = SimpleLazyObject(partial(_through, get_user, ref))  # type: ignore[assignment]
        request.auser = partial(_through, auser, ref)  # type: ignore[attr-defined]


class LazyMessageMiddleware(MessageMiddleware):
    """Django's ``MessageMiddleware``, with the message storage made the first time a
    request uses it (a view adding a message, a page showing them) instead of for every
    request: an API call, which never does, makes none and saves none. A request that
    used it is saved as Django saves it. Until then, the lazy storage refers to the
    request weakly (see the module's docstring)."""

    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(  # type: ignore[attr-defined]
            partial(_through, default_storage, weakref.ref(request))
        )

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response
        return super().process_response(request, response)
