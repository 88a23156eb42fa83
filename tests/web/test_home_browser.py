"""The home page and the API docs as a person sees them in a real browser."""

from __future__ import annotations

from typing import Any

import pytest

from league.models import Club, Player

pytestmark = pytest.mark.browser


# Live-server tests are transactional: their teardown empties tables with DELETE, which
# the append-only trigger refuses on SQLite for game events, so these tests write no
# games (the games listing is covered by tests/config/test_pages.py).
@pytest.mark.django_db(transaction=True)
def test_home_page_in_a_browser(live_server: Any, page: Any) -> None:
    club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
    Player.objects.create(club=club, name="Alice")
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Run your Knock Rummy club"
    assert "Riverside Knock Rummy Club" in page.locator("ul.clubs").inner_text()
    # The stylesheet is served and applied: the header is the felt green.
    background = page.eval_on_selector(".site-header", "el => getComputedStyle(el).backgroundColor")
    assert background == "rgb(31, 111, 74)"


@pytest.mark.django_db(transaction=True)
def test_status_link_shows_health_json(live_server: Any, page: Any) -> None:
    page.goto(live_server.url + "/")
    page.click("text=status")
    page.wait_for_url("**/healthz")
    assert '"status": "ok"' in page.content()


@pytest.mark.django_db(transaction=True)
def test_api_docs_render_offline(live_server: Any, page: Any) -> None:
    """Swagger UI is served from the project (drf-spectacular-sidecar), not a CDN."""
    page.goto(live_server.url + "/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Knock Rummy Club API" in page.locator(".swagger-ui .info .title").inner_text()
