"""What the event store refuses: each a :class:`core.DomainError` with a stable code.

Re-exported by :mod:`games.services`, which raises them. Nothing here knows HTTP: the
API maps the kinds to statuses (``api.errors``), the web pages word them
(``web.refusals``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core import DomainError, Kind

if TYPE_CHECKING:
    from games.models import Game


class StoreError(DomainError):
    """A write the store refuses; ``code`` is stable, ``message`` for people."""

    default_code = "store_error"

    def __init__(
        self, message: str, *, field: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(None, message, field=field, params=params)


class RuleSetRefused(StoreError):
    """An unknown preset or option, or an option value the rules do not allow; ``field``
    names the option when one is to blame."""

    default_code = "invalid_ruleset"


class VersionConflict(StoreError):
    """``command`` (wire form) was decided on ``game`` at ``expected_version``; the game
    is at ``current_version`` now."""

    default_code = "version_conflict"
    default_kind = Kind.CONFLICT

    def __init__(
        self, *, game: Game, command: Mapping[str, Any], expected_version: int, current_version: int
    ) -> None:
        super().__init__(
            f"game {game.pk} is at version {current_version}, not {expected_version}: "
            "reload, then decide again",
            params={"expected_version": expected_version, "current_version": current_version},
        )
        self.game = game
        self.command = command
        self.expected_version = expected_version
        self.current_version = current_version


class IdempotencyKeyReused(StoreError):
    """The key was first used for another command: the request cannot be done as sent
    (the API answers it with its own status, 422)."""

    default_code = "idempotency_key_reused"


class InvalidLog(StoreError):
    """An imported log that does not replay; ``index`` is the first bad event."""

    default_code = "invalid_log"

    def __init__(self, *, index: int, event_code: str, message: str) -> None:
        super().__init__(f"event {index}: {message}", params={"index": index, "event_code": event_code})
        self.index = index
        self.event_code = event_code
        self.event_message = message
