"""What the desk's views share: the tournament a director may open, the desk's
address, and running a league write once per form with its refusal shown as a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from core import DomainError
from league.access import require_director
from league.models import Tournament
from web.forms import BadField
from web.once import Outcome, once
from web.refusals import words

Action = Callable[[], Outcome]


def tournament_or_404(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), pk=pk)


def director_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = tournament_or_404(pk)
    require_director(request.user, tournament.club_id)
    return tournament


def desk_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("desk", args=[tournament.pk]) + (f"#{anchor}" if anchor else "")


def act(request: HttpRequest, scope: str, action: Action, fallback: str) -> HttpResponse:
    """Run a league write once per form; a refusal is shown as a message (nothing changed)."""
    try:
        outcome = once(request, scope, action)
    except DomainError as exc:  # league.services.LeagueError among them
        messages.error(request, words(exc))
        return redirect(fallback)
    if outcome.message:
        messages.success(request, outcome.message)
    return redirect(outcome.location)


def refused(request: HttpRequest, exc: BadField, back: str) -> HttpResponse:
    """A bad posted field: said (naming the field), nothing changed."""
    messages.error(request, exc.message)
    return redirect(back)


def is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def whole_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
