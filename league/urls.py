from django.urls import path

from league.api import ClubGameCreateView

urlpatterns = [
    path("clubs/<int:club_id>/games", ClubGameCreateView.as_view(), name="club-games-create"),
]
