"""The desk's routes, all in one place (``web.urls`` includes them)."""

from __future__ import annotations

from django.urls import path

from web.desk.corrections import table_corrections
from web.desk.hands import correct_hand
from web.desk.pages import club_page, desk, live_tables
from web.desk.registrations import check_in_all, register, registration_status
from web.desk.rounds import edit_round, generate, publish
from web.desk.tournament import close, tournament_edit, tournament_new

urlpatterns = [
    path("clubs/<slug:slug>/", club_page, name="club"),
    path("clubs/<slug:slug>/tournaments/new", tournament_new, name="tournament-new"),
    path("tournaments/<int:pk>/desk", desk, name="desk"),
    path("tournaments/<int:pk>/edit", tournament_edit, name="tournament-edit"),
    path("tournaments/<int:pk>/desk/register", register, name="desk-register"),
    path("tournaments/<int:pk>/desk/check-in-all", check_in_all, name="desk-check-in-all"),
    path(
        "tournaments/<int:pk>/desk/registrations/<int:registration_id>",
        registration_status,
        name="desk-registration",
    ),
    path("tournaments/<int:pk>/desk/rounds", generate, name="desk-generate"),
    path("tournaments/<int:pk>/desk/rounds/<int:number>/edit", edit_round, name="desk-edit-round"),
    path("tournaments/<int:pk>/desk/rounds/<int:number>/publish", publish, name="desk-publish"),
    path("tournaments/<int:pk>/desk/rounds/<int:number>/live", live_tables, name="desk-live"),
    path("tournaments/<int:pk>/desk/tables/<int:table_id>", table_corrections, name="desk-table"),
    path("tournaments/<int:pk>/desk/close", close, name="desk-close"),
    path(
        "tournaments/<int:pk>/desk/tables/<int:table_id>/hands/<int:number>",
        correct_hand,
        name="desk-correct-hand",
    ),
]
