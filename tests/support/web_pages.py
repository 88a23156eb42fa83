"""Every HTML page of the site around one live table, for the audits that run over all
of them (redaction, accessibility): the digital game of tests/support/web_games.py at
table 1 of round 1 of a published tournament of its club."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.test import Client

from league import checkin, people
from league.models import Club, Membership, Registration, Tournament
from tests.support.web_games import LiveTable, Seated

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


def _door(scene: Scene) -> list[Request]:
    """The door's list and its preview (a post that writes nothing), a drop-out's and the
    close's confirm steps."""
    desk = f"/tournaments/{scene.s.tournament_id}/desk"
    checked_in = Registration.objects.filter(
        tournament_id=scene.s.tournament_id, status=Registration.Status.CHECKED_IN
    ).first()
    assert checked_in is not None
    return [
        f"{desk}/door",
        (f"{desk}/door/preview", {"names": "Ann\nann\n\nZed\n" + "x" * 90, "check_in": "on"}),
        f"{desk}/registrations/{checked_in.pk}/drop",
        f"{desk}/close",
    ]


def _invitations(scene: Scene) -> list[Request]:
    """An open invitation's link (anyone may open it), and the page of one ann took (its
    club's directors' and hers; anyone else's 404)."""
    club, director = _club(scene), scene.t.users["director"]
    taken = people.invite(club, role="scorekeeper", player=None, by=director)
    people.claim(taken.code, scene.t.users["ann"])
    Membership.objects.filter(user=scene.t.users["ann"], role="scorekeeper").delete()  # ann keeps no scores
    shown = people.invite(club, role="director", player=None, by=director)
    return [
        f"/join/{shown.code}",
        "/join/",
        f"/clubs/{club.slug}/people/invitations/{taken.invitation.pk}",
    ]


def _self_check_in(scene: Scene) -> list[Request]:
    """Self check-in opened: its code on the desk and full screen, the player's page."""
    tournament = Tournament.objects.get(pk=scene.s.tournament_id)
    checkin.open_self_check_in(tournament, scene.t.users["director"])
    return [f"/tournaments/{tournament.pk}/check-in", f"/tournaments/{tournament.pk}/desk/check-in/code"]


PAGES: list[tuple[str, UrlBuilder]] = [
    ("home", lambda c: ["/"]),
    ("replay, latest step", lambda c: [f"/games/{c.t.game.pk}/"]),
    ("replay, every step", _steps),
    ("replay, jump to hand 1", lambda c: [f"/games/{c.t.game.pk}/?hand=1"]),
    ("play page", lambda c: [f"/games/{c.t.game.pk}/play"]),
    ("play poll", lambda c: [f"/games/{c.t.game.pk}/play/state?v=0"]),
    ("club page", lambda c: [f"/clubs/{c.s.club_slug}/"]),
    ("new tournament form", lambda c: [f"/clubs/{c.s.club_slug}/tournaments/new"]),
    (
        "public tournament",
        lambda c: [
            f"/tournaments/{c.s.tournament_id}/",
            f"/tournaments/{c.s.tournament_id}/?after_round=1",
            f"/tournaments/{c.s.tournament_id}/?timeline=recorded&at=1",
            f"/tournaments/{c.s.tournament_id}/?timeline=recorded&at=2099-01-01T00:00",
            f"/tournaments/{c.s.tournament_id}/?after_round=1&timeline=recorded&at=99",
        ],
    ),
    ("public tournament, live part", lambda c: [f"/tournaments/{c.s.tournament_id}/live/"]),
    ("player pages", lambda c: [f"/players/{pk}/" for pk in c.s.player_ids]),
    ("club people", lambda c: [f"/clubs/{c.s.club_slug}/people/"]),
    ("invitations", _invitations),
    ("self check-in", _self_check_in),
    ("my tables and games", lambda c: ["/mine/tables", "/mine/games"]),
    (
        "desk",
        lambda c: [
            f"/tournaments/{c.s.tournament_id}/desk",
            f"/tournaments/{c.s.tournament_id}/desk?pick={c.s.player_ids[0]}",
            f"/tournaments/{c.s.tournament_id}/edit",
            f"/tournaments/{c.s.tournament_id}/desk/rounds/1/live",
        ],
    ),
    ("desk, registration at the door", _door),
    ("desk, table corrections", lambda c: [_desk_table(c)]),
    (
        "desk, a correction to confirm",
        lambda c: [
            (_desk_table(c), {"kind": kind, "seat": "1", "points": "5", "name": "Dee", "reason": "audit"})
            for kind in ("retract", "adjust", "replace", "abandon")
        ],
    ),
    (
        "print pages",
        lambda c: [
            f"/tournaments/{c.s.tournament_id}/print/{page}"
            for page in (
                "pairings",
                "pairings?by=player",
                "standings",
                "standings?after_round=1",
                "slips",
                "slips?layout=a6",
                "score-sheets",
            )
        ],
    ),
    # (its live part has no control or link for the accessibility audit; the page holds it)
    ("projector", lambda c: [f"/tournaments/{c.s.tournament_id}/projector"]),
    ("table link", lambda c: [f"/t/{c.s.table_id}"]),
    ("club search", lambda c: [f"/clubs/{c.s.club_slug}/search?q=a"]),
    (
        "record pages",
        lambda c: [
            f"/tables/{c.s.table_id}/record",
            f"/tables/{c.s.table_id}/record/undo",
            f"/tables/{c.s.table_id}/record/preview?seat=0&cards=AS+2S",
            f"/games/{c.t.game.pk}/record",
            f"/games/{c.t.game.pk}/record/undo",
            f"/games/{c.t.game.pk}/record/preview?seat=0&cards=AS+2S",
        ],
    ),
]


def render_page(client: Client, request: Request) -> tuple[str, Any]:
    if isinstance(request, str):
        return request, client.get(request)
    url, form = request
    return f"POST {url}", client.post(url, {**form, "idempotency_key": "audit-form"})
