"""The game API: one view per operation. Views parse shapes, ask games.access, call
one service or selector and present the result; the rules live in the engine."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import engine
from config.api_errors import ApiError
from games import selectors, services, store
from games.access import access_for, access_game_by_id, authorize_command
from games.models import Source
from games.parsers import LargeJSONParser, LimitedJSONParser
from games.redaction import redact_events
from games.serializers import (
    CommandRequestSerializer,
    CommandResultSerializer,
    ErrorSerializer,
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

IDEMPOTENCY_KEY_PATTERN = r"^[A-Za-z0-9._~+/=-]{1,200}$"
IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)
# The largest ?seat= and ?after= taken: more digits than any game has seats or events.
MAX_QUERY_NUMBER = 10**9

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN, "minLength": 1, "maxLength": 200},
    OpenApiParameter.HEADER,
    description="1-200 characters of A-Z a-z 0-9 . _ ~ + / = -, new for every write. "
    "A retry with the same key and body returns the original 201 body and writes nothing.",
)
QUERY_NUMBER = {"type": "integer", "minimum": 0, "maximum": MAX_QUERY_NUMBER}
SEAT_PARAMETER = OpenApiParameter(
    "seat", QUERY_NUMBER, OpenApiParameter.QUERY, description="Which of the caller's seats to view"
)


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    described = {
        400: "Malformed JSON, invalid body, or a command the rules refuse (code names which)",
        401: "Not signed in",
        403: "The caller may not do this (code names why)",
        404: "No such game",
        413: "Body larger than the limit (request_too_large)",
        422: "Idempotency-Key already used for a different command (idempotency_key_reused)",
    }
    return {code: OpenApiResponse(ErrorSerializer, description=described[code]) for code in statuses}


def _idempotency_key(request: Request) -> str | None:
    key: str | None = request.META.get("HTTP_IDEMPOTENCY_KEY")  # request.headers would parse every header
    if key is None:
        return None
    if not IDEMPOTENCY_KEY.match(key):
        raise ApiError(
            "invalid_idempotency_key",
            "Idempotency-Key must be 1-200 characters of A-Z a-z 0-9 . _ ~ + / = -",
        )
    return key


def _source(request: Request) -> str:
    return Source.API if isinstance(request.successful_authenticator, TokenAuthentication) else Source.WEB


def _require_user(request: Request) -> None:
    if not request.user.is_authenticated:
        raise ApiError("not_authenticated", "sign in (session or token) first", status.HTTP_401_UNAUTHORIZED)


def query_number(request: Request, name: str) -> int | None:
    """The query parameter ``name`` as a number from 0 to ``MAX_QUERY_NUMBER``, or None
    when absent. ASCII digits only: ``str.isdigit`` also takes "²", which ``int`` refuses."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 10 and int(raw) <= MAX_QUERY_NUMBER):
        raise ApiError("invalid_request", f"{name} must be a number from 0 to {MAX_QUERY_NUMBER}")
    return int(raw)


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
    _require_user(request)
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
        "source": _source(request),
        "idempotency_key": _idempotency_key(request),
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


class ApiView(APIView):
    # The authenticators are DRF's, token first (settings.REST_FRAMEWORK).
    parser_classes = [LimitedJSONParser]

    def www_authenticate(self) -> str:
        return 'Token realm="api"'

    def get_authenticate_header(self, request: Request) -> str:
        return self.www_authenticate()


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
        # Who is refused (401, 404, 403) comes before what is wrong with the body.
        access = access_game_by_id(request.user, game_id, for_action="command")
        expected_version, command = _command_request(request.data)
        authorize_command(access, command)
        result = services.submit_command(
            game=access.game,
            command=command,
            actor=request.user,
            source=_source(request),
            expected_version=expected_version,
            idempotency_key=_idempotency_key(request),
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
        _require_user(request)
        body = ImportSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        result = services.import_game(
            log_events=body.validated_data["events"],
            owner=request.user,
            source=_source(request),
            idempotency_key=_idempotency_key(request),
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
