"""What the desk's views share: the tournament a director may open, the desk's
address, and running a league write once per form with its refusal shown as a message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse

from league.access import require_director
from league.models import Tournament
from web.once import Outcome

Action = Callable[[], Outcome]


def tournament_or_404(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("club"), pk=pk)


def director_tournament(request: HttpRequest, pk: int) -> Tournament:
    tournament = tournament_or_404(pk)
    require_director(request.user, tournament.club_id)
    return tournament


def desk_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("desk", args=[tournament.pk]) + (f"#{anchor}" if anchor else "")


def is_htmx(request: HttpRequest) -> bool:
    return bool(getattr(request, "htmx", False))


def whole_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
