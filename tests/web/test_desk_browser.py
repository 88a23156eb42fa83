"""Browser test 1 of Web I: a director signs in, creates a tournament of 10 players at
tables of 3-4, registers and checks them in, and generates round 1. The desk must show
4+3+3. The director swaps two players, then publishes.

Every page on the way is also looked at 390 px wide: nothing may overflow sideways.
Screenshots go to var/screenshots/ (the docs use copies of them)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from league.models import Club, Membership, Registration, Round, Tournament
from tests.support.browser import shot

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"]
DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}


def narrow(page: Any, name: str) -> None:
    """The page at 390 px: no horizontal overflow; a screenshot of it."""
    page.set_viewport_size(PHONE)
    try:
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
        shot(page, f"{name}-390")
    finally:
        page.set_viewport_size(DESKTOP)


def test_a_director_runs_round_one_from_the_desk(
    games_db: None, live_server: Any, page: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
    director = get_user_model().objects.create_user(username="dana", password="desk-pass-123")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    page.set_viewport_size(DESKTOP)

    # sign in
    page.goto(live_server.url + "/login/?next=/clubs/riverside/")
    page.fill("#id_username", "dana")
    page.fill("#id_password", "desk-pass-123")
    page.click("button[type=submit]")
    page.wait_for_url("**/clubs/riverside/")
    narrow(page, "desk-club")

    # the tournament form: the preset's options are swapped in by htmx when it changes
    page.click("text=New tournament")
    page.wait_for_url("**/tournaments/new")
    page.click("summary")
    page.select_option("#id_preset", "gin-rummy")
    expect(page.locator("#id_opt_knock_max_deadwood")).to_have_value("10")
    page.select_option("#id_preset", "knock-rummy")
    expect(page.locator("#id_opt_knock_max_deadwood")).to_have_value("")
    page.fill("#id_name", "Autumn Cup")
    page.fill("#id_table_min", "3")
    page.fill("#id_table_max", "4")
    page.fill("#id_rounds", "3")
    shot(page, "desk-tournament-form")
    narrow(page, "desk-tournament-form")
    page.click("text=Create tournament")
    page.wait_for_url("**/desk")
    tournament = Tournament.objects.get()
    assert (tournament.name, tournament.table_min, tournament.table_max, tournament.rounds) == (
        "Autumn Cup",
        3,
        4,
        3,
    )
    expect(page.locator("#why-no-round")).to_contain_text("Only 0 players are checked in")

    # the registration desk: add ten players by name, then check each in
    for name in NAMES:
        page.fill("#add-name", name)
        page.click("form.add-player button[type=submit]")
        expect(page.locator("#messages")).to_contain_text(f"{name} registered.")
    assert Registration.objects.filter(tournament=tournament).count() == 10
    for name in NAMES:
        page.click(f"button[aria-label='Check in: {name}']")
        expect(page.locator(f"button[aria-label='Undo check-in: {name}']")).to_be_visible()
    assert set(Registration.objects.values_list("status", flat=True)) == {"checked_in"}
    expect(page.locator("#registrations")).to_contain_text("10 checked in")
    shot(page, "desk-registrations")
    narrow(page, "desk-registrations")

    # round 1: three tables of 4+3+3
    page.click("text=Generate round 1")
    expect(page.locator("#table-sizes")).to_have_text("4+3+3")
    expect(page.locator("#messages")).to_contain_text("tables of 4+3+3")
    round_ = Round.objects.get()
    assert sorted(t.seats.count() for t in round_.tables.all()) == [3, 3, 4]
    shot(page, "desk-round-draft")
    narrow(page, "desk-round-draft")

    # swap two players in two clicks: one on table 1, one on table 2
    first = page.locator("[data-table='1'] a.seat").first
    a_name = first.inner_text()
    first.click()
    expect(page.locator(".pick-help")).to_contain_text(a_name)
    target = page.locator("[data-table='2'] button.seat").first
    b_name = target.inner_text().replace("⇄", "").strip()
    shot(page, "desk-round-swap")
    target.click()
    expect(page.locator("#messages")).to_contain_text(f"swapped {a_name} and {b_name}")
    expect(page.locator("[data-table='1']")).to_contain_text(b_name)
    expect(page.locator("[data-table='2']")).to_contain_text(a_name)
    table_1 = round_.tables.get(number=1)
    assert table_1.seats.filter(player__name=b_name).exists()

    # publish, saying why the tables differ from the generated seating
    page.fill("#edit-reason", f"{a_name} and {b_name} asked to swap tables")
    page.click("text=Publish round 1")
    expect(page.locator("#messages")).to_contain_text("Round 1 published: 3 tables can start playing.")
    expect(page.locator("#live-round .table-card")).to_have_count(3)
    round_.refresh_from_db()
    assert round_.status == "published" and round_.published_by == director
    assert Game.objects.count() == 3
    assert page.url.endswith(f"/tournaments/{tournament.pk}/desk")
    shot(page, "desk-round-control")
    narrow(page, "desk-round-control")

    # a table's corrections page
    page.locator("#live-round [data-table='1'] >> text=Corrections").click()
    page.wait_for_url("**/desk/tables/*")
    expect(page.locator("h1")).to_contain_text("Table 1")
    narrow(page, "desk-table")

    # a correction, confirmed on its own page, then listed with who made it
    page.fill("#adjust-points", "-5")
    page.fill("#adjust-reason", "arrived ten minutes late")
    page.click("text=Adjust the score…")
    expect(page.locator("h1")).to_have_text("Confirm the correction")
    shot(page, "desk-correction-confirm")
    page.click("button:has-text('Confirm')")
    expect(page.locator("#messages")).to_contain_text("done by dana")
    expect(page.locator("#corrections")).to_contain_text("dana adjusted a score")
    expect(page.locator("#corrections")).to_contain_text("arrived ten minutes late")
    shot(page, "desk-table")
