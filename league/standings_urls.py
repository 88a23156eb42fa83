from django.urls import path

from league.standings_api import (
    TournamentStandingsChangesView,
    TournamentStandingsCsvView,
    TournamentStandingsView,
)

urlpatterns = [
    path(
        "tournaments/<int:tournament_id>/standings",
        TournamentStandingsView.as_view(),
        name="tournament-standings",
    ),
    path(
        "tournaments/<int:tournament_id>/standings.csv",
        TournamentStandingsCsvView.as_view(),
        name="tournament-standings-csv",
    ),
    path(
        "tournaments/<int:tournament_id>/standings/changes",
        TournamentStandingsChangesView.as_view(),
        name="tournament-standings-changes",
    ),
]
