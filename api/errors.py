"""The API's one exception handler (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``).

Every refusal below the API is a :class:`core.DomainError`; its ``kind`` decides the
HTTP status, in :data:`STATUS_OF_KIND`, and the few codes whose status is not their
kind's are in :data:`STATUS_OF_CODE`, beside it. Every body is
``{"code", "message", "detail", …}`` (:func:`config.error_views.error_body`); the errors
that carry more for a client (a version conflict's current version and the events since,
an imported log's first bad event, a refused value's path, the size limit) add it here.
DRF's own exceptions keep their statuses, with a code of their own; anything else is a
500 (a 503 while the database cannot answer) that shows nothing of the exception."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from config.error_views import DATABASE_DOWN, RETRY_AFTER, error_body, unavailable_body
from core import DomainError, Kind
from games.errors import InvalidLog, VersionConflict
from games.parsers import RequestTooLarge, ValueRefused
from games.selectors import events_for_viewer

STATUS_OF_KIND: dict[Kind, int] = {
    Kind.INVALID: status.HTTP_400_BAD_REQUEST,
    Kind.UNAUTHENTICATED: status.HTTP_401_UNAUTHORIZED,
    Kind.FORBIDDEN: status.HTTP_403_FORBIDDEN,
    Kind.NOT_FOUND: status.HTTP_404_NOT_FOUND,
    Kind.CONFLICT: status.HTTP_409_CONFLICT,
}

# Codes answered with another status than their kind's (documented in docs/api.md).
STATUS_OF_CODE: dict[str, int] = {
    "idempotency_key_reused": status.HTTP_422_UNPROCESSABLE_ENTITY,
    "request_too_large": status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
}

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

logger = logging.getLogger("api.errors")


def status_of(error: DomainError) -> int:
    return STATUS_OF_CODE.get(error.code) or STATUS_OF_KIND[error.kind]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        body = error_body(exc.code, exc.message, **_extra(exc, context))
        return Response(body, status=status_of(exc))
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


def _extra(exc: DomainError, context: dict[str, Any]) -> dict[str, Any]:
    """What the body of ``exc`` says besides its code and message."""
    if isinstance(exc, VersionConflict):
        return {"current_version": exc.current_version, "events_since": _events_since(exc, context)}
    if isinstance(exc, InvalidLog):
        return {"index": exc.index, "event_code": exc.event_code, "event_message": exc.event_message}
    if isinstance(exc, ValueRefused):
        return {"detail": {"path": exc.params["path"]}}
    if isinstance(exc, RequestTooLarge):
        return {"limit": exc.params["limit"]}
    return {}


def _events_since(exc: VersionConflict, context: dict[str, Any]) -> list[dict[str, Any]]:
    """What happened since the caller's version, as the caller may see it."""
    seat = exc.command.get("seat")
    requested = seat if type(seat) is int else None
    return events_for_viewer(context["request"].user, exc.game, after=exc.expected_version, seat=requested)


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
