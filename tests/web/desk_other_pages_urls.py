"""A URL configuration for the desk's tests: the site's routes plus stand-ins for pages
other issues add (the scorekeeper's table page, the public tournament page, the standings
CSV and the archive), so the desk's links to them can be checked before they exist."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as site_urlpatterns


def stand_in(request: HttpRequest, **kwargs: int) -> HttpResponse:
    return HttpResponse("stand-in")


urlpatterns = [
    path("api/v1/tournaments/<int:pk>/standings.csv", stand_in),
    path("api/v1/tournaments/<int:pk>/archive", stand_in),
    path("tables/<int:pk>/record", stand_in),
    path("tournaments/<int:pk>/", stand_in),
    *site_urlpatterns,
]
