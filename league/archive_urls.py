"""Routes of the ratings and the tournament archive (included under /api/v1/)."""

from django.urls import path

from league.ratings_api import PlayerRatingsView

urlpatterns = [
    path("players/<int:player_id>/ratings", PlayerRatingsView.as_view(), name="player-ratings"),
]
