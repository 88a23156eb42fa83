"""Redaction in HTML: during play, no page a person can open shows a card of another
seat's hand or of the stock — whoever they are.

The audit renders every page in ``PAGES`` (URL builders: a name and a function of the
game under test giving the URLs to render) for every role in ``ROLES``, and looks for
every card the viewer may not know, in every form a page could show it: its spoken
name, its face, its code. Pages of other areas join the audit by adding a builder to
``PAGES``. The game is caught mid-hand (tests/support/web_games.py): three seats have
drawn from the stock, two have discarded."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games import store
from games.models import Game
from league.models import Player, Round, Tournament
from tests.support.record import Night, club_night
from tests.support.record import record as record_entry
from tests.support.web_games import live_table, seat_at_tournament, shown
from tests.support.web_pages import PAGES, Scene, UrlBuilder, render_page

# role: the user it signs in as (None: anonymous) and the seat whose cards it may know.
ROLES: dict[str, tuple[str | None, int | None]] = {
    "seated player": ("ann", 0),
    "other player": ("bob", 1),
    "spectator": (None, None),
    "signed-in stranger": ("stranger", None),
    "club director": ("director", None),
    "club scorekeeper": ("scorekeeper", None),
    "owner, not seated": ("owner", None),
}


@pytest.fixture
def scene(owner: Any, ann: Any, bob: Any, make_user: Any) -> Scene:
    table = live_table(owner, ann, bob, make_user("dina"), make_user("sam"))
    table.users["stranger"] = make_user("stu")
    return Scene(table, seat_at_tournament(table))


@pytest.mark.django_db
@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize(("page", "urls"), PAGES, ids=[name for name, _ in PAGES])
def test_no_page_shows_a_card_its_viewer_may_not_know(
    scene: Scene, role: str, page: str, urls: UrlBuilder
) -> None:
    username, seat = ROLES[role]
    table = scene.t
    client = Client()
    if username is not None:
        client.force_login(table.users[username])
    secret = table.secret_from(seat)
    assert len(secret) > 30  # two other hands and the stock: the audit has something to find
    version = table.game.version
    for request in urls(scene):
        url, response = render_page(client, request)
        # a digital game has no showdown preview (it is not recorded by hand): 404; an
        # invitation's page does not exist for anyone but its club's directors and claimant
        allowed = (200, 302, 403, 404) if "/preview" in url or "/invitations/" in url else (200, 302, 403)
        assert response.status_code in allowed, (url, response.status_code)
        html = response.content.decode()
        leaked = sorted(code for code in secret if shown(html, code))
        assert not leaked, f"{page} ({url}) shows {role} the hidden cards {leaked}"
    # the audit records nothing, not even a correction's confirmation page
    assert Game.objects.get(pk=table.game.pk).version == version


@pytest.mark.django_db
def test_the_audit_finds_cards_where_they_are_shown(scene: Scene) -> None:
    """The check can fail: ann's own cards are on her pages, and would be caught on bob's."""
    table = scene.t
    client = Client()
    client.force_login(table.users["ann"])
    own = table.own_cards(0)
    for url in (f"/games/{table.game.pk}/play", f"/games/{table.game.pk}/"):
        html = client.get(url).content.decode()
        assert all(shown(html, code) for code in own), url
    assert own <= table.secret_from(1)


@pytest.mark.django_db
def test_the_audit_reaches_every_page(scene: Scene) -> None:
    """The pages are rendered, not refused: the director and the seated player get them."""
    barred = {  # what each may not open: a player runs no desk, a director plays no seat
        "director": ("/play",),
        "ann": (
            "/desk",
            "/record",
            "/edit",
            "/tournaments/new",
            "/print/slips",
            "/print/score-sheets",
            "/people/",
            "/mine/tables",
        ),
    }
    for username, closed in barred.items():
        client = Client()
        client.force_login(scene.t.users[username])
        for name, urls in PAGES:
            for request in urls(scene):
                url, response = render_page(client, request)
                if "/preview" in url:
                    continue
                path = url.removeprefix("POST ").split("?")[0]
                refused = any(path.endswith(part) or f"{part}/" in path for part in closed)
                # a tournament table's game is recorded on the table's page: sent there
                moved = path.startswith("/games/") and "/record" in path
                moved |= path.startswith("/t/")  # the per-table link sends each to their page
                expected = 302 if moved else 403 if refused else 200
                assert response.status_code == expected, (username, name, url)


# --- a physical game: what a scorekeeper enters is the recorders' to see -----------------

PHYSICAL_ROLES: dict[str, tuple[str | None, bool]] = {
    "seated player": ("ann", False),
    "club player": ("pia", False),
    "spectator": (None, False),
    "signed-in stranger": ("stu", False),
    "club director": ("dora", True),
    "club scorekeeper": ("sam", True),
}

DRAWN = "JC"  # the card the scorekeeper entered for Bo's draw from the stock


@dataclass
class Recorded:
    night: Night
    users: dict[str, Any]
    player_ids: list[int]

    def pages(self) -> list[str]:
        night = self.night
        game, tournament, table = night.game.pk, night.tournament.pk, night.table.pk
        return [
            "/",
            f"/games/{game}/",
            *[f"/games/{game}/?step={n}" for n in range(1, Game.objects.get(pk=game).version + 1)],
            f"/clubs/{night.club.slug}/",
            f"/tournaments/{tournament}/",
            f"/tournaments/{tournament}/?after_round=1",
            f"/tournaments/{tournament}/?timeline=recorded&at=3",
            f"/tournaments/{tournament}/live/",
            *[f"/players/{pk}/" for pk in self.player_ids],
            f"/tournaments/{tournament}/desk",
            f"/tournaments/{tournament}/desk/rounds/1/live",
            f"/tournaments/{tournament}/desk/tables/{table}",
            f"/tables/{table}/record",
            f"/tables/{table}/record/undo",
            f"/tables/{table}/record/preview?seat=0&cards=AS",
            f"/games/{game}/record",
            f"/games/{game}/record/undo",
            f"/tournaments/{tournament}/print/pairings",
            f"/tournaments/{tournament}/print/standings",
            f"/tournaments/{tournament}/print/slips",
            f"/tournaments/{tournament}/print/score-sheets",
            f"/tournaments/{tournament}/projector",
            f"/tournaments/{tournament}/projector/live",
            f"/t/{table}",
        ]


@pytest.fixture
def recorded(make_user: Any) -> Recorded:
    night = club_night(make_user)
    Tournament.objects.filter(pk=night.tournament.pk).update(status=Tournament.Status.RUNNING)
    Round.objects.filter(pk=night.round.pk).update(published_at=timezone.now())
    ann = make_user("ann")
    people = [seat.player for seat in night.table.seats.select_related("player").order_by("position")]
    Player.objects.filter(pk=people[0].pk).update(user=ann)
    record_entry(night, {"type": "DealHand", "upcard": "7H"})
    record_entry(night, {"type": "DrawFromStock", "seat": 1, "card": DRAWN})
    state = store.load_state(Game.objects.get(pk=night.game.pk), use_cache=False)
    assert state.hand is not None and state.hand.phase == "discard" and state.to_move == 1
    users = {"ann": ann, "pia": night.player, "dora": night.director, "sam": night.scorekeeper}
    users["stu"] = make_user("stu")
    return Recorded(night, users, [p.pk for p in people if p is not None])


@pytest.mark.django_db
@pytest.mark.parametrize("role", list(PHYSICAL_ROLES))
def test_a_card_entered_at_a_physical_table_is_shown_to_its_recorders_only(
    recorded: Recorded, role: str
) -> None:
    username, records = PHYSICAL_ROLES[role]
    client = Client()
    if username is not None:
        client.force_login(recorded.users[username])
    seen_by_recorder = False
    for url in recorded.pages():
        response = client.get(url)
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        html = response.content.decode()
        if records:
            seen_by_recorder |= shown(html, DRAWN)
        else:
            assert not shown(html, DRAWN), f"{url} shows {role} the card Bo drew ({DRAWN})"
    # the recorders' pages do show what was entered: the audit would catch it elsewhere
    assert seen_by_recorder == records
