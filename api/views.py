"""What every API view shares: the base view and the request helpers.

One API view per operation: it parses the shapes (serializers and these helpers), asks
the access modules (``games.access``, ``league.access``), calls one service or selector
and presents the result. A refusal anywhere is a :class:`core.DomainError` that
``api.errors`` answers; nothing here picks a status."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework.authentication import TokenAuthentication
from rest_framework.request import Request
from rest_framework.views import APIView

from core import DomainError
from games.models import Source
from games.parsers import LimitedJSONParser
from games.serializers import ErrorSerializer
from league.access import require_signed_in

# The largest number a query parameter (?seat=, ?after=) takes: more digits than any game
# has seats or events.
MAX_QUERY_NUMBER = 10**9
QUERY_NUMBER = {"type": "integer", "minimum": 0, "maximum": MAX_QUERY_NUMBER}

ERROR_DESCRIPTIONS = {
    400: "Malformed JSON, invalid body, or a command the rules refuse (code names which)",
    401: "Not signed in",
    403: "The caller may not do this (code names why)",
    404: "No such game",
    413: "Body larger than the limit (request_too_large)",
    422: "Idempotency-Key already used for a different command (idempotency_key_reused)",
}


def error_responses(*statuses: int) -> dict[int, OpenApiResponse]:
    """The schema's error responses of a view, by status."""
    return {code: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code]) for code in statuses}


class ApiView(APIView):
    # The authenticators are DRF's, token first (settings.REST_FRAMEWORK).
    parser_classes = [LimitedJSONParser]

    def www_authenticate(self) -> str:
        return 'Token realm="api"'

    def get_authenticate_header(self, request: Request) -> str:
        return self.www_authenticate()


def source_of(request: Request) -> str:
    """Where a write comes from, as the event log records it: a token is the API, a
    session the browser."""
    return Source.API if isinstance(request.successful_authenticator, TokenAuthentication) else Source.WEB


def require_user(request: Request) -> None:
    """``not_authenticated`` unless the caller signed in (session or token)."""
    require_signed_in(request.user)


def user_id(request: Request) -> int:
    """The signed-in caller's id (``not_authenticated`` when there is none)."""
    require_signed_in(request.user)
    return int(request.user.pk or 0)  # a signed-in user has an id


def query_number(request: Request, name: str) -> int | None:
    """The query parameter ``name`` as a number from 0 to ``MAX_QUERY_NUMBER``, or None
    when absent. ASCII digits only: ``str.isdigit`` also takes "²", which ``int`` refuses."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 10 and int(raw) <= MAX_QUERY_NUMBER):
        raise DomainError(
            "invalid_request", f"{name} must be a number from 0 to {MAX_QUERY_NUMBER}", field=name
        )
    return int(raw)


def json_object(data: Any) -> dict[str, Any]:
    """The body, which must be a JSON object."""
    if not isinstance(data, dict):
        raise DomainError("invalid_request", "the body must be a JSON object")
    return data
