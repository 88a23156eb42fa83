"""The one domain error.

A refusal anywhere below the web and the API — a rule of the engine, the event store, a
league service, the seating, the standings, an archive — is a :class:`DomainError`: a
stable ``code``, a ``message`` for people, the ``kind`` of refusal, the ``field`` it
concerns (when one input is to blame) and the ``params`` it was raised with. It knows
nothing of HTTP: the API maps each kind to a status in one place (``api.errors``), the
web pages put the message under the field the error names.

>>> err = DomainError("invalid_request", "rounds must be 1 to 100", field="rounds", params={"high": 100})
>>> err.kind, err.field, err.params["high"], str(err)
(<Kind.INVALID: 'invalid'>, 'rounds', 100, 'rounds must be 1 to 100')
>>> DomainError("tournament_finished", "nothing can change", kind=Kind.CONFLICT).kind.value
'conflict'
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, ClassVar


class Kind(StrEnum):
    """What sort of refusal an error is; the API maps each to one HTTP status."""

    INVALID = "invalid"  # the request as sent cannot be done (400)
    NOT_FOUND = "not_found"  # what it names does not exist, or the caller may not know it does (404)
    FORBIDDEN = "forbidden"  # the caller may not do this (403)
    CONFLICT = "conflict"  # the state changed or forbids it now; reload and decide again (409)
    UNAUTHENTICATED = "unauthenticated"  # sign in first (401)


class DomainError(ValueError):
    """A refusal: nothing was written. Subclasses set ``default_kind`` / ``default_code``.

    A ``ValueError`` so that the pure packages' callers that catch ``ValueError`` keep
    working; ``message`` is for people (``str(err)`` is the message); ``params`` are the
    values the message was made from, so a page can word it again in its own language."""

    default_code: ClassVar[str] = "invalid_request"
    default_kind: ClassVar[Kind] = Kind.INVALID

    def __init__(
        self,
        code: str | None,
        message: str,
        *,
        kind: Kind | None = None,
        field: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code: str = code or self.default_code
        self.message: str = message
        self.kind: Kind = kind or self.default_kind
        self.field: str | None = field
        self.params: dict[str, Any] = dict(params or {})

    def __str__(self) -> str:
        return str(self.message)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {str(self.message)!r}, kind={self.kind.value!r})"
