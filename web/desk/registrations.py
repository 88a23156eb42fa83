"""Registering players, checking them in, dropping or withdrawing them."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from league import limits, services
from league.models import Registration
from web.desk.common import act, desk_url, director_tournament, refused
from web.forms import BadField, posted_text, posted_whole
from web.once import Outcome


@login_required
@require_POST
def register(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = director_tournament(request, pk)
    check_in = request.POST.get("check_in") == "on"
    try:
        name = posted_text(request.POST, "name", "The player's name", limits.PLAYER_NAME_LENGTH)
        from_round = posted_whole(
            request.POST, "from_round", "The first round", 1, limits.MAX_ROUNDS, required=False
        )
    except BadField as exc:
        return refused(request, exc, desk_url(tournament, "registrations"))
    if not name:
        messages.error(request, "Type the player's name.")
        return redirect(desk_url(tournament, "registrations"))

    def add() -> Outcome:
        registration = services.register(tournament, name=name, from_round=from_round)
        said = f"{registration.player.name} registered"
        if registration.from_round > 1:
            said += f" (a late entry, from round {registration.from_round})"
        if check_in:
            services.set_registration_status(registration, Registration.Status.CHECKED_IN)
            said += " and checked in"
        return Outcome(desk_url(tournament, "registrations"), said + ".")

    return act(request, "register", add, desk_url(tournament, "registrations"))


STATUS_WORDS: dict[str, str] = {
    Registration.Status.CHECKED_IN: "checked in",
    Registration.Status.REGISTERED: "no longer checked in",
    Registration.Status.DROPPED: "dropped out",
    Registration.Status.WITHDRAWN: "withdrawn",
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

    def change() -> Outcome:
        services.set_registration_status(registration, status)
        return Outcome(back, f"{registration.player.name}: {STATUS_WORDS.get(status, status)}.")

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
        return Outcome(back, f"{len(waiting)} player{'s' if len(waiting) != 1 else ''} checked in.")

    return act(request, "check-in-all", check_in, back)
