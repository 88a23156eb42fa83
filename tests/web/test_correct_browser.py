"""Issue 27, browser test 3: a director corrects hand 1 of a finished three-hand game
from the desk, in a real browser (Playwright driving Debian's Chromium), and the public
standings change, with the correction explained in the public corrections list.

Every page on the way is looked at 390 px and 1280 px wide (no sideways scrolling);
screenshots go to var/screenshots/correct-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.models import Game, GameEvent
from league import services
from league.models import Club, Membership, Registration, Table
from tests.support.browser import policy_violations, shoot, sign_in
from tests.support.celery import eager_tasks
from tests.support.games import play

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
# Three hands from announced counts (knocker, counts by player): Ann 26, Cy -5, Bo -21.
HANDS = [("Ann", {"Ann": 5, "Bo": 10, "Cy": 20}), ("Cy", {"Ann": 8, "Bo": 12, "Cy": 3}),
         ("Ann", {"Ann": 2, "Bo": 9, "Cy": 6})]  # fmt: skip


@pytest.fixture
def finished(games_db: None) -> Iterator[tuple[Any, Table]]:
    """A director, and round 1 of a physical cup of three published, its one table's game
    of three hands recorded to its end. A live-server test commits for real: the
    outbox's refresh tasks run after each commit, in this process."""
    with eager_tasks():
        club = Club.objects.create(name="Riverside Knock Rummy Club", slug="riverside")
        dana = get_user_model().objects.create_user(username="dana", password="desk-pass-123")
        Membership.objects.create(club=club, user=dana, role=Membership.Role.DIRECTOR)
        data = {"name": "Autumn Cup", "preset": "knock-rummy", "options": {"hands": 3}, "mode": "physical",
                "table_size": {"min": 3, "max": 3}, "seating": "balanced", "rounds": 2}  # fmt: skip
        tournament = services.create_tournament(club, data, dana)
        for name in ("Ann", "Bo", "Cy"):
            registration = services.register(tournament, name=name)
            services.set_registration_status(registration, Registration.Status.CHECKED_IN)
        round_ = services.generate_round(tournament, dana)
        services.publish_round(round_, dana)
        table = round_.tables.get()
        assert table.game_id is not None
        names = [seat["name"] for seat in Game.objects.get(pk=table.game_id).seats]
        for knocker, counts in HANDS:
            command = {"type": "RecordHandResult", "knocker": names.index(knocker),
                       "deadwood": {str(seat): counts[name] for seat, name in enumerate(names)}}  # fmt: skip
            play(table.game_id, dana, command)
        yield dana, table


def standings(page: Any) -> list[str]:
    return [
        str(row.locator("td").nth(1).inner_text()).strip()
        for row in page.locator("table.standings tbody tr").all()
    ]


def test_a_director_corrects_hand_one_and_the_public_standings_follow(
    live_server: Any, page: Any, finished: tuple[Any, Table]
) -> None:
    from playwright.sync_api import expect

    dana, table = finished
    tournament_id = table.round.tournament_id
    violations = policy_violations(page)
    page.set_viewport_size(DESKTOP)
    public = f"{live_server.url}/tournaments/{tournament_id}/"
    page.goto(public)
    assert standings(page) == ["Ann", "Cy", "Bo"]
    expect(page.locator("#corrections-title + p")).to_have_text("No correction has changed the standings.")

    sign_in(page, live_server.url, dana)
    page.goto(f"{live_server.url}/tournaments/{tournament_id}/desk/tables/{table.pk}")
    expect(page.locator("#over-note")).to_contain_text("a hand corrected")
    expect(page.locator("table.hands tbody tr")).to_have_count(3)
    shoot(page, "correct-desk-table")
    page.set_viewport_size(DESKTOP)
    page.click("a[aria-label='Correct hand 1']")
    page.wait_for_url(f"**/desk/tables/{table.pk}/hands/1")
    expect(page.locator("#recorded-result")).to_contain_text("Ann knocked and won")
    shoot(page, "correct-hand")
    page.set_viewport_size(DESKTOP)

    form = page.locator("#correct-counts")
    form.locator("select[name=knocker]").select_option(label="Bo")
    for name, count in {"Ann": "5", "Bo": "3", "Cy": "20"}.items():
        form.get_by_label(name, exact=True).fill(count)
    form.get_by_label("Reason").fill("Bo knocked with 3, not Ann")
    form.locator("button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Confirm the correction")
    expect(page.locator("#correction-change")).to_contain_text("Bo knocked, not Ann")
    expect(page.locator("#correction-change")).to_contain_text("Bo +19 instead of -5")
    expect(page.locator("#correction-ending")).to_have_text("The game stays over: Ann first.")
    shoot(page, "correct-confirm")
    page.set_viewport_size(DESKTOP)
    assert not GameEvent.objects.filter(type="HandCorrected").exists()  # nothing before confirming
    page.click("button:has-text('Confirm')")
    page.wait_for_url(f"**/desk/tables/{table.pk}")
    expect(page.locator("#messages")).to_contain_text("Table 1: hand 1 corrected — Bo knocked, not Ann")
    expect(page.locator("#corrections")).to_contain_text("dana corrected a hand (hand 1: Bo knocked, not Ann")
    assert GameEvent.objects.filter(type="HandCorrected", actor=dana).count() == 1

    # The public page, signed out: the standings have changed, and the list says why.
    page.context.clear_cookies()
    page.goto(public)
    assert standings(page) == ["Ann", "Bo", "Cy"]
    correction = page.locator("ol.corrections li").first
    expect(correction).to_contain_text("Hand corrected")
    expect(correction.locator(".correction-words")).to_contain_text(
        "Hand 1 of table 1 corrected by dana: Bo knocked, not Ann — "
    )
    expect(correction.locator(".correction-words")).to_contain_text("Bo +19 instead of -5")
    expect(correction).to_contain_text("Reason: Bo knocked with 3, not Ann")
    shoot(page, "correct-public")
    assert not violations, "\n".join(violations)
