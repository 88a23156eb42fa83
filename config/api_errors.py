"""One exception handler for the whole API: every error body is
``{"code": ..., "message": ..., "detail": ...}`` with a stable ``code``."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from engine.errors import EngineError


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


def error_body(code: str, message: str, detail: Any = None, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, "detail": detail if detail is not None else {}, **extra}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApiError):
        return Response(error_body(exc.error_code, exc.message, **exc.extra), status=exc.status_code)
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


logger = logging.getLogger("config.api_errors")


def unexpected_error_response(exc: Exception, context: dict[str, Any]) -> Response:
    """A 500 in the API's format for an exception no handler expected: logged with its
    traceback, the request's transaction rolled back, nothing of it shown to the caller."""
    view = context.get("view")
    logger.error("unexpected error in %s", type(view).__name__, exc_info=exc)
    set_rollback()
    body = error_body("internal_error", "the server failed to answer this request")
    return Response(body, status=status.HTTP_500_INTERNAL_SERVER_ERROR)
