"""Registration at the door and the round clock in a real browser (issue 27 §3, §4):

1. a director registers two names one by one with "Check in now" (it stays ticked across
   the desk's htmx swap), then pastes a list, previews it (new, existing whatever the
   case, a duplicate line) and registers it at once; then a CSV file;
2. a round is published and the clock started from the desk: round control shows the
   clock and "0 of 2 tables done"; the scorekeeper's record page and the player's phone
   (390 px) show the time left and when the round ends; a drop-out asks first.

Every page is shot at 390 and 1280 px in var/screenshots/ (no sideways scrolling)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from league import services
from league.models import Club, Membership, Player, Registration
from tests.support.browser import policy_violations, shoot, sign_in

pytestmark = pytest.mark.browser

PASTED = "alice\nZOE LEFEVRE\nBo\nCy\nbo\n\nDi\nEd\n"


def test_a_director_registers_a_list_at_the_door(
    games_db: None, live_server: Any, page: Any, make_user: Any
) -> None:
    from playwright.sync_api import expect

    violations = policy_violations(page)
    club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
    director = make_user("dana")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    Player.objects.create(club=club, name="Alice")
    Player.objects.create(club=club, name="Zoé Lefèvre")
    tournament = services.create_tournament(
        club,
        {"name": "Club night", "table_size": {"min": 4, "max": 4}, "rounds": 3, "seed": "door"},
        director,
    )
    sign_in(page, live_server.url, director)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/desk")

    # one by one: "Check in now" stays ticked for the next name
    page.fill("#add-name", "Hal")
    page.check("#add-check-in")
    page.click("button:has-text('Register')")
    expect(page.locator("#messages")).to_contain_text("Hal registered and checked in.")
    expect(page.locator("#add-check-in")).to_be_checked()
    page.fill("#add-name", "Ivy")
    page.click("button:has-text('Register')")
    expect(page.locator("#messages")).to_contain_text("Ivy registered and checked in.")
    expect(page.locator("#add-check-in")).to_be_checked()

    # a pasted list: previewed, then registered at once
    page.click("#door-link")
    page.wait_for_url("**/desk/door")
    shoot(page, "desk-door")
    page.fill("#door-names", PASTED)
    page.click("button:has-text('Preview')")
    expect(page.locator("#door-preview")).to_contain_text("6 players will be registered")
    rows = page.locator("table.door-preview tbody tr")
    expect(rows).to_have_count(7)
    expect(page.locator("tr[data-verdict=existing]")).to_have_count(2)
    expect(page.locator("tr[data-verdict=duplicate]")).to_contain_text("the same name as line 3")
    shoot(page, "desk-door-preview")
    assert tournament.registrations.count() == 2  # the preview wrote nothing
    page.click("button:has-text('Register all 6 players')")
    page.wait_for_url("**/desk*")
    expect(page.locator("#messages")).to_contain_text(
        "6 players registered and checked in (4 new to the club)."
    )
    names = set(tournament.registrations.values_list("player__name", flat=True))
    assert names == {"Hal", "Ivy", "Alice", "Zoé Lefèvre", "Bo", "Cy", "Di", "Ed"}
    assert Player.objects.filter(club=club).count() == 8

    # a CSV file: the name column, the others said to be ignored
    page.click("#door-link")
    csv = b"Name,Email\nFlo,flo@x.org\nGus,\n"
    page.set_input_files("#door-file", files=[{"name": "players.csv", "mimeType": "text/csv", "buffer": csv}])
    page.click("button:has-text('Preview')")
    expect(page.locator("#ignored-columns")).to_contain_text("these were ignored: Email.")
    page.click("button:has-text('Register all 2 players')")
    expect(page.locator("#messages")).to_contain_text("2 players registered and checked in (2 new")
    assert tournament.registrations.filter(status=Registration.Status.CHECKED_IN).count() == 10
    assert violations == []


def test_the_clock_on_the_desk_the_record_page_and_the_players_phone(
    games_db: None, live_server: Any, page: Any, make_user: Any
) -> None:
    from playwright.sync_api import expect

    violations = policy_violations(page)
    club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
    director, keeper, ann = make_user("dana"), make_user("sam"), make_user("ann")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    Membership.objects.create(club=club, user=keeper, role=Membership.Role.SCOREKEEPER)
    tournament = services.create_tournament(
        club,
        {"name": "Club night", "table_size": {"min": 4, "max": 4}, "rounds": 3, "seed": "clock"},
        director,
    )
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
        services.set_registration_status(services.register(tournament, name=name), "checked_in")
    Player.objects.filter(name="Ann").update(user=ann)
    Membership.objects.create(club=club, user=ann, role=Membership.Role.PLAYER)
    services.publish_round(services.generate_round(tournament, director), director)

    sign_in(page, live_server.url, director)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/desk#rounds")
    expect(page.locator("#tables-done")).to_contain_text("0 of 2 tables done")
    page.click("button:has-text('Start the round clock (45 min)')")
    expect(page.locator("#messages")).to_contain_text("Round 1's clock started: 45 minutes")
    clock = page.locator("#round-progress .round-clock .clock-left")
    expect(clock).to_have_text(re.compile(r"^4[45]:\d\d$"))
    shoot(page, "desk-round-clock")

    # the drop-out asks first
    bo = tournament.registrations.get(player__name="Bo")
    page.click(f"#reg-{bo.pk} button:has-text('Drop out')")
    page.wait_for_url("**/drop?")  # a GET form: its address ends in "?"
    expect(page.locator("h1")).to_have_text("Drop Bo out?")
    shoot(page, "desk-drop")
    page.click("a:has-text('Cancel')")
    bo.refresh_from_db()
    assert bo.status == Registration.Status.CHECKED_IN

    # closing with rounds unplayed says which first
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/desk/close")
    expect(page.locator("#close-unplayed")).to_contain_text("Rounds 2, 3 will never be played.")
    shoot(page, "desk-close")

    # the scorekeeper's record page
    page.context.clear_cookies()
    sign_in(page, live_server.url, keeper)
    table = tournament.round_set.get(number=1).tables.order_by("number").first()
    page.goto(f"{live_server.url}/tables/{table.pk}/record")
    shown = page.locator(".rec-clock .clock-line")
    expect(shown).to_contain_text("left · round ends at", use_inner_text=True)
    shoot(page, "record-clock")

    # the player's phone
    page.context.clear_cookies()
    sign_in(page, live_server.url, ann)
    page.goto(f"{live_server.url}/mine/games")
    line = page.locator(".seat-lines .clock-line")
    expect(line).to_contain_text("left · round ends at", use_inner_text=True)
    shoot(page, "mine-games-clock")
    page.goto(f"{live_server.url}/")
    expect(page.locator(".seat-lines .clock-line")).to_contain_text("round ends at", use_inner_text=True)
    shoot(page, "home-seat-clock")
    assert violations == []
