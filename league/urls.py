from django.urls import path

from league import api

T = "tournaments/<int:tournament_id>"

urlpatterns = [
    path("clubs", api.ClubListView.as_view(), name="clubs"),
    path("clubs/<int:club_id>", api.ClubDetailView.as_view(), name="club-detail"),
    path("clubs/<int:club_id>/players", api.ClubPlayersView.as_view(), name="club-players"),
    path("clubs/<int:club_id>/games", api.ClubGameCreateView.as_view(), name="club-games-create"),
    path("clubs/<int:club_id>/tournaments", api.ClubTournamentsView.as_view(), name="club-tournaments"),
    path(T, api.TournamentDetailView.as_view(), name="tournament-detail"),
    path(f"{T}/registrations", api.RegistrationsView.as_view(), name="tournament-registrations"),
    path(
        f"{T}/registrations/<int:player_id>",
        api.RegistrationDetailView.as_view(),
        name="tournament-registration",
    ),
    path(f"{T}/rounds", api.RoundsView.as_view(), name="tournament-rounds"),
    path(f"{T}/rounds/<int:number>", api.RoundDetailView.as_view(), name="tournament-round"),
    path(f"{T}/rounds/<int:number>/publish", api.RoundPublishView.as_view(), name="tournament-round-publish"),
]
