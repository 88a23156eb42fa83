"""What is a signed-in person's own, linked from the header:

- "My tables" (``/mine/tables``), for a club's scorekeepers and directors: the tables of
  the club's rounds being played — those the desk assigned to them first — each with its
  status and the link to record it (a digital table: to watch it);
- "My games" (``/mine/games``), for a player: where they sit now ("Round 3: table 2,
  seat 3, Bo deals first", with a link to play a digital table, and the round clock's
  time left and end), the self check-ins
  open for them, their digital games in play, and their results and password.

The seat lines are also drawn on the home page and the player's page
(``web.templatetags.people``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from games.selectors import games_in_play_for
from games.services import FINAL_STATUSES as FINAL
from league import access, people
from league.clock import tournament_clocks
from league.models import Player, Registration, SelfCheckIn, Tournament
from league.tables import SeatNow, seats_now, tables_to_record
from web.words import game_status_text


def seat_sentence(seat: SeatNow, *, own: bool, name: str) -> str:
    """``Round 3: table 2, seat 3, Bo deals first`` — or ``you deal first`` (the player
    reading it), ``Alice deals first`` (anyone else reading Alice's), ``a bye``."""
    words: dict[str, Any] = {"round": seat.round_number, "table": seat.table, "seat": seat.seat}
    if seat.bye:
        return _("Round %(round)s: a bye") % words
    if not seat.dealer and own:
        return _("Round %(round)s: table %(table)s, seat %(seat)s, you deal first") % words
    words["dealer"] = seat.dealer or name
    return _("Round %(round)s: table %(table)s, seat %(seat)s, %(dealer)s deals first") % words


def seat_lines(player_id: int, name: str, *, own: bool) -> list[dict[str, Any]]:
    """The player's seats now, each in words, with a link to play a digital table that is
    still in play when ``own`` (the player reads their own), and the round's clock when
    the director started it (:func:`league.clock.tournament_clocks`: one query)."""
    seats = seats_now(player_id)
    clocks = tournament_clocks({seat.tournament_id for seat in seats})
    lines = []
    for seat in seats:
        clock = clocks.get(seat.tournament_id)
        lines.append(
            {
                "seat": seat,
                "text": seat_sentence(seat, own=own, name=name),
                "play": own and seat.digital and seat.game_id is not None and seat.game_status not in FINAL,
                "clock": clock if clock is not None and clock.round_number == seat.round_number else None,
            }
        )
    return lines


def _user_id(request: HttpRequest) -> int:
    pk = request.user.pk
    assert pk is not None  # the views are login_required
    return int(pk)


@login_required
@require_safe
def my_tables(request: HttpRequest) -> HttpResponse:
    clubs = access.recorder_club_ids(request.user)
    if not clubs:
        raise PermissionDenied(_("Only a club's scorekeepers and directors have tables to record."))
    tables = tables_to_record(clubs, _user_id(request))
    return render(
        request,
        "mine/tables.html",
        {"tables": [(table, game_status_text(table.game_status)) for table in tables]},
    )


def open_check_ins(player: Player) -> list[Tournament]:
    """The player's club's tournaments whose self check-in is open, and where they are not
    checked in yet."""
    checked_in = Registration.objects.filter(player=player, status=Registration.Status.CHECKED_IN)
    rows = (
        SelfCheckIn.objects.filter(tournament__club_id=player.club_id)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .exclude(tournament_id__in=checked_in.values("tournament_id"))
    )
    return [row.tournament for row in rows.select_related("tournament").order_by("-tournament_id")]


@login_required
@require_safe
def my_games(request: HttpRequest) -> HttpResponse:
    player = people.player_of(request.user)
    context: dict[str, Any] = {
        "player": player,
        "lines": seat_lines(player.pk, player.name, own=True) if player is not None else [],
        "heading": _("Where you sit now"),
        "check_ins": open_check_ins(player) if player is not None else [],
        "games": games_in_play_for(_user_id(request)),
    }
    return render(request, "mine/games.html", context)


urlpatterns = [
    path("mine/tables", my_tables, name="my-tables"),
    path("mine/games", my_games, name="my-games"),
]
