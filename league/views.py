from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from engine.rules import PRESETS
from games.selectors import recent_games
from league.selectors import clubs_with_player_counts


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "home.html",
        {"clubs": clubs_with_player_counts(), "presets": sorted(PRESETS), "games": recent_games(10)},
    )
