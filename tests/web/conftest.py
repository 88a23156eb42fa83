"""Real-browser tests: Playwright driving Debian's Chromium against the live test server.

The browser is the system's (/usr/bin/chromium, or $CHROMIUM_PATH); the test command
installs it with apt where it can. With CI=true a missing browser fails the run.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import policy_violations
from tests.support.ci import IN_CI

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the
# test itself (not by the browser) are still synchronous and safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def chromium_path() -> str | None:
    candidate = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    return candidate if os.path.exists(candidate) else None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        if IN_CI:
            pytest.fail("CI=true but Chromium is not installed (apt-get install chromium)")
        pytest.skip("Chromium is not installed; scripts/test.sh installs it where apt-get is available")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True, args=CHROMIUM_FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A page in a fresh context; any Content-Security-Policy violation the browser
    reports while the test runs fails it (config/csp.py: nothing inline is allowed)."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    violations = policy_violations(page)
    yield page
    context.close()
    assert not violations, "\n".join(violations)
