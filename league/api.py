"""League API: club-scoped operations that build on the games API."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from config.api_errors import ApiError
from games import services
from games.models import Game
from games.serializers import GameCreatedSerializer, GameCreateSerializer
from games.views import (
    IDEMPOTENCY_HEADER,
    ApiView,
    error_responses,
    game_create_arguments,
    game_created_response,
)
from league.models import Club, ClubGame
from league.selectors import is_club_recorder


class ClubGameCreateView(ApiView):
    @extend_schema(
        operation_id="clubs_games_create",
        request=GameCreateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: GameCreatedSerializer, **error_responses(400, 401, 403, 404, 413, 422)},
        summary="Open a game under a club (its directors and scorekeepers may record it)",
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = Club.objects.filter(pk=club_id).first()
        if club is None:
            raise ApiError("not_found", f"there is no club {club_id}", 404)
        user = request.user
        if user.is_authenticated and not is_club_recorder(user.pk, club.pk):
            raise ApiError(
                "permission_denied", "only the club's directors and scorekeepers open its games", 403
            )

        def link(game: Game) -> None:
            ClubGame.objects.create(club=club, game=game)

        arguments = game_create_arguments(request)
        result = services.create_game(**arguments, context={"club": club.pk}, after_create=link)
        return game_created_response(request, result)
