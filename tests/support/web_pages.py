"""Every HTML page of the site around one live table, for the audits that run over all
of them (redaction, accessibility, CSP): the digital game of tests/support/web_games.py at
table 1 of round 1 of a published tournament of its club.

The pages are the routes of the URL configuration (tests/support/web_routes.py), each
rendered through its URL builder in ``BUILDERS``; a route with no builder is either left
out there with a reason or fails tests/web/test_page_routes.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.test import Client

from league import checkin, people
from league.models import Club, Membership, Registration, Tournament
from tests.support.web_games import LiveTable, Seated
from tests.support.web_routes import site_routes

# A page to render: a URL to GET, or a URL and the form to POST to it (a page that
# answers a post with a page, like a correction's confirmation, records nothing).
Request = str | tuple[str, dict[str, str]]


@dataclass
class Scene:
    """The live table and where it is played: table 1 of round 1 of a published
    tournament of the game's club."""

    t: LiveTable
    s: Seated


UrlBuilder = Callable[[Scene], list[Request]]


def _steps(scene: Scene) -> list[Request]:
    game = scene.t.game
    return [f"/games/{game.pk}/?step={n}" for n in range(1, game.version + 1)]


def _desk_table(scene: Scene) -> str:
    return f"/tournaments/{scene.s.tournament_id}/desk/tables/{scene.s.table_id}"


def _club(scene: Scene) -> Club:
    return Club.objects.get(slug=scene.s.club_slug)


def _invitations(scene: Scene) -> tuple[str, str]:
    """An open invitation's code (anyone may open its link), and the page of one ann took
    (its club's directors' and hers; anyone else's 404)."""
    club, director = _club(scene), scene.t.users["director"]
    taken = people.invite(club, role="scorekeeper", player=None, by=director)
    people.claim(taken.code, scene.t.users["ann"])
    Membership.objects.filter(user=scene.t.users["ann"], role="scorekeeper").delete()  # ann keeps no scores
    shown = people.invite(club, role="director", player=None, by=director)
    return shown.code, f"/clubs/{club.slug}/people/invitations/{taken.invitation.pk}"


def _desk(scene: Scene) -> str:
    return f"/tournaments/{scene.s.tournament_id}/desk"


def _checked_in(scene: Scene) -> int:
    registration = Registration.objects.filter(
        tournament_id=scene.s.tournament_id, status=Registration.Status.CHECKED_IN
    ).first()
    assert registration is not None
    return registration.pk


def _self_check_in(scene: Scene) -> int:
    """Self check-in opened (its code on the desk and full screen, the player's page)."""
    tournament = Tournament.objects.get(pk=scene.s.tournament_id)
    checkin.open_self_check_in(tournament, scene.t.users["director"])
    return tournament.pk


# The URLs of each route, by its name (tests/support/web_routes.py): a route of the URL
# configuration is here or left out there with the reason (tests/web/test_page_routes.py).
BUILDERS: dict[str, UrlBuilder] = {
    "home": lambda c: ["/"],
    "game-page": lambda c: [f"/games/{c.t.game.pk}/", *_steps(c), f"/games/{c.t.game.pk}/?hand=1"],
    "game-play": lambda c: [f"/games/{c.t.game.pk}/play"],
    "game-play-state": lambda c: [f"/games/{c.t.game.pk}/play/state?v=0"],
    "club": lambda c: [f"/clubs/{c.s.club_slug}/"],
    "tournament-new": lambda c: [f"/clubs/{c.s.club_slug}/tournaments/new"],
    "public-tournament": lambda c: [
        f"/tournaments/{c.s.tournament_id}/",
        f"/tournaments/{c.s.tournament_id}/?after_round=1",
        f"/tournaments/{c.s.tournament_id}/?timeline=recorded&at=1",
        f"/tournaments/{c.s.tournament_id}/?timeline=recorded&at=2099-01-01T00:00",
        f"/tournaments/{c.s.tournament_id}/?after_round=1&timeline=recorded&at=99",
    ],
    "public-tournament-live": lambda c: [f"/tournaments/{c.s.tournament_id}/live/"],
    "public-earlier-rounds": lambda c: [f"/tournaments/{c.s.tournament_id}/rounds/"],
    "public-player": lambda c: [f"/players/{pk}/" for pk in c.s.player_ids],
    "club-people": lambda c: [f"/clubs/{c.s.club_slug}/people/"],
    "join": lambda c: ["/join/"],
    "join-code": lambda c: [f"/join/{_invitations(c)[0]}"],
    "club-invitation": lambda c: [_invitations(c)[1]],
    "self-check-in": lambda c: [f"/tournaments/{_self_check_in(c)}/check-in"],
    "desk-self-check-in-code": lambda c: [f"/tournaments/{_self_check_in(c)}/desk/check-in/code"],
    "my-tables": lambda c: ["/mine/tables"],
    "my-games": lambda c: ["/mine/games"],
    "desk": lambda c: [
        f"/tournaments/{c.s.tournament_id}/desk",
        f"/tournaments/{c.s.tournament_id}/desk?pick={c.s.player_ids[0]}",
    ],
    "tournament-edit": lambda c: [f"/tournaments/{c.s.tournament_id}/edit"],
    # registration at the door: the list, its preview (a post that writes nothing), and the
    # confirm steps of a drop-out and of closing
    "desk-door": lambda c: [f"{_desk(c)}/door"],
    "desk-door-preview": lambda c: [
        (f"{_desk(c)}/door/preview", {"names": "Ann\nann\n\nZed\n" + "x" * 90, "check_in": "on"})
    ],
    "desk-drop": lambda c: [f"{_desk(c)}/registrations/{_checked_in(c)}/drop"],
    "desk-close": lambda c: [f"{_desk(c)}/close"],
    "desk-live": lambda c: [f"/tournaments/{c.s.tournament_id}/desk/rounds/1/live"],
    # the table's corrections, and a correction to confirm (a page answering a post)
    "desk-table": lambda c: [
        _desk_table(c),
        *[
            (_desk_table(c), {"kind": kind, "seat": "1", "points": "5", "name": "Dee", "reason": "audit"})
            for kind in ("retract", "adjust", "replace", "abandon")
        ],
    ],
    "print-pairings": lambda c: [
        f"/tournaments/{c.s.tournament_id}/print/pairings",
        f"/tournaments/{c.s.tournament_id}/print/pairings?by=player",
    ],
    "print-standings": lambda c: [
        f"/tournaments/{c.s.tournament_id}/print/standings",
        f"/tournaments/{c.s.tournament_id}/print/standings?after_round=1",
    ],
    "print-slips": lambda c: [
        f"/tournaments/{c.s.tournament_id}/print/slips",
        f"/tournaments/{c.s.tournament_id}/print/slips?layout=a6",
    ],
    "print-score-sheets": lambda c: [f"/tournaments/{c.s.tournament_id}/print/score-sheets"],
    "projector": lambda c: [f"/tournaments/{c.s.tournament_id}/projector"],
    "projector-live": lambda c: [f"/tournaments/{c.s.tournament_id}/projector/live"],
    "table-link": lambda c: [f"/t/{c.s.table_id}"],
    "club-search": lambda c: [f"/clubs/{c.s.club_slug}/search?q=a"],
    "table-record": lambda c: [f"/tables/{c.s.table_id}/record"],
    "table-record-undo": lambda c: [f"/tables/{c.s.table_id}/record/undo"],
    "table-record-preview": lambda c: [f"/tables/{c.s.table_id}/record/preview?seat=0&cards=AS+2S"],
    "game-record": lambda c: [f"/games/{c.t.game.pk}/record"],
    "game-record-undo": lambda c: [f"/games/{c.t.game.pk}/record/undo"],
    "game-record-preview": lambda c: [f"/games/{c.t.game.pk}/record/preview?seat=0&cards=AS+2S"],
}

# The audited pages in the URL configuration's order: (route name, URL builder).
PAGES: list[tuple[str, UrlBuilder]] = [
    (route.key, BUILDERS[route.key]) for route in site_routes() if route.key in BUILDERS
]


def render_page(client: Client, request: Request) -> tuple[str, Any]:
    if isinstance(request, str):
        return request, client.get(request)
    url, form = request
    return f"POST {url}", client.post(url, {**form, "idempotency_key": "audit-form"})
