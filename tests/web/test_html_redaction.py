"""Redaction in HTML: during play, no page a person can open shows a card of another
seat's hand or of the stock — whoever they are.

The audit renders every page in ``PAGES`` (URL builders: a name and a function of the
game under test giving the URLs to render) for every role in ``ROLES``, and looks for
every card the viewer may not know, in every form a page could show it: its spoken
name, its face, its code. Pages of other areas join the audit by adding a builder to
``PAGES``. The game is caught mid-hand (tests/support/web_games.py): three seats have
drawn from the stock, two have discarded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from games.models import Game
from tests.support.web_games import live_table, seat_at_tournament, shown
from tests.support.web_pages import PAGES, Scene, UrlBuilder, render_page
from tests.support.worlds import make_user as new_user
from tests.support.worlds import shared_world

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


@pytest.fixture(scope="module")
def scene(django_db_setup: None, django_db_blocker: Any) -> Iterator[Scene]:
    """Built once for the module; each test runs in a savepoint of it (tests/support/worlds.py)."""
    with shared_world(django_db_blocker):
        yield build_scene()


def build_scene() -> Scene:
    owner, ann, bob = new_user("olga"), new_user("ann"), new_user("bob")
    table = live_table(owner, ann, bob, new_user("dina"), new_user("sam"))
    table.users["stranger"] = new_user("stu")
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
