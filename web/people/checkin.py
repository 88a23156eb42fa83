"""Self check-in in the browser (:mod:`league.checkin`): the director opens or closes it
on the desk and shows its code full screen; a player scans the QR code (or types the
code) at ``/tournaments/<id>/check-in`` and checks in from their phone."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core import DomainError
from league import checkin, people
from league.access import require_director
from league.models import Registration, Tournament
from web.once import Outcome, act
from web.paper.qr import qr_svg
from web.public_reads import public_tournament
from web.refusals import page_status, words


def check_in_address(request: HttpRequest, tournament: Tournament, code: str) -> str:
    """The address the QR code carries: the check-in page with the code filled in."""
    return request.build_absolute_uri(reverse("self-check-in", args=[tournament.pk]) + f"?code={code}")


def code_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """What the desk's box and the full-screen page show of the open code (if any)."""
    code = checkin.open_code(tournament)
    if code is None:
        return {"tournament": tournament, "code": None}
    address = check_in_address(request, tournament, code)
    title = _("Check in for %(name)s") % {"name": tournament.name}
    # six characters are read at a glance: shown whole, not grouped like an invitation's
    return {"tournament": tournament, "code": code, "address": address, "qr": qr_svg(address, title)}


def _director_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    require_director(request.user, tournament.club_id)
    return tournament


@login_required
@require_POST
def desk_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """Open self check-in (a new code each time) or close it."""
    tournament = _director_tournament(request, pk)
    back = reverse("desk", args=[tournament.pk]) + "#self-check-in"
    op = request.POST.get("op", "")

    def change() -> Outcome:
        if op == "open":
            checkin.open_self_check_in(tournament, request.user)
            return Outcome(back, _("Self check-in is open: show the code in the room."))
        checkin.close_self_check_in(tournament)
        return Outcome(back, _("Self check-in is closed: its code no longer works."))

    if op not in ("open", "close"):
        messages.error(request, _("Choose whether to open or close self check-in."))
        return redirect(back)
    return act(request, f"self-check-in-{tournament.pk}", change, back)


@login_required
@require_safe
def code_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The code and its QR code, big: for a screen in the room, or to print."""
    tournament = _director_tournament(request, pk)
    return render(request, "people/check_in_code.html", code_context(request, tournament))


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def self_check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """A player checks in with the room's code."""
    tournament = public_tournament(pk)
    if tournament is None:
        raise Http404("No such tournament.")
    player = people.player_of(request.user)
    mine = player if player is not None and player.club_id == tournament.club_id else None
    registration = Registration.objects.filter(tournament=tournament, player=mine).first() if mine else None
    context: dict[str, Any] = {
        "tournament": tournament,
        "player": mine,
        "registration": registration,
        "open": checkin.open_code(tournament) is not None,
        "typed": str(request.GET.get("code", ""))[:40],
    }
    if request.method != "POST":
        return render(request, "people/check_in.html", context)
    typed = str(request.POST.get("code", ""))[:40]
    try:
        checked = checkin.check_in_self(tournament, mine, typed)
    except DomainError as exc:
        context.update(error=words(exc), typed=typed)
        return render(request, "people/check_in.html", context, status=page_status(exc))
    messages.success(request, _("%(name)s, you are checked in. Good luck!") % {"name": checked.player.name})
    return redirect(reverse("my-games"))


urlpatterns = [
    path("tournaments/<int:pk>/check-in", self_check_in, name="self-check-in"),
    path("tournaments/<int:pk>/desk/check-in", desk_check_in, name="desk-self-check-in"),
    path("tournaments/<int:pk>/desk/check-in/code", code_page, name="desk-self-check-in-code"),
]
