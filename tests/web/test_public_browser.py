"""The public pages in a real browser (Playwright driving Debian's Chromium).

- Issue 20, browser test 2: the public standings page updates within 5 s after a result
  is recorded in another session (here: the scorekeeper's API client), without a reload.
- Browser test 4 for the public pages: screenshots at 390 px and 1280 px widths
  (var/screenshots/public-*.png), with no horizontal overflow.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from typing import Any
from urllib.request import Request, urlopen

import pytest
from rest_framework.authtoken.models import Token

from games.models import Game
from tests.support.browser import policy_violations, shot
from tests.support.celery import eager_tasks
from tests.support.public import Cup, autumn_cup

pytestmark = pytest.mark.browser


@pytest.fixture
def cup(games_db: None, owner: Any) -> Iterator[Cup]:
    # A live-server test commits for real: the outbox's refresh tasks run after each
    # commit, in this process (the live server's thread included).
    with eager_tasks():
        yield autumn_cup(owner)


def record_over_the_api(base: str, token: str, game_id: int, command: dict[str, Any]) -> None:
    version = Game.objects.get(pk=game_id).version
    body = json.dumps({"expected_version": version, "command": command}).encode()
    request = Request(
        f"{base}/api/v1/games/{game_id}/commands",
        data=body,
        method="POST",
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,
        },
    )
    with urlopen(request) as response:
        assert response.status in (200, 201)


def table_cell(page: Any, table: str, name: str) -> str:
    row = page.locator(f'[data-table="{table}"] tr', has_text=name)
    return str(row.locator("td").nth(1).inner_text())


def test_the_standings_update_within_5_s_of_a_result_without_a_reload(
    live_server: Any, page: Any, cup: Cup, owner: Any
) -> None:
    page.goto(f"{live_server.url}/tournaments/{cup.tournament.pk}/")
    standings = page.locator("table.standings tbody tr")
    assert standings.first.locator("td").nth(1).inner_text() == "Bo"
    assert table_cell(page, "2-1", "Cy") == "\u2013"  # no score yet (an en dash)
    page.evaluate("window.loadedOnce = 'yes'")  # gone if the page reloads
    polls: list[Any] = []
    page.on("response", lambda r: polls.append(r) if "/live/" in r.url else None)
    page.locator("table.standings a", has_text="Di").focus()
    page.wait_for_timeout(4500)  # two polls, nothing changed
    # Conditional requests: each poll sends the ETag of the part on the page; unchanged,
    # the server answers 304 and htmx leaves the part alone (the focus stays put).
    assert len(polls) >= 2
    etag = page.locator("#live").get_attribute("hx-headers")
    assert all(r.status == 304 for r in polls), [r.status for r in polls]
    assert all(json.dumps({"If-None-Match": r.request.headers["if-none-match"]}) == etag for r in polls)
    assert page.evaluate("document.activeElement.textContent") == "Di"

    # The scorekeeper records round 2's first hand from another session: Cy knocks with 2
    # against Ann's 25 and the bot's 12, and wins 33, which
    # finishes the game and puts him first.
    token = Token.objects.create(user=owner).key
    recorded = time.monotonic()
    record_over_the_api(
        live_server.url,
        token,
        cup.games["t3"],
        {"type": "RecordHandResult", "knocker": 1, "deadwood": {"0": 25, "1": 2, "2": 12}},
    )
    # a function, not an expression: Playwright evals an expression, which the CSP refuses
    page.wait_for_function(
        "() => document.querySelector('table.standings tbody tr td:nth-child(2)').innerText.trim() === 'Cy'",
        timeout=5000,
    )
    elapsed = time.monotonic() - recorded
    assert elapsed < 5
    assert standings.first.locator("td.points").inner_text() == "37"  # 4 in round 1, 33 now
    assert table_cell(page, "2-1", "Cy") == "33"
    assert page.evaluate("window.loadedOnce") == "yes"  # updated in place, not reloaded
    assert page.url == f"{live_server.url}/tournaments/{cup.tournament.pk}/"


def test_a_correction_of_an_earlier_round_shows_without_a_reload(
    live_server: Any, page: Any, cup: Cup, owner: Any
) -> None:
    """Round 1 is not in the live part but a cached fragment below it: when a correction
    of one of its hands changes the live part (the standings), the page asks for the
    earlier rounds again and shows the corrected scores in place."""
    page.goto(f"{live_server.url}/tournaments/{cup.tournament.pk}/")
    assert page.locator("#live [data-table='1-2']").count() == 0  # round 1: below the live part
    assert table_cell(page, "1-2", "Cy") == "4"
    page.evaluate("window.loadedOnce = 'yes'")
    token = Token.objects.create(user=owner).key
    game = cup.games["t2"]
    record_over_the_api(
        live_server.url, token, game, {"type": "Retract", "count": 3, "reason": "wrong seats"}
    )
    record_over_the_api(
        live_server.url,
        token,
        game,
        {"type": "RecordHandResult", "knocker": 1, "deadwood": {"0": 30, "1": 2}},
    )
    page.wait_for_function(
        "() => document.querySelector('#earlier-rounds [data-table=\"1-2\"]').innerText.includes('-28')",
        timeout=6000,
    )
    assert table_cell(page, "1-2", "Cy") == "-28"
    assert page.evaluate("window.loadedOnce") == "yes"  # updated in place, not reloaded


@pytest.mark.parametrize("width", [390, 1280])
def test_the_public_pages_fit_phones_and_desktops(
    live_server: Any, browser: Any, cup: Cup, width: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    violations = policy_violations(page)
    pages = {
        "home": "/",
        "tournament": f"/tournaments/{cup.tournament.pk}/",
        "tournament-as-of": f"/tournaments/{cup.tournament.pk}/?timeline=recorded&at={cup.before_correction}",
        "player": f"/players/{cup.ann.pk}/",
    }
    try:
        for name, path in pages.items():
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            shot(page, f"public-{name}-{width}")
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (name, width)
        # The player's rating chart is drawn, and scaled to the page.
        box = page.locator("svg.rating-chart").bounding_box()
        assert box is not None and 0 < box["width"] <= width
        assert not violations, "\n".join(violations)
    finally:
        context.close()
