"""config.negotiation.FastContentNegotiation picks what DRF's negotiation picks."""

from __future__ import annotations

import pytest
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from config.negotiation import FastContentNegotiation
from config.renderers import FastJSONRenderer

CASES = [
    (None, ""),
    ("*/*", ""),
    ("application/json", ""),
    ("application/json; indent=2", ""),
    ("text/html", ""),
    ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", ""),
    ("application/*", ""),
    (None, "format=api"),
    (None, "format=json"),
    ("*/*", "seat=1"),
]


def negotiate(negotiation: DefaultContentNegotiation, accept: str | None, query: str) -> tuple[type, str]:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get(f"/api/v1/games/1?{query}", **headers))
    renderer, media_type = negotiation.select_renderer(request, [FastJSONRenderer(), BrowsableAPIRenderer()])
    return type(renderer), media_type


@pytest.mark.parametrize(("accept", "query"), CASES)
def test_same_choice_as_drf(accept: str | None, query: str) -> None:
    assert negotiate(FastContentNegotiation(), accept, query) == negotiate(
        DefaultContentNegotiation(), accept, query
    )


def test_the_usual_request_gets_json() -> None:
    assert negotiate(FastContentNegotiation(), None, "") == (FastJSONRenderer, "application/json")


def test_an_unservable_accept_is_refused_as_drf_refuses_it() -> None:
    with pytest.raises(NotAcceptable):
        negotiate(FastContentNegotiation(), "image/png", "")
