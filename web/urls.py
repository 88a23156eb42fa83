"""The site's human URLs. Each audience's pages live in a module of ``web.views`` or a
package of ``web`` (``web.desk``, ``web.record``, ``web.paper``, …) with its own
``urlpatterns``; they are gathered here."""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("", include("web.views.account")),
    path("", include("web.views.games")),
    path("", include("web.views.play")),
    path("", include("web.views.public")),
    path("", include("web.record.page")),
    path("", include("web.desk.urls")),
    path("", include("web.views.results")),
    path("", include("web.paper.views")),
    path("", include("web.projector.views")),
    path("", include("web.people.views")),
    path("", include("web.people.join")),
    path("", include("web.people.checkin")),
    path("", include("web.mine")),
]
