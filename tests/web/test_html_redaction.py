"""Redaction in HTML: during play, no page a person can open shows a card of another
seat's hand or of the stock — whoever they are.

The audit renders every page in ``PAGES`` (URL builders: a name and a function of the
game under test giving the URLs to render) for every role in ``ROLES``, and looks for
every card the viewer may not know, in every form a page could show it: its spoken
name, its face, its code. Pages of other areas join the audit by adding a builder to
``PAGES``. The game is caught mid-hand (tests/support/web_games.py): three seats have
drawn from the stock, two have discarded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from tests.support.web_games import LiveTable, live_table, shown

UrlBuilder = Callable[[LiveTable], list[str]]


def _steps(table: LiveTable) -> list[str]:
    return [f"/games/{table.game.pk}/?step={n}" for n in range(1, table.game.version + 1)]


PAGES: list[tuple[str, UrlBuilder]] = [
    ("home", lambda t: ["/"]),
    ("replay, latest step", lambda t: [f"/games/{t.game.pk}/"]),
    ("replay, every step", _steps),
    ("replay, jump to hand 1", lambda t: [f"/games/{t.game.pk}/?hand=1"]),
    ("play page", lambda t: [f"/games/{t.game.pk}/play"]),
    ("play poll", lambda t: [f"/games/{t.game.pk}/play/state?v=0"]),
]

# role: the user it signs in as (None: anonymous) and the seat whose cards it may know.
ROLES: dict[str, tuple[str | None, int | None]] = {
    "seated player": ("ann", 0),
    "other player": ("bob", 1),
    "spectator": (None, None),
    "club director": ("director", None),
    "club scorekeeper": ("scorekeeper", None),
    "owner, not seated": ("owner", None),
}


@pytest.fixture
def table(owner: Any, ann: Any, bob: Any, make_user: Any) -> LiveTable:
    return live_table(owner, ann, bob, make_user("dina"), make_user("sam"))


@pytest.mark.django_db
@pytest.mark.parametrize("role", list(ROLES))
@pytest.mark.parametrize(("page", "urls"), PAGES, ids=[name for name, _ in PAGES])
def test_no_page_shows_a_card_its_viewer_may_not_know(
    table: LiveTable, role: str, page: str, urls: UrlBuilder
) -> None:
    username, seat = ROLES[role]
    client = Client()
    if username is not None:
        client.force_login(table.users[username])
    secret = table.secret_from(seat)
    assert len(secret) > 30  # two other hands and the stock: the audit has something to find
    for url in urls(table):
        response = client.get(url)
        assert response.status_code in (200, 302, 403), (url, response.status_code)
        html = response.content.decode()
        leaked = sorted(code for code in secret if shown(html, code))
        assert not leaked, f"{page} ({url}) shows {role} the hidden cards {leaked}"


@pytest.mark.django_db
def test_the_audit_finds_cards_where_they_are_shown(table: LiveTable) -> None:
    """The check can fail: ann's own cards are on her pages, and would be caught on bob's."""
    client = Client()
    client.force_login(table.users["ann"])
    own = table.own_cards(0)
    for url in (f"/games/{table.game.pk}/play", f"/games/{table.game.pk}/"):
        html = client.get(url).content.decode()
        assert all(shown(html, code) for code in own), url
    assert own <= table.secret_from(1)
