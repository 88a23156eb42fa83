"""One exception handler for the whole API: every error body is
``{"code": ..., "message": ..., "detail": ...}`` with a stable ``code``. The refusals of
the game services (:class:`games.services.StoreError`) and of the rules engine
(``EngineError``) are mapped to HTTP here and nowhere else."""

from __future__ import annotations

import logging
from typing import Any

from django.db import InterfaceError, OperationalError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from engine.errors import EngineError
from games.services import IdempotencyKeyReused, InvalidLog, StoreError, VersionConflict


class ApiError(exceptions.APIException):
    """An error with an explicit code, status and optional extra fields in the body."""

    def __init__(self, code: str, message: str, http_status: int = 400, **extra: Any) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = http_status
        self.error_code = code
        self.message = message
        self.extra = extra


_DRF_CODES = {
    exceptions.ParseError: "malformed_json",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid_request",
}


# The status of each StoreError subclass (the rest: 400, the request was refused as sent).
STORE_ERROR_STATUS: dict[type[StoreError], int] = {
    VersionConflict: status.HTTP_409_CONFLICT,
    IdempotencyKeyReused: status.HTTP_422_UNPROCESSABLE_ENTITY,
}


def error_body(code: str, message: str, detail: Any = None, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, "detail": detail if detail is not None else {}, **extra}


# The database cannot answer now (down, restarting, the connection lost; on PostgreSQL also
# a deadlock or serialization failure, which a retry resolves): 503 with Retry-After.
DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER = 30  # seconds


def unavailable_body() -> dict[str, Any]:
    return error_body("service_unavailable", "the service is briefly unavailable; try again shortly")


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApiError):
        return Response(error_body(exc.error_code, exc.message, **exc.extra), status=exc.status_code)
    if isinstance(exc, StoreError):
        return _store_error(exc, context)
    if isinstance(exc, EngineError):
        return Response(error_body(exc.code, exc.message), status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None:
        return unexpected_error_response(exc, context)
    code = next((c for kind, c in _DRF_CODES.items() if isinstance(exc, kind)), "error")
    if isinstance(exc, exceptions.ValidationError):
        message = "The request is not valid; see detail."
        detail: Any = response.data
    else:
        message = str(getattr(exc, "detail", exc))
        detail = {}
    response.data = error_body(code, message, detail)
    return response


def _store_error(exc: StoreError, context: dict[str, Any]) -> Response:
    extra: dict[str, Any] = {}
    if isinstance(exc, VersionConflict):
        extra = {"current_version": exc.current_version, "events_since": _events_since(exc, context)}
    elif isinstance(exc, InvalidLog):
        extra = {"index": exc.index, "event_code": exc.event_code, "event_message": exc.event_message}
    http = next((code for kind, code in STORE_ERROR_STATUS.items() if isinstance(exc, kind)), 400)
    return Response(error_body(exc.code, exc.message, **extra), status=http)


def _events_since(exc: VersionConflict, context: dict[str, Any]) -> list[dict[str, Any]]:
    """What happened since the caller's version, as the caller may see it."""
    # Imported here: games.selectors needs games.access, which raises this module's ApiError.
    from games.selectors import events_for_viewer

    seat = exc.command.get("seat")
    requested = seat if type(seat) is int else None
    return events_for_viewer(context["request"].user, exc.game, after=exc.expected_version, seat=requested)


logger = logging.getLogger("config.api_errors")


def unexpected_error_response(exc: Exception, context: dict[str, Any]) -> Response:
    """A 500 in the API's format for an exception no handler expected (a 503 when the
    database cannot answer): logged with its traceback, the request's transaction rolled
    back, nothing of it shown to the caller."""
    view = context.get("view")
    logger.error("unexpected error in %s", type(view).__name__, exc_info=exc)
    set_rollback()
    if isinstance(exc, DATABASE_DOWN):
        return Response(unavailable_body(), status=503, headers={"Retry-After": str(RETRY_AFTER)})
    body = error_body("internal_error", "the server failed to answer this request")
    return Response(body, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
