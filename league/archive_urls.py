"""Routes of the ratings and the tournament archive (included under /api/v1/)."""

from django.urls import path

from league.archive_api import TournamentArchiveView
from league.ratings_api import PlayerRatingsView

urlpatterns = [
    path("players/<int:player_id>/ratings", PlayerRatingsView.as_view(), name="player-ratings"),
    path(
        "tournaments/<int:tournament_id>/archive", TournamentArchiveView.as_view(), name="tournament-archive"
    ),
]
