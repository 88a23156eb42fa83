"""Content negotiation: DRF's, with the usual request answered without parsing.

Nearly every API request sends no ``Accept`` header, ``*/*`` or ``application/json``
and no ``?format=``: it gets the first renderer (JSON), as DRF's negotiation would
give it, without DRF parsing and ranking the media types. Anything else (a browser
asking for HTML, an indent parameter, ``?format=api``) goes through DRF's
``DefaultContentNegotiation`` unchanged.
"""

from __future__ import annotations

from typing import Any

from rest_framework.negotiation import DefaultContentNegotiation

PLAIN_ACCEPTS = frozenset({"", "*/*", "application/json"})


class FastContentNegotiation(DefaultContentNegotiation):
    def select_renderer(self, request: Any, renderers: Any, format_suffix: str | None = None) -> Any:
        accept = request.META.get("HTTP_ACCEPT", "")
        if accept in PLAIN_ACCEPTS and not format_suffix and not request.META.get("QUERY_STRING"):
            first = renderers[0]
            if first.media_type == "application/json":
                return first, accept if accept == "application/json" else first.media_type
        return super().select_renderer(request, renderers, format_suffix)
