"""The round clock on the director's desk: start it (for the tournament's round length)
and stop it. Each posts, redirects to round control and says what it did; a refusal
(``clock_running``, ``round_not_running``, …, from :mod:`league.clock`) is worded by
:mod:`web.refusals` and changes nothing. Directors only (``league.access``). Routes in
:mod:`web.desk.urls`."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from league import clock
from league.models import Round
from web.desk.common import desk_url, director_tournament
from web.once import Outcome
from web.once import act as desk_act


def _round(request: HttpRequest, pk: int, number: int) -> Round:
    tournament = director_tournament(request, pk)
    return get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)


def _act(request: HttpRequest, round_: Round, scope: str, start: bool) -> HttpResponse:
    back = desk_url(round_.tournament, "rounds")

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

    return desk_act(request, f"{scope}-{round_.pk}", act, back)


@login_required
@require_POST
def start_clock(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return _act(request, _round(request, pk, number), "clock-start", start=True)


@login_required
@require_POST
def stop_clock(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    return _act(request, _round(request, pk, number), "clock-stop", start=False)
