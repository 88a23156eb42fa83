"""The page audits (redaction, accessibility, CSP) cover the URL configuration: every route
is rendered through a URL builder (tests/support/web_pages.py) or left out with a reason
(tests/support/web_routes.py), never both, never neither."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import resolve

from tests.support.web_games import live_table, seat_at_tournament
from tests.support.web_pages import BUILDERS, PAGES, Scene, render_page
from tests.support.web_routes import FORM_POST, LEFT_OUT, LEFT_OUT_PREFIXES, Route, left_out, site_routes


def test_every_route_is_audited_or_left_out_with_a_reason() -> None:
    routes = site_routes()
    neither = [route.route for route in routes if route.key not in BUILDERS and left_out(route) is None]
    assert not neither, (
        f"routes no page audit renders and none leaves out (tests/support/web_routes.py): {neither}"
    )
    both = [route.key for route in routes if route.key in BUILDERS and left_out(route) is not None]
    assert not both, f"audited and left out at once: {both}"
    keys = {route.key for route in routes}
    assert set(BUILDERS) <= keys, f"builders of no route: {set(BUILDERS) - keys}"
    assert set(LEFT_OUT) <= keys, f"left out, but no such route: {set(LEFT_OUT) - keys}"
    for prefix in LEFT_OUT_PREFIXES:
        assert any(route.route.startswith(prefix) for route in routes), prefix
    assert [key for key, _ in PAGES] == [route.key for route in routes if route.key in BUILDERS]


def test_the_check_fails_on_a_route_in_neither() -> None:
    assert left_out(Route("a-new-page", "clubs/<slug:slug>/new-page")) is None
    assert left_out(Route("admin:index", "admin/")) is not None
    publish = Route("desk-publish", "tournaments/<int:pk>/desk/rounds/<int:number>/publish")
    assert left_out(publish) == FORM_POST


@pytest.fixture
def scene(owner: Any, ann: Any, bob: Any, make_user: Any) -> Scene:
    table = live_table(owner, ann, bob, make_user("dina"), make_user("sam"))
    return Scene(table, seat_at_tournament(table))


@pytest.mark.django_db
def test_each_builder_renders_its_own_route(scene: Scene) -> None:
    """A builder's URLs are its route's: the name the audits show is the page they render."""
    client = Client()
    client.force_login(scene.t.users["director"])
    for key, urls in PAGES:
        for request in urls(scene):
            url = request if isinstance(request, str) else request[0]
            match = resolve(url.split("?")[0])
            name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name
            assert name == key, (key, url, name)
            render_page(client, request)  # what a builder sets up is usable (no error)
