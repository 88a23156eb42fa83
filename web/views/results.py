"""Results that stay: search a club's players and tournaments by name (case and accents
ignored, on every database: :mod:`league.search`). The club page lists the finished
tournaments and leagues with their winners (:mod:`league.results`)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.views.decorators.http import require_safe

from league.models import Club
from league.search import MAX_QUERY_LENGTH, search_club


@require_safe
def club_search(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    text = request.GET.get("q", "").strip()[:MAX_QUERY_LENGTH]
    found = search_club(club, text, user=request.user) if text else None
    return render(request, "public/search.html", {"club": club, "q": text, "found": found})


urlpatterns = [path("clubs/<slug:slug>/search", club_search, name="club-search")]
