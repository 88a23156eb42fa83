"""Helpers of the browser tests: screenshots at a phone's and a desktop's width, with no
horizontal overflow, signing a Playwright page in as a user, and the policy violations
the browser reports."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import Client

from tests.support.ci import IN_CI

SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"
WIDTHS = (390, 1280)
TAKEN = not IN_CI or os.environ.get("SCREENSHOTS") == "1"


def no_horizontal_overflow(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def shot(page: Any, name: str) -> None:
    """A full-page screenshot var/screenshots/<name>.png at the page's current size, for
    people to look at: taken wherever the suite runs but in CI, whose files nobody opens
    (``SCREENSHOTS=1`` takes them there too). Encoding a tall page as PNG costs the
    browser a tenth of a second or more; no assertion depends on the file."""
    if not TAKEN:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    # caret="initial": hiding the caret (the default) injects a <style> into the page, which
    # the Content-Security-Policy refuses, and policy_violations would report it.
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, caret="initial")


def shoot(page: Any, name: str) -> None:
    """Screenshots var/screenshots/<name>-<width>.png; the page scrolls sideways at neither."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(100)
        assert no_horizontal_overflow(page), f"{name} overflows at {width} px"
        shot(page, f"{name}-{width}")


def sign_in(page: Any, base_url: str, user: Any) -> None:
    """Give the page the session cookie of ``user``, signed in by the test client."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base_url}])


def policy_violations(page: Any) -> list[str]:
    """A list that fills with every Content-Security-Policy violation the browser reports
    on ``page`` (config/csp.py allows nothing inline): the test asserts it stays empty."""
    violations: list[str] = []

    def on_console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            violations.append(f"{page.url}: {message.text}")

    page.on("console", on_console)
    return violations
