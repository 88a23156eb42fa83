"""Paper and the big screen in a real browser (Playwright driving Debian's Chromium).

- Every print page printed to PDF (``page.pdf()``, the page's own CSS page sizes), each
  PDF page turned into a PNG with ``pdftoppm`` (var/screenshots/print-*.png): a round of
  64 players' standings fits one A4 page, four slips fit an A4 sheet, each table's score
  sheet is one page, and the public tournament page prints without its navigation.
- The projector view at 1920x1080 with 64 players: every screen fits the viewport with
  no scrollbar, and no text is smaller than 28 px (var/screenshots/projector-*.png).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from league import clock
from league.models import Club, Membership, Tournament
from tests.support.browser import SCREENSHOTS, policy_violations, sign_in
from tests.support.celery import eager_tasks
from tests.support.tournaments import add_round, make_tournament, open_game, players, record_hand

pytestmark = pytest.mark.browser

# A club night of 64: 16 tables of four, every game one hand, scored.
COUNT = 64
FIRST = ["Ann", "Bo", "Cy", "Di", "Élodie", "Flo", "Gus", "Hal"]
LAST = ["Abbott", "Bernard", "Chevalier", "Dubois", "Étienne-Laurent", "Fournier", "Girard", "Hoffmann"]


@pytest.fixture
def night(games_db: None, owner: Any) -> Iterator[Tournament]:
    with eager_tasks():
        club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
        Membership.objects.create(club=club, user=owner, role=Membership.Role.DIRECTOR)
        tournament = make_tournament(club, name="Grenoble club night", preset="knock-rami", round_minutes=50)
        names = [f"{first} {last}" for last in LAST for first in FIRST][:COUNT]
        people = players(club, *names)
        round1 = add_round(tournament, 1, [people[i : i + 4] for i in range(0, COUNT, 4)])
        for n, table in enumerate(round1.tables.order_by("number")):
            # a 3-way or 2-way share now and then: decimals in the standings
            record_hand(open_game(table, owner), owner, n % 4, [9, 2, 2, 2] if n % 3 else [12, 3, 3, 30])
        round1.status = "complete"
        round1.save(update_fields=["status"])
        shuffled = people[1::2] + people[0::2]
        round2 = add_round(tournament, 2, [shuffled[i : i + 4] for i in range(0, COUNT, 4)])
        clock.start_round_clock(round2, owner)
        yield tournament


def pdf_pages(page: Any, url: str, name: str) -> list[Path]:
    """``url`` printed to var/screenshots/<name>.pdf, its pages as <name>-<n>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    pdf = SCREENSHOTS / f"{name}.pdf"
    page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    for old in SCREENSHOTS.glob(f"{name}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-png", "-r", "50", str(pdf), str(SCREENSHOTS / name)], check=True)
    return sorted(SCREENSHOTS.glob(f"{name}-*.png"))


def pdf_size_mm(path: Path) -> tuple[int, int]:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    match = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
    assert match, info
    return round(float(match.group(1)) * 25.4 / 72), round(float(match.group(2)) * 25.4 / 72)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_print_page_prints_as_it_should(
    live_server: Any, page: Any, night: Tournament, owner: Any, language: str
) -> None:
    sign_in(page, live_server.url, owner)
    # French (the footer's choice, kept in its cookie) runs longer: the sheets still fit
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    p = "" if language == "en" else f"{language}-"
    base = f"{live_server.url}/tournaments/{night.pk}"
    assert len(pdf_pages(page, f"{base}/print/standings", f"{p}print-standings")) == 1  # 64 players, one A4
    assert pdf_size_mm(SCREENSHOTS / f"{p}print-standings.pdf") == (210, 297)
    assert page.locator("html").get_attribute("lang") == language
    assert page.locator("table.standings-sheet tbody tr").count() == COUNT
    by_table = pdf_pages(page, f"{base}/print/pairings?round=2", f"{p}print-pairings-by-table")
    assert len(by_table) == 1  # 16 tables of four in three columns
    by_player = pdf_pages(page, f"{base}/print/pairings?round=2&by=player", f"{p}print-pairings-by-player")
    assert len(by_player) == 1
    # 16 tables: four A4 sheets of four slips, or sixteen A6 cards
    assert len(pdf_pages(page, f"{base}/print/slips?round=2", f"{p}print-slips-a4")) == 4
    assert pdf_size_mm(SCREENSHOTS / f"{p}print-slips-a4.pdf") == (210, 297)
    assert len(pdf_pages(page, f"{base}/print/slips?round=2&layout=a6", f"{p}print-slips-a6")) == 16
    assert pdf_size_mm(SCREENSHOTS / f"{p}print-slips-a6.pdf") == (105, 148)
    # the QR code on a slip is drawn, square and large enough to scan from the table
    qr = page.locator("svg.qr").first.bounding_box()
    assert qr is not None and abs(qr["width"] - qr["height"]) < 1 and qr["width"] > 120
    assert len(pdf_pages(page, f"{base}/print/score-sheets?round=2", f"{p}print-score-sheets")) == 16
    # the public page printed: its content, no navigation, no buttons, no form
    pdf_pages(page, f"{base}/", f"{p}print-public-tournament")
    page.emulate_media(media="print")
    for hidden in (".site-header nav", "form", ".paper-links", ".site-footer"):
        assert not page.locator(hidden).first.is_visible(), hidden
    page.emulate_media(media="screen")


# French runs about a fifth longer than English: the screens must fit in both.
@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_projector_fits_1920x1080_at_64_players(
    live_server: Any, browser: Any, night: Tournament, locale: str
) -> None:
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale=locale)
    prefix = "" if locale.startswith("en") else f"{locale[:2]}-"
    page = context.new_page()
    violations = policy_violations(page)
    try:
        page.goto(f"{live_server.url}/tournaments/{night.pk}/projector")
        page.wait_for_load_state("networkidle")
        keys = page.eval_on_selector_all("section.screen", "list => list.map(s => s.dataset.screen)")
        assert keys == [
            "tables-1",
            "tables-2",
            "clock-1",
            "standings-1",
            "standings-2",
            "standings-3",
            "standings-4",
        ]
        for key in keys:
            # show one screen as the cycle would (its script turns them every few seconds)
            page.eval_on_selector_all(
                "section.screen",
                "(list, key) => list.forEach(s => { s.hidden = s.dataset.screen !== key; })",
                key,
            )
            fits = page.evaluate(
                """() => {
                  const root = document.documentElement;
                  const screen = [...document.querySelectorAll('section.screen')].find(s => !s.hidden);
                  const clipped = [...screen.querySelectorAll('td, th, h1, p')].filter(e => {
                    const box = e.getBoundingClientRect();
                    return box.bottom > window.innerHeight || box.right > window.innerWidth;
                  }).length;
                  return {
                    scroll: root.scrollWidth <= window.innerWidth && root.scrollHeight <= window.innerHeight,
                    inside: screen.scrollHeight <= screen.clientHeight
                      && screen.scrollWidth <= screen.clientWidth,
                    clipped: clipped,
                  };
                }"""
            )
            assert fits == {"scroll": True, "inside": True, "clipped": 0}, (key, fits)
            smallest = page.evaluate(
                """() => {
                  const screen = [...document.querySelectorAll('section.screen')].find(s => !s.hidden);
                  const sizes = [...screen.querySelectorAll('*')]
                    .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
                    .filter(e => e.getClientRects().length)
                    .map(e => parseFloat(getComputedStyle(e).fontSize));
                  return Math.min(...sizes);
                }"""
            )
            assert smallest >= 28, (key, smallest)
            page.screenshot(path=str(SCREENSHOTS / f"{prefix}projector-{key}.png"), caret="initial")
        # the clock counts down on its own, from what the server said was left
        before = page.locator("section.screen-clock .clock-left").inner_text()
        page.wait_for_timeout(2200)
        assert page.locator("section.screen-clock .clock-left").inner_text() != before
        # and the screens turn by themselves, after the first screen's seconds: the page's
        # timers run on Playwright's clock, moved on by those seconds instead of waiting them
        page.clock.install()
        page.reload()
        page.wait_for_load_state("networkidle")
        first = page.locator("section.screen").first
        assert first.is_visible()
        seconds = int(first.get_attribute("data-seconds") or "0")
        assert seconds > 0
        page.clock.run_for(seconds * 1000 + 500)
        page.wait_for_function(
            "() => document.querySelector('section.screen').hidden === true", timeout=5_000
        )
        assert not violations, "\n".join(violations)
    finally:
        context.close()
