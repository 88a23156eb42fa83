"""Errors the engine raises. Each is a :class:`core.DomainError` (so a ``ValueError``)
of kind *invalid*, with a stable machine ``code`` (used by the API's error bodies), a
human ``message`` and, where a seat or a card is to blame, the ``params`` that name it —
so a page can word the refusal itself (the player's name, the card's face) instead of
rewriting the English message.

>>> err = IllegalMove("seat 1 does not hold QS", "card_not_in_hand", params={"seat": 1, "card": "QS"})
>>> err.code, err.kind.value, err.params
('card_not_in_hand', 'invalid', {'seat': 1, 'card': 'QS'})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core import DomainError


class EngineError(DomainError):
    """Base of the engine's rule errors: ``code`` is stable, ``message`` is for people."""

    default_code = "engine_error"

    def __init__(
        self,
        message: str,
        code: str | None = None,
        *,
        field: str | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message, field=field, params=params)


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
