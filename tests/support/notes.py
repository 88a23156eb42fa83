"""Seating notes in the English they are worded in, for tests that read them."""

from __future__ import annotations

from collections.abc import Iterable

from core.messages import Message
from league.seating import Entrant, Request
from league.wording import english


def said(notes: Iterable[Message], players: Request | Iterable[Entrant]) -> tuple[str, ...]:
    """``notes`` in English, players named as ``players`` (or the request's) name them."""
    entrants = players.players if isinstance(players, Request) else players
    return tuple(english(notes, {p.id: p.name for p in entrants}))
