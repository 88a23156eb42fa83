"""The tournament form (create and edit, the settings checked by :mod:`web.desk.forms`
and saved by ``league.services``) and closing a tournament."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from core import DomainError
from league import clock, services
from league.access import require_director
from league.limits import LATE_FIELDS
from league.models import Club, Tournament
from web.desk.common import desk_url, director_tournament, is_htmx
from web.desk.forms import TournamentForm, initial_of
from web.once import Outcome, act, once

# --- the tournament form ------------------------------------------------------------------


def _options_partial(request: HttpRequest, form: TournamentForm) -> HttpResponse:
    return render(request, "desk/_options.html", {"form": form})


@login_required
def tournament_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    require_director(request.user, club.pk)
    if request.method == "GET":
        form = TournamentForm(preset=request.GET.get("preset") or None)
        if is_htmx(request) and request.GET.get("preset"):
            return _options_partial(request, form)
        return render(request, "desk/tournament_form.html", {"form": form, "club": club, "tournament": None})
    if request.method != "POST":
        return HttpResponse(status=405)
    form = TournamentForm(request.POST)
    if form.preset_changed:
        form = form.with_new_preset()
        return render(request, "desk/tournament_form.html", {"form": form, "club": club, "tournament": None})
    if form.is_valid():

        def create() -> Outcome:
            with transaction.atomic():
                tournament = services.create_tournament(club, form.service_data(), request.user)
                if form.cleaned_data.get("round_minutes") is not None:
                    clock.set_round_minutes(tournament, form.cleaned_data["round_minutes"], request.user)
            return Outcome(
                desk_url(tournament),
                gettext("Tournament “%(name)s” created. Register its players.") % {"name": tournament.name},
            )

        try:
            outcome = once(request, "tournament-new", create)
        except DomainError as exc:
            form.add_service_error(exc)
        else:
            if outcome.message:
                messages.success(request, outcome.message)
            return redirect(outcome.location)
    return render(
        request, "desk/tournament_form.html", {"form": form, "club": club, "tournament": None}, status=400
    )


@login_required
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = director_tournament(request, pk)
    club = tournament.club
    locked = tournament.round_set.exists()
    context = {"club": club, "tournament": tournament}
    if tournament.status == Tournament.Status.FINISHED:
        messages.error(request, gettext("The tournament is closed; its settings can no longer change."))
        return redirect(desk_url(tournament))
    if request.method == "GET":
        preset = request.GET.get("preset") or None
        form = TournamentForm(initial=initial_of(tournament), preset=preset, locked=locked, editing=True)
        if is_htmx(request) and preset:
            return _options_partial(request, form)
        return render(request, "desk/tournament_form.html", {**context, "form": form})
    if request.method != "POST":
        return HttpResponse(status=405)
    form = TournamentForm(request.POST, initial=initial_of(tournament), locked=locked, editing=True)
    if form.preset_changed:
        return render(request, "desk/tournament_form.html", {**context, "form": form.with_new_preset()})
    if form.is_valid():
        changes = form.changes_from(tournament)
        if locked:
            changes = {k: v for k, v in changes.items() if k in LATE_FIELDS}

        minutes = form.cleaned_data.get("round_minutes") or tournament.round_minutes

        def update() -> Outcome:
            if changes or minutes != tournament.round_minutes:
                with transaction.atomic():
                    if changes:
                        services.update_tournament(tournament, changes, request.user)
                    if minutes != tournament.round_minutes:
                        clock.set_round_minutes(tournament, minutes, request.user)
                return Outcome(desk_url(tournament), gettext("Settings saved."))
            return Outcome(desk_url(tournament), gettext("Nothing was changed."))

        try:
            outcome = once(request, "tournament-edit", update)
        except DomainError as exc:
            form.add_service_error(exc)
        else:
            messages.success(request, outcome.message)
            return redirect(outcome.location)
    return render(request, "desk/tournament_form.html", {**context, "form": form}, status=400)


@login_required
def close(request: HttpRequest, pk: int) -> HttpResponse:
    """Close the tournament, after a confirmation page."""
    tournament = director_tournament(request, pk)
    if request.method == "GET":
        return render(request, "desk/close.html", {"tournament": tournament, "club": tournament.club})
    if request.method != "POST":
        return HttpResponse(status=405)

    def finish() -> Outcome:
        services.close_tournament(tournament, request.user)
        said = gettext("“%(name)s” is closed. Nothing can change any more.") % {"name": tournament.name}
        return Outcome(desk_url(tournament), said)

    return act(request, "close", finish, desk_url(tournament))
