"""The public pages: the home page, a tournament's page (rounds, tables, standings as of
any moment, corrections, live updates) and a player's page (results, head-to-head,
rating history). Anyone may open them, signed in or not; they show nothing a spectator
may not know.

The tournament page's live part polls ``/tournaments/<id>/live/`` with htmx, as a
conditional request: the part carries its ETag (the standings projection's position and
the rounds' state, :func:`web.public_reads.live_marker`) and sends it back as
``If-None-Match`` (``hx-headers``). An unchanged poll is answered ``304 Not Modified``
after that one query, before anything else is read, and htmx leaves the page as it is
(``responseHandling`` in the page's htmx config), so nothing flickers and a keyboard
user's focus stays where it was; a changed poll gets the new part, with its new ETag,
rendered once per version and shared by every viewer (:mod:`web.live_parts`).

The live part holds the current round (:func:`web.public_reads.current_rounds`); the
earlier rounds are cached fragments below it, fetched again as a conditional request
(``/tournaments/<id>/rounds/``) each time the live part changes."""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import path
from django.utils.cache import get_conditional_response, patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from engine.rules import PRESETS
from games.selectors import recent_games
from league.clock import tournament_clock
from league.models import Player, Tournament
from league.selectors import clubs_with_player_counts
from web import live_parts, public_standings
from web.public_reads import (
    current_rounds,
    live_etag,
    player_record,
    public_tournament_or_404,
    running_tournaments,
    tournament_rounds,
)
from web.rating_chart import rating_chart
from web.words import game_status_text

POLL_SECONDS = 2


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    running = running_tournaments()
    return render(
        request,
        "home.html",
        {
            "clubs": clubs_with_player_counts(),
            "presets": sorted(PRESETS),
            "games": [{**game, "status_text": game_status_text(game["status"])} for game in recent_games(10)],
            "running": [(t, public_standings.leaders(t)) for t in running],
        },
    )


def _live_context(tournament: Any, etag: str) -> dict[str, Any]:
    """What the live part shows; ``etag`` is read before it, so a change landing in
    between makes the next poll fetch the part again (never the other way round)."""
    finished = tournament.status == Tournament.Status.FINISHED
    clock = None if finished else tournament_clock(tournament)
    return {
        "tournament": tournament,
        "rounds": current_rounds(tournament),
        "standings": public_standings.live(tournament),
        # a closed tournament stays as it closed: its final standings, no clock, no polling
        "final": finished,
        "clock": clock,
        "clock_slot": live_parts.clock_slot(clock),
        "poll_seconds": POLL_SECONDS,
        "live_headers": json.dumps({"If-None-Match": etag}),
    }


def _render_live(tournament: Any, etag: str) -> live_parts.Part:
    context = _live_context(tournament, etag)
    return live_parts.Part(render_to_string("public/_live.html", context), context["clock"])


@require_safe
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = public_tournament_or_404(tournament_id)
    query = public_standings.parse_query(request.GET, tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "query": query,
        "round_numbers": public_standings.round_numbers(tournament),
        "corrections": public_standings.corrections(tournament),
    }
    if query.is_live:
        etag = live_etag(tournament.pk)
        part = live_parts.live_part(
            "public", tournament.pk, etag, lambda: _render_live(tournament, etag), held=False
        )
        assert part is not None  # held=False: always a part
        context |= {
            "live_part": part.html(),
            "earlier": live_parts.earlier(tournament.pk),
            "final": tournament.status == Tournament.Status.FINISHED,
        }
    else:
        context |= {
            "rounds": tournament_rounds(tournament),
            "standings": public_standings.as_of(tournament, query),
        }
    return render(request, "public/tournament.html", context, status=400 if query.error else 200)


@require_safe
def tournament_live(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The live part of the tournament page: what htmx polls (a 304 when unchanged, the
    shared body of the current version otherwise)."""
    return live_parts.serve(
        request,
        "public",
        tournament_id,
        lambda etag: _render_live(public_tournament_or_404(tournament_id), etag),
        trigger=live_parts.LIVE_CHANGED,  # the earlier rounds check their version
    )


@require_safe
def tournament_earlier_rounds(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The page's earlier rounds (complete, before the newest), fetched again after each
    change of the live part: a 304 after one query unless a correction changed one."""
    etag = live_parts.earlier_etag(tournament_id)
    unchanged = get_conditional_response(request, etag=etag)
    if unchanged is not None:
        unchanged["ETag"] = etag
        return unchanged
    tournament = public_tournament_or_404(tournament_id)
    earlier = live_parts.earlier(tournament_id)
    context = {
        "tournament_id": tournament_id,
        "earlier": earlier,
        "final": tournament.status == Tournament.Status.FINISHED,
    }
    response = render(request, "public/_earlier_rounds.html", context)
    response["ETag"] = earlier.etag
    patch_cache_control(response, no_cache=True)
    return response


@require_safe
def player_page(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    history = public_standings.rating_series(player)
    return render(
        request,
        "public/player.html",
        {
            "player": player,
            "record": player_record(player),
            "chart": rating_chart(history, title=_("Rating history of %(name)s") % {"name": player.name}),
            "history": history,
        },
    )


urlpatterns = [
    path("", home, name="home"),
    path("tournaments/<int:tournament_id>/", tournament_page, name="public-tournament"),
    path("tournaments/<int:tournament_id>/live/", tournament_live, name="public-tournament-live"),
    path("tournaments/<int:tournament_id>/rounds/", tournament_earlier_rounds, name="public-earlier-rounds"),
    path("players/<int:player_id>/", player_page, name="public-player"),
]
