"""Errors the engine raises. Each is a ``ValueError`` with a stable machine ``code``
(used by the API's error bodies) and a human message."""

from __future__ import annotations


class EngineError(ValueError):
    """Base of the engine's rule errors: ``code`` is stable, ``message`` is for people."""

    default_code = "engine_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.code = code or self.default_code
        self.message = message


class InvalidHand(EngineError):
    """A hand that no deck can hold: duplicate cards, or a joker the rule set has none of."""

    default_code = "invalid_hand"


class InvalidShowdown(EngineError):
    """A showdown that cannot be scored: wrong hand sizes, an unknown knocker seat, a gin
    knock over the limit, …"""

    default_code = "invalid_showdown"


class IllegalMove(EngineError):
    """A command the rules do not allow in the current state (``not_your_turn``, …)."""

    default_code = "illegal_move"
