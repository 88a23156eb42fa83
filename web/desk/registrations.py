"""Registering players, checking them in, dropping or withdrawing them."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from league import limits, services
from league.models import Registration
from web.desk.common import desk_url, director_tournament
from web.forms import BadField, posted_text, posted_whole
from web.once import Outcome, act, refused


@login_required
@require_POST
def register(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = director_tournament(request, pk)
    check_in = request.POST.get("check_in") == "on"
    # "Check in now" stays as it was for the next entry, refused or not (?check_in=on|off)
    back = reverse("desk", args=[tournament.pk]) + f"?check_in={'on' if check_in else 'off'}#registrations"
    try:
        name = posted_text(request.POST, "name", gettext("The player's name"), limits.PLAYER_NAME_LENGTH)
        from_round = posted_whole(
            request.POST, "from_round", gettext("The first round"), 1, limits.MAX_ROUNDS, required=False
        )
    except BadField as exc:
        return refused(request, exc, back)
    if not name:
        messages.error(request, gettext("Type the player's name."))
        return redirect(back)

    def add() -> Outcome:
        registration = services.register(tournament, name=name, from_round=from_round)
        late = registration.from_round > 1
        if check_in:
            services.set_registration_status(registration, Registration.Status.CHECKED_IN)
        if late and check_in:
            said = gettext("%(name)s registered (a late entry, from round %(round)s) and checked in.")
        elif late:
            said = gettext("%(name)s registered (a late entry, from round %(round)s).")
        elif check_in:
            said = gettext("%(name)s registered and checked in.")
        else:
            said = gettext("%(name)s registered.")
        said %= {"name": registration.player.name, "round": registration.from_round}
        return Outcome(back, said)

    return act(request, "register", add, back)


STATUS_WORDS: dict[str, Any] = {
    Registration.Status.CHECKED_IN: gettext_lazy("checked in"),
    Registration.Status.REGISTERED: gettext_lazy("no longer checked in"),
    Registration.Status.DROPPED: gettext_lazy("dropped out"),
    Registration.Status.WITHDRAWN: gettext_lazy("withdrawn"),
}


@login_required
@require_POST
def registration_status(request: HttpRequest, pk: int, registration_id: int) -> HttpResponse:
    """Check in, undo a check-in, drop out or withdraw: the posted status is the one
    wanted (not a toggle), so sending it twice changes nothing more."""
    tournament = director_tournament(request, pk)
    registration = get_object_or_404(
        Registration.objects.select_related("player", "tournament"), pk=registration_id, tournament=tournament
    )
    status = request.POST.get("status", "")
    back = desk_url(tournament, "registrations")
    if status == Registration.Status.DROPPED and request.POST.get("confirmed") != "yes":
        return redirect("desk-drop", tournament.pk, registration.pk)  # web.desk.door: confirm it first

    def change() -> Outcome:
        services.set_registration_status(registration, status)
        said = gettext("%(name)s: %(status)s.")
        return Outcome(
            back, said % {"name": registration.player.name, "status": STATUS_WORDS.get(status, status)}
        )

    return act(request, f"registration-{registration.pk}", change, back)


@login_required
@require_POST
def check_in_all(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = director_tournament(request, pk)
    back = desk_url(tournament, "registrations")

    def check_in() -> Outcome:
        waiting = list(tournament.registrations.filter(status=Registration.Status.REGISTERED))
        for registration in waiting:
            services.set_registration_status(registration, Registration.Status.CHECKED_IN)
        said = ngettext("%(count)s player checked in.", "%(count)s players checked in.", len(waiting))
        return Outcome(back, said % {"count": len(waiting)})

    return act(request, "check-in-all", check_in, back)
