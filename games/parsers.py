"""JSON bodies with a size limit and a boundary guard, answering in the API's error format.

DRF reads request bodies from the stream, past Django's DATA_UPLOAD_MAX_MEMORY_SIZE
check, so the limit is enforced here: a larger body is a 413 ``request_too_large``.

Every parsed body then passes one guard, whatever the endpoint and before any
serializer or the engine sees it, so that nothing a later layer cannot store or render
is ever written (docs/api.md, "Limits"):

- nesting at most :data:`MAX_DEPTH` deep (checked on the raw text, before parsing, so a
  deep body never reaches the recursive parser): 400 ``too_deeply_nested``;
- at most ``max_nodes`` values in all: 400 ``too_many_values``;
- strings (keys too) without NUL or lone surrogates, which PostgreSQL and the JSON
  renderer refuse: 400 ``invalid_string``; at most :data:`MAX_STRING` characters: 400
  ``string_too_long``;
- numbers within ±:data:`MAX_NUMBER` (exact in a double, so every JSON reader agrees on
  them) and finite: 400 ``value_out_of_range``. An integer literal longer than any number
  in range is never converted (Python refuses 4,301 digits and more, and a float cannot
  hold an integer past ~1e308): the parser keeps a marker that this guard refuses.

Each message names the path of the value, e.g. ``$.command.reason``.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import BaseParser

from core import DomainError

MAX_DEPTH = 32
MAX_STRING = 4096
MAX_NUMBER = 2**53

_STRING_LITERAL = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(rb"[\[\]{}]")
_FORBIDDEN_CHARACTER = re.compile("[\x00\ud800-\udfff]")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class _OutOfRange:
    """An integer literal with more digits than :data:`MAX_NUMBER`: never converted, so
    that neither ``int`` (its digit limit) nor a comparison with a float (overflow) runs
    on it; :func:`check_values` refuses it with its path."""


OUT_OF_RANGE = _OutOfRange()
# MAX_NUMBER has 16 digits: a literal with more (a sign aside) is out of range.
_MAX_DIGITS = len(str(MAX_NUMBER))


def _parse_int(literal: str) -> int | _OutOfRange:
    if len(literal.lstrip("-")) > _MAX_DIGITS:
        return OUT_OF_RANGE
    return int(literal)


def nesting_depth(raw: bytes, limit: int = MAX_DEPTH) -> int:
    """How deep the arrays and objects of the JSON text ``raw`` nest, counted up to just
    past ``limit``: brackets inside strings do not count."""
    if raw.count(b"[") + raw.count(b"{") <= limit:
        return 0  # cannot nest deeper than its brackets
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_STRING_LITERAL.sub(b'""', raw)):
        if bracket[0] in (b"[", b"{"):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    break
        else:
            depth -= 1
    return deepest


class ValueRefused(DomainError):
    """A value of a body outside the limits; ``params["path"]`` names it (``$.a.b``)."""


class RequestTooLarge(DomainError):
    """A body longer than the limit; ``params["limit"]`` is the limit in bytes."""


def _refuse(code: str, message: str, path: str) -> ValueRefused:
    return ValueRefused(code, message, params={"path": path})


def check_values(body: Any, *, max_nodes: int) -> None:
    """Raise a 400 naming the first value of ``body`` (parsed JSON) outside the API's
    limits. Iterative, so that no body can exhaust the stack."""
    pending: list[tuple[Any, str, int]] = [(body, "$", 0)]
    seen = 0
    while pending:
        value, path, depth = pending.pop()
        seen += 1
        if seen > max_nodes:
            raise _refuse("too_many_values", f"the body holds more than {max_nodes} values", path)
        if depth > MAX_DEPTH:
            raise _refuse("too_deeply_nested", f"{path} nests deeper than {MAX_DEPTH} levels", path)
        if isinstance(value, str):
            _check_string(value, path)
        elif isinstance(value, bool) or value is None:
            continue
        elif value is OUT_OF_RANGE or (
            isinstance(value, float) and not (math.isfinite(value) and -MAX_NUMBER <= value <= MAX_NUMBER)
        ):
            raise _refuse("value_out_of_range", f"{path} must be a number between ±{MAX_NUMBER}", path)
        elif isinstance(value, int) and not -MAX_NUMBER <= value <= MAX_NUMBER:
            # an int compared with ints only: float(value) overflows past ~1e308
            raise _refuse("value_out_of_range", f"{path} must be a number between ±{MAX_NUMBER}", path)
        elif isinstance(value, dict):
            for key, item in value.items():
                _check_string(key, f"{path} (a key)")
                pending.append((item, f"{path}.{key[:40]}", depth + 1))
        elif isinstance(value, list):
            pending.extend((item, f"{path}[{index}]", depth + 1) for index, item in enumerate(value))


def _check_string(value: str, path: str) -> None:
    if len(value) > MAX_STRING:
        raise _refuse("string_too_long", f"{path} is longer than {MAX_STRING} characters", path)
    if _FORBIDDEN_CHARACTER.search(value):
        raise _refuse("invalid_string", f"{path} holds a NUL character or a lone surrogate", path)


class LimitedJSONParser(BaseParser):
    media_type = "application/json"
    # None: settings.DATA_UPLOAD_MAX_MEMORY_SIZE.
    max_bytes: int | None = None
    max_nodes = 100_000

    def limit(self) -> int:
        return self.max_bytes or settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 2**31

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = self.limit()
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise RequestTooLarge(
                "request_too_large", f"the request body is larger than {limit} bytes", params={"limit": limit}
            )
        if nesting_depth(raw) > MAX_DEPTH:
            raise _refuse("too_deeply_nested", f"the body nests deeper than {MAX_DEPTH} levels", "$")
        try:
            body = json.loads(raw.decode("utf-8"), parse_constant=_reject_constant, parse_int=_parse_int)
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        check_values(body, max_nodes=self.max_nodes)
        return body


class LargeJSONParser(LimitedJSONParser):
    """For whole game logs (import)."""

    max_bytes = 8 * 1024 * 1024
    max_nodes = 2_000_000
