"""The projector view ``/tournaments/<id>/projector``: a page for a 1920x1080 screen
that needs no hand on it. It shows, in turn, the current round's tables by player name
(alphabetical, in columns, as many screens as it takes), the round clock, then the
standings (as many screens as it takes), each screen for a few seconds
(``js/projector.js``). Screens are cut here, on the server, to sizes that fit the
screen at its large type, so nothing ever scrolls or overflows.

It updates itself as the public tournament page does: its live part polls
``/tournaments/<id>/projector/live`` with the ETag it was drawn with
(:func:`web.public_reads.live_marker`, which a clock's start or stop changes too); an
unchanged poll is a 304 after one query, and a changed one is rendered once per version
and shared by every screen (:mod:`web.live_parts`). A finished tournament's view shows
its final standings and polls no more.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path
from django.views.decorators.http import require_safe

from league.clock import tournament_clock
from league.models import Tournament
from league.tables import PlayerLine, round_tables, shown_round
from web import live_parts, public_standings
from web.public_reads import live_etag, public_tournament_or_404

POLL_SECONDS = 5
# What fits one 1920x1080 screen at the view's type (32 px, 28 px at the least): the
# browser test checks it at 64 players.
NAMES_PER_COLUMN = 16
COLUMNS = 2
STANDINGS_PER_SCREEN = 16
# How long each screen stays up, in seconds.
SECONDS = {"tables": 15, "clock": 8, "standings": 12}


@dataclass(frozen=True)
class Screen:
    kind: str  # tables, clock or standings
    seconds: int
    page: int = 1
    pages: int = 1
    columns: tuple[tuple[PlayerLine, ...], ...] = ()
    rows: tuple[public_standings.Row, ...] = ()


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)] or [[]]


def screens(tournament: Tournament) -> dict[str, Any]:
    """Everything the view shows, cut into screens."""
    finished = tournament.status == Tournament.Status.FINISHED
    round_ = None if finished else shown_round(tournament)
    tables = round_tables(round_) if round_ is not None else None
    clock = None if finished else tournament_clock(tournament)
    standings = public_standings.live(tournament)
    shown: list[Screen] = []
    if tables is not None and tables.tables:
        pages = _chunks(tables.by_player(), NAMES_PER_COLUMN * COLUMNS)
        for number, lines in enumerate(pages, 1):
            columns = tuple(tuple(c) for c in _chunks(lines, NAMES_PER_COLUMN) if c)
            shown.append(Screen("tables", SECONDS["tables"], number, len(pages), columns=columns))
    if clock is not None:
        shown.append(Screen("clock", SECONDS["clock"]))
    pages = _chunks(standings.rows, STANDINGS_PER_SCREEN)
    for number, rows in enumerate(pages, 1):
        shown.append(Screen("standings", SECONDS["standings"], number, len(pages), rows=tuple(rows)))
    return {
        "tournament": tournament,
        "round": tables,
        "clock": clock,
        "standings": standings,
        "screens": shown,
        "finished": finished,
        "clock_slot": live_parts.clock_slot(clock),
    }


def _render_live(tournament: Tournament, etag: str) -> live_parts.Part:
    context = screens(tournament) | {
        "poll_seconds": POLL_SECONDS,
        "live_headers": json.dumps({"If-None-Match": etag}),
    }
    return live_parts.Part(render_to_string("projector/_live.html", context), context["clock"])


@require_safe
def projector_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = public_tournament_or_404(tournament_id)
    etag = live_etag(tournament.pk)
    part = live_parts.live_part(
        "projector", tournament.pk, etag, lambda: _render_live(tournament, etag), held=False
    )
    assert part is not None  # held=False: always a part
    return render(request, "projector/page.html", {"tournament": tournament, "live_part": part.html()})


@require_safe
def projector_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The view's live part: what it polls (a 304 when nothing changed, the shared body
    of the current version otherwise)."""
    return live_parts.serve(
        request,
        "projector",
        tournament_id,
        lambda etag: _render_live(public_tournament_or_404(tournament_id), etag),
    )


urlpatterns = [
    path("tournaments/<int:tournament_id>/projector", projector_page, name="projector"),
    path("tournaments/<int:tournament_id>/projector/live", projector_live, name="projector-live"),
]
