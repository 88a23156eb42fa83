"""JSON bodies with a size limit that answers in the API's error format.

DRF reads request bodies from the stream, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE
check, so the limit is enforced here: a larger body is a 413 ``request_too_large``.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from config.api_errors import ApiError


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class LimitedJSONParser(BaseParser):
    media_type = "application/json"
    # None: settings.DATA_UPLOAD_MAX_MEMORY_SIZE.
    max_bytes: int | None = None

    def limit(self) -> int:
        return self.max_bytes or settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**31

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = self.limit()
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise ApiError(
                "request_too_large",
                f"the request body is larger than {limit} bytes",
                status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
                limit=limit,
            )
        try:
            return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None


class LargeJSONParser(LimitedJSONParser):
    """For whole game logs (import)."""

    max_bytes = 8 * 1024 * 1024
