"""The API's JSON renderer: DRF's ``JSONRenderer`` with the encoding done by orjson.

The same output as DRF's for everything the API returns (compact, UTF-8, datetimes
and the types DRF's encoder knows handed to that encoder, U+2028/U+2029 escaped), in
a fraction of the time (a command's answer, about 3 KB, costs the stdlib encoder
several times what it costs orjson). One difference: a float NaN or infinity becomes
``null`` where DRF's strict renderer raises; the API returns no floats. An indented
rendering (``Accept: application/json; indent=2``, the browsable API) goes through
DRF's renderer unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from rest_framework.renderers import JSONRenderer
from rest_framework.utils.encoders import JSONEncoder

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
_fallback = JSONEncoder().default


class FastJSONRenderer(JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if data is None:
            return b""
        plain = self.compact and not self.ensure_ascii and self.strict
        # get_indent reads no indent from an empty media type, as from None.
        if not plain or self.get_indent(accepted_media_type or "", renderer_context or {}) is not None:
            rendered: bytes = super().render(data, accepted_media_type, renderer_context)
            return rendered
        # As DRF does: the output stays a strict subset of JavaScript.
        return (
            orjson.dumps(data, default=_fallback, option=_OPTIONS)
            .replace(b"\xe2\x80\xa8", b"\\u2028")
            .replace(b"\xe2\x80\xa9", b"\\u2029")
        )
