"""League API: clubs, their players and tournaments, registrations and rounds.

Who may do what: anyone (signed in or not) reads clubs, players, tournaments,
registrations and published rounds; a draft round is shown to the club's directors and
scorekeepers only. Every write needs a signed-in director of the club (a scorekeeper
records the club's games through the game API). Refusals come in that order: 401 (not
signed in), 404 (no such club, tournament, player or round), 403 (not a director), then
what is wrong with the body (400) or with the state (409).

Every write takes an ``Idempotency-Key``: a retry with the same key and body is
answered from the original response and writes nothing (``LeagueWrite``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Count
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import Serializer

from api.games import game_create_arguments, game_created_response
from api.idempotency import IDEMPOTENCY_HEADER, idempotent
from api.views import ApiView, error_responses, json_object, require_user
from games import services as game_services
from games.models import Game
from games.serializers import ErrorSerializer, GameCreatedSerializer, GameCreateSerializer
from league import services
from league.access import (
    access_club_by_id,
    access_club_player_by_id,
    access_registration_by_player,
    access_round_by_number,
    access_tournament_by_id,
    require_director,
    require_recorder,
    sees_drafts,
)
from league.models import Club, ClubGame, Round
from league.selectors import PUBLIC_TOURNAMENTS, visible_tournaments
from league.serializers import (
    ClubSerializer,
    PlayerCreateSerializer,
    PlayerSerializer,
    PublishSerializer,
    RegistrationCreateSerializer,
    RegistrationSerializer,
    RegistrationUpdateSerializer,
    RoundCreateSerializer,
    RoundSerializer,
    RoundSummarySerializer,
    RoundUpdateSerializer,
    TournamentCreateSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
    present_club,
    present_player,
    present_registration,
    present_round,
    present_tournament,
)

LEAGUE_ERRORS = {
    400: "Invalid body, or a seating the rules of seating refuse (code names which)",
    401: "Not signed in",
    403: "Only the club's directors may do this (permission_denied)",
    404: "No such club, tournament, player or round",
    409: "Not in this state (round_not_complete, round_in_draft, round_not_draft, already_registered, …)",
    413: "Body larger than the limit (request_too_large)",
    422: "Idempotency-Key already used for a different request (idempotency_key_reused)",
}


def league_errors(*statuses: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer, description=LEAGUE_ERRORS[code]) for code in statuses}


WRITE_ERRORS = (400, 401, 403, 404, 409, 413, 422)


def _body(request: Request, shape: type[Serializer[None]]) -> dict[str, Any]:
    body = shape(data=json_object(request.data))
    body.is_valid(raise_exception=True)
    data: dict[str, Any] = dict(body.validated_data)
    return data


# --- clubs and players --------------------------------------------------------------------


class ClubListView(ApiView):
    @extend_schema(operation_id="clubs_list", responses={200: ClubSerializer(many=True)}, summary="The clubs")
    def get(self, request: Request) -> Response:
        clubs = Club.objects.annotate(
            player_count=Count("players", distinct=True),
            tournament_count=Count("tournaments", filter=PUBLIC_TOURNAMENTS, distinct=True),
        ).order_by("name")
        return Response([present_club(c) for c in clubs])


class ClubDetailView(ApiView):
    @extend_schema(
        operation_id="clubs_retrieve", responses={200: ClubSerializer, **league_errors(404)}, summary="A club"
    )
    def get(self, request: Request, club_id: int) -> Response:
        return Response(present_club(access_club_by_id(request.user, club_id)))


class ClubPlayersView(ApiView):
    @extend_schema(
        operation_id="clubs_players_list",
        responses={200: PlayerSerializer(many=True), **league_errors(404)},
        summary="The club's players",
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = access_club_by_id(request.user, club_id)
        return Response([present_player(p) for p in club.players.order_by("name")])

    @extend_schema(
        operation_id="clubs_players_create",
        request=PlayerCreateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: PlayerSerializer, **league_errors(*WRITE_ERRORS)},
        summary="Add a player to the club (directors)",
    )
    def post(self, request: Request, club_id: int) -> Response:
        require_user(request)
        club = access_club_by_id(request.user, club_id)
        require_director(request.user, club.pk)
        data = _body(request, PlayerCreateSerializer)
        return idempotent(request, lambda: present_player(services.add_player(club, data["name"])))


class ClubGameCreateView(ApiView):
    @extend_schema(
        operation_id="clubs_games_create",
        request=GameCreateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: GameCreatedSerializer, **error_responses(400, 401, 403, 404, 413, 422)},
        summary="Open a game under a club (its directors and scorekeepers may record it)",
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = access_club_by_id(request.user, club_id)
        if request.user.is_authenticated:  # else game_create_arguments says not_authenticated
            require_recorder(request.user, club.pk)

        def link(game: Game) -> None:
            ClubGame.objects.create(club=club, game=game)

        arguments = game_create_arguments(request)
        result = game_services.create_game(
            **arguments, context={"club": club.pk}, after_create=link, followed=True
        )
        return game_created_response(request, result)


# --- tournaments --------------------------------------------------------------------------


class ClubTournamentsView(ApiView):
    @extend_schema(
        operation_id="clubs_tournaments_list",
        responses={200: TournamentSerializer(many=True), **league_errors(404)},
        summary="The club's tournaments and league seasons",
    )
    def get(self, request: Request, club_id: int) -> Response:
        club = access_club_by_id(request.user, club_id)
        # the round counts in the same query, not one more per tournament
        tournaments = visible_tournaments(request.user, club).annotate(rounds_generated=Count("round_set"))
        return Response([present_tournament(t) for t in tournaments])

    @extend_schema(
        operation_id="clubs_tournaments_create",
        request=TournamentCreateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: TournamentSerializer, **league_errors(*WRITE_ERRORS)},
        summary="Create a tournament or league season (directors)",
    )
    def post(self, request: Request, club_id: int) -> Response:
        require_user(request)
        club = access_club_by_id(request.user, club_id)
        require_director(request.user, club.pk)
        data = _body(request, TournamentCreateSerializer)
        return idempotent(
            request, lambda: present_tournament(services.create_tournament(club, data, request.user))
        )


class TournamentDetailView(ApiView):
    @extend_schema(
        operation_id="tournaments_retrieve",
        responses={200: TournamentSerializer, **league_errors(404)},
        summary="A tournament",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(present_tournament(access_tournament_by_id(request.user, tournament_id)))

    @extend_schema(
        operation_id="tournaments_partial_update",
        request=TournamentUpdateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={200: TournamentSerializer, **league_errors(*WRITE_ERRORS)},
        summary="Change a tournament's settings, or close it with status finished (directors)",
    )
    def patch(self, request: Request, tournament_id: int) -> Response:
        require_user(request)
        tournament = access_tournament_by_id(request.user, tournament_id)
        require_director(request.user, tournament.club_id)
        data = _body(request, TournamentUpdateSerializer)
        return idempotent(
            request,
            lambda: present_tournament(services.update_tournament(tournament, data, request.user)),
            code=200,
        )


# --- registrations ------------------------------------------------------------------------


class RegistrationsView(ApiView):
    @extend_schema(
        operation_id="tournaments_registrations_list",
        responses={200: RegistrationSerializer(many=True), **league_errors(404)},
        summary="Who is registered, and their status",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = access_tournament_by_id(request.user, tournament_id)
        rows = tournament.registrations.select_related("player").order_by("id")
        return Response([present_registration(r) for r in rows])

    @extend_schema(
        operation_id="tournaments_registrations_create",
        request=RegistrationCreateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: RegistrationSerializer, **league_errors(*WRITE_ERRORS)},
        summary='Register a club player ({"player": id}) or a new one ({"name": …}) (directors)',
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        require_user(request)
        tournament = access_tournament_by_id(request.user, tournament_id)
        require_director(request.user, tournament.club_id)
        data = _body(request, RegistrationCreateSerializer)
        player = None
        if "player" in data:
            player = access_club_player_by_id(request.user, tournament.club_id, data["player"])

        def write() -> dict[str, Any]:
            registration = services.register(
                tournament,
                player=player,
                name=data.get("name"),
                from_round=data.get("from_round"),
                seed_number=data.get("seed_number"),
            )
            return present_registration(registration)

        return idempotent(request, write)


class RegistrationDetailView(ApiView):
    @extend_schema(
        operation_id="tournaments_registrations_partial_update",
        request=RegistrationUpdateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={200: RegistrationSerializer, **league_errors(*WRITE_ERRORS)},
        summary="Check a player in, drop or withdraw them (directors)",
    )
    def patch(self, request: Request, tournament_id: int, player_id: int) -> Response:
        require_user(request)
        tournament = access_tournament_by_id(request.user, tournament_id)
        require_director(request.user, tournament.club_id)
        registration = access_registration_by_player(request.user, tournament, player_id)
        data = _body(request, RegistrationUpdateSerializer)

        def write() -> dict[str, Any]:
            changed = services.set_registration_status(
                registration,
                data["status"],
                dropped_after=data.get("dropped_after"),
                seed_number=data.get("seed_number"),
                from_round=data.get("from_round"),
            )
            return present_registration(changed)

        return idempotent(request, write, code=200)


# --- rounds -------------------------------------------------------------------------------

ROUND_NUMBER = OpenApiParameter("number", int, OpenApiParameter.PATH, description="The round's number")


class RoundsView(ApiView):
    @extend_schema(
        operation_id="tournaments_rounds_list",
        responses={200: RoundSummarySerializer(many=True), **league_errors(404)},
        summary="The tournament's rounds (drafts to the club's staff only)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        tournament = access_tournament_by_id(request.user, tournament_id)
        rounds = tournament.round_set.order_by("number")
        if not sees_drafts(request.user, tournament.club_id):
            rounds = rounds.exclude(status=Round.Status.DRAFT)
        return Response([{"number": r.number, "status": r.status} for r in rounds])

    @extend_schema(
        operation_id="tournaments_rounds_create",
        request=RoundCreateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: RoundSerializer, **league_errors(*WRITE_ERRORS)},
        summary="Generate the next round as a draft (directors)",
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        require_user(request)
        tournament = access_tournament_by_id(request.user, tournament_id)
        require_director(request.user, tournament.club_id)
        data = _body(request, RoundCreateSerializer)
        manual = None
        if "tables" in data:
            manual = {"tables": data["tables"], "byes": data.get("byes", [])}

        def write() -> dict[str, Any]:
            round_ = services.generate_round(
                tournament, request.user, force_reason=data.get("force_reason", ""), manual=manual
            )
            return present_round(round_)

        return idempotent(request, write)


class RoundDetailView(ApiView):
    @extend_schema(
        operation_id="tournaments_rounds_retrieve",
        responses={200: RoundSerializer, **league_errors(404)},
        summary="A round: its tables, seats, games, byes and notes",
    )
    def get(self, request: Request, tournament_id: int, number: int) -> Response:
        tournament = access_tournament_by_id(request.user, tournament_id)
        return Response(present_round(access_round_by_number(request.user, tournament, number)))

    @extend_schema(
        operation_id="tournaments_rounds_partial_update",
        request=RoundUpdateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={200: RoundSerializer, **league_errors(*WRITE_ERRORS)},
        summary="Edit a draft: swap two players, move one, or give all the tables (directors)",
    )
    def patch(self, request: Request, tournament_id: int, number: int) -> Response:
        require_user(request)
        tournament = access_tournament_by_id(request.user, tournament_id)
        round_ = access_round_by_number(request.user, tournament, number)
        require_director(request.user, tournament.club_id)
        data = _body(request, RoundUpdateSerializer)
        return idempotent(
            request, lambda: present_round(services.edit_draft(round_, data, request.user)), code=200
        )


class RoundPublishView(ApiView):
    @extend_schema(
        operation_id="tournaments_rounds_publish",
        request=PublishSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: RoundSerializer, **league_errors(*WRITE_ERRORS)},
        summary="Publish a draft: one game per table (directors)",
    )
    def post(self, request: Request, tournament_id: int, number: int) -> Response:
        require_user(request)
        tournament = access_tournament_by_id(request.user, tournament_id)
        round_ = access_round_by_number(request.user, tournament, number)
        require_director(request.user, tournament.club_id)
        data = _body(request, PublishSerializer)

        def write() -> dict[str, Any]:
            published = services.publish_round(round_, request.user, edit_reason=data.get("edit_reason"))
            return present_round(published)

        return idempotent(request, write)
