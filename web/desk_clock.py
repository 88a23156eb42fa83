"""The round clock on the director's desk: start it (for the tournament's round length)
and stop it. Each posts, redirects to round control and says what it did; a refusal
(``clock_running``, ``round_not_running``, …, from :mod:`league.clock`) is worded by
:mod:`web.refusals` and changes nothing. Directors only (``league.access``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import DomainError
from league import clock
from league.access import require_director
from league.models import Round, Tournament
from web.once import Outcome, once
from web.refusals import words


def _round(request: HttpRequest, pk: int, number: int) -> Round:
    tournament = get_object_or_404(Tournament, pk=pk)
    require_director(request.user, tournament.club_id)
    return get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)


def _act(request: HttpRequest, round_: Round, scope: str, start: bool) -> HttpResponse:
    back = reverse("desk", args=[round_.tournament_id]) + "#rounds"

    def act() -> Outcome:
        if start:
            started = clock.start_round_clock(round_, request.user)
            said = _("Round %(number)s's clock started: %(minutes)s minutes, it ends at %(end)s.") % {
                "number": round_.number,
                "minutes": started.minutes,
                "end": localtime(started.ends_at).strftime("%H:%M"),
            }
        else:
            clock.stop_round_clock(round_, request.user)
            said = _("Round %(number)s's clock stopped.") % {"number": round_.number}
        return Outcome(back, said)

    try:
        outcome = once(request, f"{scope}-{round_.pk}", act)
    except DomainError as exc:
        messages.error(request, words(exc))
        return redirect(back)
    messages.success(request, outcome.message)
    return redirect(outcome.location)


@login_required
@require_POST
def start_clock(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return _act(request, _round(request, pk, number), "clock-start", start=True)


@login_required
@require_POST
def stop_clock(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return _act(request, _round(request, pk, number), "clock-stop", start=False)


urlpatterns = [
    path("tournaments/<int:pk>/desk/rounds/<int:number>/clock/start", start_clock, name="desk-clock-start"),
    path("tournaments/<int:pk>/desk/rounds/<int:number>/clock/stop", stop_clock, name="desk-clock-stop"),
]
