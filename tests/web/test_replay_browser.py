"""The replay viewer in a real browser: stepping forwards and backwards through a
finished game with the keyboard, and its looks at a phone's and a desktop's width."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser import shoot
from tests.support.web_games import finished_game

pytestmark = pytest.mark.browser


def step_shown(page: Any) -> str:
    return str(page.locator("#step-count").inner_text())


def test_the_replay_viewer_steps_with_the_keyboard(
    games_db: None, live_server: Any, page: Any, owner: Any, ann: Any
) -> None:
    game = finished_game(owner, ann, hands=2)
    last = game.version
    page.goto(f"{live_server.url}/games/{game.pk}/?step=1")
    assert step_shown(page) == f"Step 1 of {last}"
    assert "The game started" in page.locator("#move-text").inner_text()
    for expected in (2, 3, 4):
        page.keyboard.press("ArrowRight")
        page.wait_for_url(f"**/?step={expected}")
        assert step_shown(page) == f"Step {expected} of {last}"
    page.keyboard.press("ArrowLeft")
    page.wait_for_url("**/?step=3")
    assert step_shown(page) == f"Step 3 of {last}"
    page.keyboard.press("End")
    page.wait_for_url(f"**/?step={last}")
    assert "The game is over" in page.locator("#move-text").inner_text()
    assert "How it was settled" in page.locator(".showdown").inner_text()
    page.keyboard.press("ArrowRight")  # at the end: nowhere further to go
    page.wait_for_timeout(300)
    assert step_shown(page) == f"Step {last} of {last}"
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(f"**/?step={last - 1}")
    # Jump to a hand from the keyboard: Tab to the list, choose hand 2, Enter on Go.
    page.focus("#jump-hand")
    page.keyboard.press("ArrowDown")
    page.select_option("#jump-hand", "2")
    page.focus("form.jump button")
    page.keyboard.press("Enter")
    page.wait_for_url("**/?hand=2")
    assert page.locator("#move-text").inner_text().split(". ", 1)[1].startswith("Hand 2:")
    page.keyboard.press("Home")
    page.wait_for_url("**/?step=1")
    page.goto(f"{live_server.url}/games/{game.pk}/?step={last}")
    shoot(page, "replay-finished")
