"""The site in French in a real browser (issue 28 §4): the desk, the scorekeeper's page
and the public page on a 390 px phone whose browser asks for French, screenshots in
var/screenshots/fr-*.png — French runs about a fifth longer than English, and no page
may grow wider than the screen for it. Then the footer's switch, by keyboard."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import no_horizontal_overflow, policy_violations, shot, sign_in
from tests.support.record import Night, club_night, record

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def french_phone(browser: Any) -> Iterator[Any]:
    # locale: the browser's Accept-Language (fr-FR), as a French phone sends it
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, locale="fr-FR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    violations = policy_violations(page)
    yield page
    context.close()
    assert not violations, "\n".join(violations)


@pytest.fixture
def night(games_db: None, make_user: Any) -> Night:
    night = club_night(make_user)
    # a hand under way: the record page shows the table, the piles and the moves
    record(night, {"type": "DealHand", "upcard": "7H"})
    record(night, {"type": "DrawFromStock", "seat": 1})
    record(night, {"type": "Discard", "seat": 1, "card": "KS"})
    return night


def look(page: Any, url: str, name: str, *french: str) -> None:
    page.goto(url)
    assert page.locator("html").get_attribute("lang") == "fr"
    text = page.locator("body").inner_text()
    for words in french:
        assert words in text, (name, words)
    assert no_horizontal_overflow(page), f"{name} is wider than 390 px in French"
    shot(page, f"fr-{name}-390")


def test_the_desk_the_record_page_and_the_public_page_in_french_fit_a_phone(
    live_server: Any, french_phone: Any, night: Night
) -> None:
    base = live_server.url
    look(
        french_phone, f"{base}/tournaments/{night.tournament.pk}/", "public", "Classement", "Rondes et tables"
    )
    sign_in(french_phone, base, night.director)
    look(
        french_phone,
        f"{base}/tournaments/{night.tournament.pk}/desk",
        "desk",
        "Rondes",
        "Bureau des inscriptions",
    )
    look(french_phone, f"{base}{night.url}", "record", "Pioche", "Défausse")


def test_the_footer_switch_turns_the_site_french_and_back(live_server: Any, page: Any, night: Night) -> None:
    page.goto(f"{live_server.url}/tournaments/{night.tournament.pk}/")
    assert page.locator("html").get_attribute("lang") == "en"
    page.select_option("#language-choice", "fr")
    page.locator(".language-switch button").press("Enter")
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.url.endswith(f"/tournaments/{night.tournament.pk}/")  # the same page, in French
    assert "Rondes et tables" in page.locator("main").inner_text()
    page.goto(f"{live_server.url}/")  # remembered from page to page
    assert "Tournois en cours" in page.locator("main").inner_text()
    page.select_option("#language-choice", "en")
    page.locator(".language-switch button").click()
    page.wait_for_load_state()
    assert "Running tournaments" in page.locator("main").inner_text()
