"""Helpers of the browser tests: screenshots at a phone's and a desktop's width, with no
horizontal overflow, and signing a Playwright page in as a user."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.test import Client

SCREENSHOTS = Path(settings.BASE_DIR) / "var" / "screenshots"
WIDTHS = (390, 1280)


def no_horizontal_overflow(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def shot(page: Any, name: str) -> None:
    """A full-page screenshot var/screenshots/<name>.png at the page's current size."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


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
