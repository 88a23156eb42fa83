"""Browser tests of issue 27's people (Playwright, Debian's Chromium):

1. a director creates a scorekeeper login and a player login from the browser — the
   people page, an invitation each, shown to copy — and both sign up through their links
   and see their own header links;
2. a player checks in from their phone with the room's code, the director publishes round
   1 and assigns the scorekeeper a table; the player's phone (390 px) shows their table
   and seat; the scorekeeper opens the table from "My tables".

Every new page is shot at 390 and 1280 px in var/screenshots/ (no sideways scrolling at
either), and no page breaks the Content-Security-Policy (the ``page`` fixture)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from league import services
from league.models import Club, Membership, Player, Registration, Round, TableScorekeeper, Tournament
from league.tables import seats_now
from tests.support.browser import shoot, sign_in

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
PASSWORD = "desk-pass-123"


def _nav(page: Any) -> str:
    return str(page.locator("header nav").inner_text())


def _join(browser: Any, link: str, username: str) -> Any:
    """A new person's phone opens the link and makes their login: the page they land on."""
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.goto(link)
    phone.fill("#id_username", username)
    phone.fill("#id_password1", "a-new-pass-456")
    phone.fill("#id_password2", "a-new-pass-456")
    phone.click("text=Make my login and join")
    return phone


@pytest.mark.usefixtures("games_db")
def test_a_director_gives_a_scorekeeper_and_a_player_their_logins(
    live_server: Any, page: Any, browser: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
    dana = get_user_model().objects.create_user(username="dana", password=PASSWORD)
    Membership.objects.create(club=club, user=dana, role=Membership.Role.DIRECTOR)
    for name in ("Ann", "Bo"):
        Player.objects.create(club=club, name=name)
    page.set_viewport_size(DESKTOP)
    page.goto(live_server.url + "/login/?next=/clubs/riverside/")
    page.fill("#id_username", "dana")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.click("text=People: players, logins and roles")
    page.wait_for_url("**/clubs/riverside/people/")
    shoot(page, "people-page")

    # a scorekeeper: an invitation with no player record
    page.select_option("#invite-role", "scorekeeper")
    page.click("text=Make the invitation")
    expect(page.locator("h1")).to_contain_text("An invitation to be a scorekeeper")
    scorekeeper_link = page.locator("#invitation-link").input_value()
    assert re.fullmatch(rf"{re.escape(live_server.url)}/join/[0-9A-Z]{{12}}", scorekeeper_link)
    expect(page.locator("button.print-now")).to_be_visible()  # print.js shows it
    shoot(page, "people-invitation")

    # a player: added, and invited at once
    page.click("text=Back to the club's people")
    page.fill("#add-player-name", "Cleo")
    page.check("#add-player-invite")
    page.click("form:has(#add-player-name) button[type=submit]")
    expect(page.locator("h1")).to_contain_text("An invitation for Cleo, player")
    player_link = page.locator("#invitation-link").input_value()
    code = page.locator("#invitation-code").inner_text()

    # the scorekeeper's phone: the link, a username and password, and "My tables"
    sam = _join(browser, scorekeeper_link, "sam")
    sam.wait_for_url("**/mine/tables")
    expect(sam.locator("#messages")).to_contain_text("Welcome, sam: you are a scorekeeper of Riverside")
    assert "My tables" in _nav(sam) and "My games" not in _nav(sam)
    shoot(sam, "my-tables-empty")

    # the player's phone types the code instead of opening the link
    context = browser.new_context(viewport=PHONE)
    cleo = context.new_page()
    cleo.goto(live_server.url + "/login/")
    cleo.click("text=Have an invitation?")
    cleo.wait_for_url("**/join/")
    shoot(cleo, "join-code-form")
    cleo.fill("#join-code", code.lower())
    cleo.click("text=Continue")
    cleo.wait_for_url(player_link)
    expect(cleo.locator("h1")).to_have_text("Join Riverside Knock Rummy Club")
    expect(cleo.locator("#id_username")).to_have_value("cleo")
    shoot(cleo, "join")
    cleo.fill("#id_password1", "a-new-pass-456")
    cleo.fill("#id_password2", "a-new-pass-456")
    cleo.click("text=Make my login and join")
    cleo.wait_for_url("**/mine/games")
    record = Player.objects.get(name="Cleo")
    assert record.user is not None and record.user.username == "cleo"
    assert "My games" in _nav(cleo) and "My tables" not in _nav(cleo)
    expect(cleo.locator(f"header a.me[href='/players/{record.pk}/']")).to_have_text("cleo")
    shoot(cleo, "my-games-no-seat")

    # both sign in again later with what they chose
    for username in ("sam", "cleo"):
        fresh = browser.new_context(viewport=PHONE).new_page()
        fresh.goto(live_server.url + "/login/")
        fresh.fill("#id_username", username)
        fresh.fill("#id_password", "a-new-pass-456")
        fresh.click("button[type=submit]")
        expect(fresh.locator("header nav")).to_contain_text("My tables" if username == "sam" else "My games")

    # the director's page now lists both logins, and the invitations as used
    page.goto(live_server.url + "/clubs/riverside/people/")
    expect(page.locator("#logins")).to_contain_text("sam")
    expect(page.locator("#logins")).to_contain_text("cleo")
    expect(page.locator("#invitations")).to_contain_text("No invitation is open.")
    shoot(page, "people-page-after")


@pytest.mark.usefixtures("games_db")
def test_a_player_finds_their_seat_and_the_scorekeeper_their_table(
    live_server: Any, page: Any, browser: Any, settings: Any
) -> None:
    from playwright.sync_api import expect

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = get_user_model().objects
    club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
    dana, sam, ann = (users.create_user(username=n, password=PASSWORD) for n in ("dana", "sam", "ann"))
    Membership.objects.create(club=club, user=dana, role=Membership.Role.DIRECTOR)
    Membership.objects.create(club=club, user=sam, role=Membership.Role.SCOREKEEPER)
    tournament = services.create_tournament(
        club,
        {"name": "Thursday Club Night", "table_size": {"min": 3, "max": 4}, "rounds": 3, "seed": "thu"},
        dana,
    )
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"):
        services.register(tournament, name=name)
    Player.objects.filter(name="Ann").update(user=ann)
    Membership.objects.create(club=club, user=ann, role=Membership.Role.PLAYER)
    desk = f"{live_server.url}/tournaments/{tournament.pk}/desk"

    # the director opens self check-in on the desk
    sign_in(page, live_server.url, dana)
    page.set_viewport_size(DESKTOP)
    page.goto(desk)
    page.click("text=Let players check themselves in")
    expect(page.locator("#messages")).to_contain_text("Self check-in is open")
    code = page.locator("#check-in-code").inner_text()
    shoot(page, "desk-self-check-in")
    page.click("text=Show it full screen")
    expect(page.locator("#check-in-code")).to_have_text(code)
    shoot(page, "check-in-code")

    # Ann checks in from her phone: the QR code's address carries the code
    phone = browser.new_context(viewport=PHONE).new_page()
    sign_in(phone, live_server.url, ann)
    phone.goto(f"{live_server.url}/tournaments/{tournament.pk}/check-in?code={code}")
    expect(phone.locator("#check-in-code")).to_have_value(code)
    shoot(phone, "check-in")
    phone.click("text=Check me in")
    phone.wait_for_url("**/mine/games")
    expect(phone.locator("#messages")).to_contain_text("Ann, you are checked in")
    assert Registration.objects.get(player__name="Ann").status == "checked_in"

    # the director checks in the others, generates round 1 and publishes it
    page.goto(desk)
    page.click("text=Check in all 6 registered")
    page.click("text=Generate round 1")
    expect(page.locator("#messages")).to_contain_text("Round 1 generated")
    page.click("text=Publish round 1")
    expect(page.locator("#messages")).to_contain_text("Round 1 published")
    round_ = Round.objects.get(tournament=tournament, number=1)
    [seat] = seats_now(Player.objects.get(name="Ann").pk)
    assert seat.table is not None

    # ... and gives Ann's table to the scorekeeper
    card = page.locator(f"#live-round [data-table='{seat.table}']")
    card.locator("select[name=user]").select_option(label="sam")
    card.locator("button:has-text('Assign')").click()
    expect(page.locator("#messages")).to_contain_text(f"Table {seat.table}: sam keeps the score.")
    assigned = TableScorekeeper.objects.get()
    assert (assigned.table.number, assigned.user) == (seat.table, sam)
    shoot(page, "desk-round-control-scorekeepers")

    # Ann's phone, 390 px wide: her table and seat, on the home page and her own pages
    phone.goto(live_server.url + "/")
    dealer = f"{seat.dealer} deals first" if seat.dealer else "you deal first"
    line = f"Round 1: table {seat.table}, seat {seat.seat}, {dealer}"
    expect(phone.locator(".my-seats")).to_contain_text(line)
    assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(phone, "home-seat")
    phone.click("header >> text=My games")
    expect(phone.locator(".my-seats")).to_contain_text(line)
    shoot(phone, "my-games")
    phone.click("header a.me")
    expect(phone.locator(".my-seats")).to_contain_text(line)
    shoot(phone, "player-page-seat")

    # the public page lists the round by player, alphabetically
    public = browser.new_context(viewport=DESKTOP).new_page()
    public.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    names = public.locator(".by-player-list li a").all_inner_texts()
    assert names == ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
    shoot(public, "public-by-player")

    # the scorekeeper opens the table from "My tables": it is first, marked as theirs
    keeper = browser.new_context(viewport=PHONE).new_page()
    sign_in(keeper, live_server.url, sam)
    keeper.goto(live_server.url + "/")
    keeper.click("header >> text=My tables")
    keeper.wait_for_url("**/mine/tables")
    first = keeper.locator("li.my-table").first
    expect(first).to_contain_text(f"Table {seat.table}")
    expect(first).to_contain_text("yours")
    expect(keeper.locator("li.my-table")).to_have_count(round_.tables.count())
    shoot(keeper, "my-tables")
    first.locator("a.button").click()
    keeper.wait_for_url(f"**/tables/{assigned.table.pk}/record")
    expect(keeper.locator("h1")).to_contain_text(f"Table {seat.table}")
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
