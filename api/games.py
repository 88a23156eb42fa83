"""The game API: one view per operation. Views parse shapes, ask games.access (through
the one submit path, :func:`games.services.submit_as`, for commands), call one service or
selector and present the result; the rules live in the engine."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response

import engine
from api.idempotency import IDEMPOTENCY_HEADER, idempotency_key, well_formed_idempotency_key
from api.views import QUERY_NUMBER, ApiView, error_responses, query_number, require_user, source_of
from games import selectors, services, store
from games.access import access_for, access_game_by_id, access_game_for_command, authorize_command
from games.parsers import LargeJSONParser, LimitedJSONParser
from games.redaction import redact_events
from games.serializers import (
    CommandRequestSerializer,
    CommandResultSerializer,
    EventListSerializer,
    ExportSerializer,
    GameCreatedSerializer,
    GameCreateSerializer,
    GameStateSerializer,
    ImportSerializer,
    InvalidLogSerializer,
    TokenRequestSerializer,
    TokenSerializer,
    VersionConflictSerializer,
)

SEAT_PARAMETER = OpenApiParameter(
    "seat", QUERY_NUMBER, OpenApiParameter.QUERY, description="Which of the caller's seats to view"
)


def _seat_param(request: Request) -> int | None:
    return query_number(request, "seat")


_COMMAND_FIELDS = frozenset(CommandRequestSerializer().fields)


def _command_request(data: Any) -> tuple[int, dict[str, Any]]:
    """``expected_version`` and the command (in the engine's wire form) of a command
    body. The usual body (a whole number and an object, nothing else) is taken as it is;
    anything else goes through ``CommandRequestSerializer``, which accepts the same and words the
    errors. A command the engine cannot read is its ``malformed_command``."""
    expected, command = None, None
    if type(data) is dict and data.keys() <= _COMMAND_FIELDS:  # else the serializer names the others
        expected, command = data.get("expected_version"), data.get("command")
    if not (type(expected) is int and expected >= 0 and type(command) is dict):
        body = CommandRequestSerializer(data=data)
        body.is_valid(raise_exception=True)
        expected, command = body.validated_data["expected_version"], body.validated_data["command"]
    return expected, engine.command_to_dict(engine.command_from_dict(command))


def game_create_arguments(request: Request) -> dict[str, Any]:
    """The keyword arguments of :func:`games.services.create_game` a
    ``GameCreateSerializer`` body gives, the caller (who must be signed in) as owner."""
    require_user(request)
    body = GameCreateSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    data = body.validated_data
    return {
        "ruleset": services.ruleset_named(data["preset"], data["options"]),
        "mode": data["mode"],
        "seats": [services.SeatSpec(s.get("name"), s.get("user"), s.get("bot")) for s in data["seats"]],
        "first_dealer": data["first_dealer"],
        "stake": Fraction(data["stake"]),
        "owner": request.user,
        "source": source_of(request),
        "idempotency_key": idempotency_key(request),
        "bot_delay": None if data.get("bot_delay") is None else float(data["bot_delay"]),
    }


def created_body(request: Request, result: services.SubmitResult) -> dict[str, Any]:
    """The 201 body of a new game, as its creator may see it."""
    access = access_for(request.user, result.game, for_action="read")  # the row just written
    seat = access.view_seat(None, result.state.to_move)
    return {"id": result.game.pk, **_written(access, result, seat)}


def game_created_response(request: Request, result: services.SubmitResult) -> Response:
    location = {"Location": f"{result.game.pk}"}
    return Response(created_body(request, result), status=status.HTTP_201_CREATED, headers=location)


def _written(access: Any, result: services.SubmitResult, seat: int | None) -> dict[str, Any]:
    events = redact_events(
        result.events,
        state_before=result.state_before,
        final_state=result.state,
        seat=seat,
        steps=result.steps,
    )
    return {
        "version": result.version,
        "events": events,
        "state": selectors.state_payload(access, result.state, seat=seat),
    }


class GameCreateView(ApiView):
    @extend_schema(
        operation_id="games_create",
        request=GameCreateSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: GameCreatedSerializer, **error_responses(400, 401, 403, 413, 422)},
        summary="Open a game (the caller owns it)",
    )
    def post(self, request: Request) -> Response:
        result = services.create_game(**game_create_arguments(request))
        return game_created_response(request, result)


class GameDetailView(ApiView):
    @extend_schema(
        operation_id="games_retrieve",
        parameters=[SEAT_PARAMETER],
        responses={200: GameStateSerializer, **error_responses(404)},
        summary="The game as the caller may see it",
    )
    def get(self, request: Request, game_id: int) -> Response:
        access = access_game_by_id(request.user, game_id, for_action="read")
        state = store.load_state(access.game)
        seat = access.view_seat(_seat_param(request), state.to_move)
        return Response(selectors.state_payload(access, state, seat=seat))


class GameEventsView(ApiView):
    @extend_schema(
        operation_id="games_events",
        parameters=[
            OpenApiParameter(
                "after", QUERY_NUMBER, OpenApiParameter.QUERY, description="Events with seq > after"
            ),
            SEAT_PARAMETER,
        ],
        responses={200: EventListSerializer, **error_responses(400, 404)},
        summary="The game's event log, redacted for the caller",
    )
    def get(self, request: Request, game_id: int) -> Response:
        access = access_game_by_id(request.user, game_id, for_action="read")
        after = query_number(request, "after") or 0
        seat = access.view_seat(_seat_param(request))
        events, state = selectors.viewer_events(access.game, after=after, seat=seat)
        return Response({"version": state.version, "events": events})


class GameCommandView(ApiView):
    @extend_schema(
        operation_id="games_commands",
        request=CommandRequestSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            201: CommandResultSerializer,
            409: OpenApiResponse(VersionConflictSerializer, description="expected_version is stale"),
            **error_responses(400, 401, 403, 404, 413, 422),
        },
        summary="Submit a command at an expected version",
    )
    def post(self, request: Request, game_id: int) -> Response:
        # Who is refused (401, 404, 403) comes before what is wrong with the body. The row
        # is read with what the write needs of the log (whether the key was used, the
        # events the cached state lacks): one statement on PostgreSQL.
        key = well_formed_idempotency_key(request)
        access = access_game_for_command(request.user, game_id, idempotency_key=key)
        expected_version, command = _command_request(request.data)
        # and who may send this command before a malformed Idempotency-Key (submit_as asks
        # again, from what this access already knows: no query)
        authorize_command(access, command)
        result = services.submit_as(
            request.user,
            access,
            command,
            expected_version=expected_version,
            idempotency_key=idempotency_key(request),
            source=source_of(request),
        )
        # A player holding several seats (hot seat) gets the view of the one to move next.
        seat = access.view_seat(None, result.state.to_move)
        return Response(_written(access, result, seat), status=status.HTTP_201_CREATED)


class GameExportView(ApiView):
    @extend_schema(
        operation_id="games_export",
        responses={200: ExportSerializer, **error_responses(403, 404)},
        summary="The whole log (once the game is over, or a physical game to its recorders)",
    )
    def get(self, request: Request, game_id: int) -> Response:
        access = access_game_by_id(request.user, game_id, for_action="export")
        return Response(selectors.export_document(access.game))


class GameImportView(ApiView):
    parser_classes = [LargeJSONParser]

    @extend_schema(
        operation_id="games_import",
        request=ImportSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            201: GameCreatedSerializer,
            400: OpenApiResponse(InvalidLogSerializer, description="invalid_log names the first bad event"),
            **error_responses(401, 413, 422),
        },
        summary="Store an exported log as a new game (the caller owns it)",
    )
    def post(self, request: Request) -> Response:
        require_user(request)
        body = ImportSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        result = services.import_game(
            log_events=body.validated_data["events"],
            owner=request.user,
            source=source_of(request),
            idempotency_key=idempotency_key(request),
        )
        return Response(created_body(request, result), status=status.HTTP_201_CREATED)


class TokenView(ObtainAuthToken):
    authentication_classes = ()
    parser_classes = [LimitedJSONParser]

    @extend_schema(
        operation_id="auth_token",
        request=TokenRequestSerializer,
        responses={200: TokenSerializer, **error_responses(400)},
        summary="Exchange a username and password for an API token",
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)
