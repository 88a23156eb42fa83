"""API routes of the games app, mounted at /api/v1/."""

from django.urls import path

from games import views

# No two patterns match the same path; commands, the busiest, are tried first.
urlpatterns = [
    path("games/<int:game_id>/commands", views.GameCommandView.as_view(), name="game-commands"),
    path("games/<int:game_id>", views.GameDetailView.as_view(), name="game-detail"),
    path("games/<int:game_id>/events", views.GameEventsView.as_view(), name="game-events"),
    path("games", views.GameCreateView.as_view(), name="game-create"),
    path("games/import", views.GameImportView.as_view(), name="game-import"),
    path("auth/token", views.TokenView.as_view(), name="api-token"),
    path("games/<int:game_id>/export", views.GameExportView.as_view(), name="game-export"),
]
