"""Tournament archive API: the whole tournament as one JSON document a club can verify."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.views import ApiView, error_responses
from games.access import access_for
from league.access import access_tournament_by_id, sees_drafts
from league.archive import build_archive, tournament_games


class ArchiveSerializer(serializers.Serializer[dict[str, Any]]):
    format = serializers.CharField()
    format_version = serializers.IntegerField()
    exported_at = serializers.DateTimeField()
    club = serializers.JSONField()
    tournament = serializers.JSONField(help_text="The settings: rules, seating, scoring, tiebreaks, seed")
    players = serializers.ListField(child=serializers.JSONField())
    registrations = serializers.ListField(child=serializers.JSONField())
    rounds = serializers.ListField(
        child=serializers.JSONField(),
        help_text="Each round's seating input (request), seed, method, digest, generated and published "
        "tables and byes",
    )
    games = serializers.ListField(child=serializers.JSONField(), help_text="Every game's export document")
    standings = serializers.JSONField(help_text="The final standings, computed from the logs")


class TournamentArchiveView(ApiView):
    @extend_schema(
        operation_id="tournaments_archive",
        responses={200: ArchiveSerializer, **error_responses(403, 404)},
        summary="The tournament archive: settings, registrations, rounds and every game's full log",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = access_tournament_by_id(request.user, tournament_id)
        # The archive holds every game's whole log: each must be exportable by the caller
        # (over, or a physical game the caller records), as GET /games/{id}/export says.
        for game in tournament_games(tournament):
            access_for(request.user, game, for_action="export")
        # draft rounds (their seating) to the club's staff only, as GET …/rounds/{n}
        return Response(build_archive(tournament, drafts=sees_drafts(request.user, tournament.club_id)))
