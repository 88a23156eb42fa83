"""Every API route, mounted at /api/v1/ (``config.urls``). No two patterns match the
same path, so their order only decides how many a request is tried against: the
commands, the busiest, come first."""

from django.urls import path

from api import archive, games, league, ratings, standings

T = "tournaments/<int:tournament_id>"

GAME_ROUTES = [
    path("games/<int:game_id>/commands", games.GameCommandView.as_view(), name="game-commands"),
    path("games/<int:game_id>", games.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/events", games.GameEventsView.as_view(), name="game-events"),
    path("games", games.GameCreateView.as_view(), name="game-create"),
    path("games/import", games.GameImportView.as_view(), name="game-import"),
    path("auth/token", games.TokenView.as_view(), name="api-token"),
    path("games/<int:game_id>/export", games.GameExportView.as_view(), name="game-export"),
]

LEAGUE_ROUTES = [
    path("clubs", league.ClubListView.as_view(), name="clubs"),
    path("clubs/<int:club_id>", league.ClubDetailView.as_view(), name="club-detail"),
    path("clubs/<int:club_id>/players", league.ClubPlayersView.as_view(), name="club-players"),
    path("clubs/<int:club_id>/games", league.ClubGameCreateView.as_view(), name="club-games-create"),
    path("clubs/<int:club_id>/tournaments", league.ClubTournamentsView.as_view(), name="club-tournaments"),
    path(T, league.TournamentDetailView.as_view(), name="tournament-detail"),
    path(f"{T}/registrations", league.RegistrationsView.as_view(), name="tournament-registrations"),
    path(
        f"{T}/registrations/<int:player_id>",
        league.RegistrationDetailView.as_view(),
        name="tournament-registration",
    ),
    path(f"{T}/rounds", league.RoundsView.as_view(), name="tournament-rounds"),
    path(f"{T}/rounds/<int:number>", league.RoundDetailView.as_view(), name="tournament-round"),
    path(
        f"{T}/rounds/<int:number>/publish", league.RoundPublishView.as_view(), name="tournament-round-publish"
    ),
]

RESULT_ROUTES = [
    path(f"{T}/standings", standings.TournamentStandingsView.as_view(), name="tournament-standings"),
    path(
        f"{T}/standings.csv", standings.TournamentStandingsCsvView.as_view(), name="tournament-standings-csv"
    ),
    path(
        f"{T}/standings/changes",
        standings.TournamentStandingsChangesView.as_view(),
        name="tournament-standings-changes",
    ),
    path("players/<int:player_id>/ratings", ratings.PlayerRatingsView.as_view(), name="player-ratings"),
    path(f"{T}/archive", archive.TournamentArchiveView.as_view(), name="tournament-archive"),
]

urlpatterns = [*GAME_ROUTES, *LEAGUE_ROUTES, *RESULT_ROUTES]
