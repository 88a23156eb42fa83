"""During a database outage the site answers 503 with Retry-After, as a page or as the
API's JSON error, never a 500, and says nothing of the database (issue 24)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError, connection
from django.test import Client

from league.models import Club

pytestmark = pytest.mark.django_db

# What psycopg says when the server is gone.
REFUSED = 'connection to server at "10.1.2.3", port 5432 failed: Connection refused'


@pytest.fixture
def club() -> Club:
    return Club.objects.create(name="Riverside", slug="riverside")


def during_outage(
    monkeypatch: pytest.MonkeyPatch, client: Client, method: str, url: str, **kwargs: Any
) -> Any:
    """``url`` answered while every query fails as a refused connection does."""

    def refused(*args: Any, **kwargs: Any) -> None:
        raise OperationalError(REFUSED)

    with monkeypatch.context() as patch:
        patch.setattr(connection, "cursor", refused)
        return getattr(client, method)(url, **kwargs)


@pytest.mark.parametrize("url", ["/", "/clubs/riverside/", "/tournaments/1/", "/games/1/"])
def test_pages_answer_503_with_a_page_of_their_own(
    club: Club, monkeypatch: pytest.MonkeyPatch, url: str
) -> None:
    client = Client(raise_request_exception=False)
    response = during_outage(monkeypatch, client, "get", url)
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    html = response.content.decode()
    assert "Unavailable for a moment" in html and "anything sent meanwhile was not recorded" in html
    assert "10.1.2.3" not in html and "5432" not in html


def test_a_signed_in_page_answers_503_too(club: Club, ann: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(ann)  # the session and the user are read from the database
    response = during_outage(monkeypatch, client, "get", "/")
    assert response.status_code == 503


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("get", "/api/v1/clubs", None),
        ("get", "/api/v1/games/1", None),
        ("post", "/api/v1/games", {"preset": "gin", "seats": [{"name": "A"}, {"name": "B"}]}),
    ],
)
def test_the_api_answers_503_in_its_error_format(
    club: Club, ann: Any, monkeypatch: pytest.MonkeyPatch, method: str, url: str, body: Any
) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(ann)
    kwargs = {"data": body, "content_type": "application/json"} if body is not None else {}
    response = during_outage(monkeypatch, client, method, url, **kwargs)
    assert response.status_code == 503
    assert response["Retry-After"] == "30"
    assert response.json() == {
        "code": "service_unavailable",
        "message": "the service is briefly unavailable; try again shortly",
        "detail": {},
    }


def test_an_error_that_is_no_outage_is_still_a_500(club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    from web.desk import pages as desk

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(desk, "render", broken)
    response = Client(raise_request_exception=False).get("/clubs/riverside/")
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()
