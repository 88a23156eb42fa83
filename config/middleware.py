"""Middleware of the project's own."""

from __future__ import annotations

from typing import Any

from django.contrib.messages.middleware import MessageMiddleware
from django.contrib.messages.storage import default_storage
from django.http import HttpRequest, HttpResponseBase
from django.utils.functional import SimpleLazyObject, empty


class LazyMessageMiddleware(MessageMiddleware):
    """Django's ``MessageMiddleware``, with the message storage made the first time a
    request uses it (a view adding a message, a page showing them) instead of for every
    request: an API call, which never does, makes none and saves none. A request that
    used it is saved as Django saves it."""

    def process_request(self, request: HttpRequest) -> None:
        request._messages = SimpleLazyObject(lambda: default_storage(request))  # type: ignore[attr-defined]

    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> Any:
        messages = getattr(request, "_messages", None)
        if isinstance(messages, SimpleLazyObject) and messages._wrapped is empty:
            return response
        return super().process_response(request, response)
