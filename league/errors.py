"""The league's refusal: :class:`LeagueError`, re-exported by ``league.services``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from core import DomainError, Kind


class LeagueError(DomainError):
    """A league write refused: ``code`` is stable, ``message`` for people, ``kind`` what
    sort of refusal (the API maps it to a status); nothing was written.

    The call sites written before the kinds pass an HTTP status as the third argument
    (``LeagueError("round_in_play", "…", 409)``): it is read as the kind it stood for,
    so a 409 is a conflict. A code that always concerns the same setting names its
    ``field`` here (:attr:`FIELD_OF_CODE`) unless the call site names one.

    >>> LeagueError("round_in_play", "a published round is still in play", 409).kind.value
    'conflict'
    >>> LeagueError("unknown_bot", "there is no bot 'x'").field
    'bot'
    """

    KIND_OF_STATUS: ClassVar[Mapping[int, Kind]] = {
        400: Kind.INVALID,
        401: Kind.UNAUTHENTICATED,
        403: Kind.FORBIDDEN,
        404: Kind.NOT_FOUND,
        409: Kind.CONFLICT,
    }
    FIELD_OF_CODE: ClassVar[Mapping[str, str]] = {
        "invalid_ruleset": "options",
        "invalid_table_size": "table_size",
        "unknown_method": "seating",
        "invalid_bots": "bots",
        "unknown_bot": "bot",
        "player_exists": "name",
    }

    def __init__(
        self,
        code: str,
        message: str,
        status: int | None = None,
        *,
        kind: Kind | None = None,
        field: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        if kind is None and status is not None:
            kind = self.KIND_OF_STATUS.get(status, Kind.INVALID)
        super().__init__(code, message, kind=kind, field=field or self.FIELD_OF_CODE.get(code), params=params)
