"""Fixtures of the event-store tests alone: a dealt game and granted recorders. Users
and the fresh state cache come from tests/fixtures/; plain helpers from
tests/support/games.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import services
from tests.support.games import new_game


@pytest.fixture
def duel(owner: Any, ann: Any, bob: Any) -> services.SubmitResult:
    """A dealt digital knock-rummy game: ann in seat 0 (to move first), bob in seat 1."""
    return new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])


@pytest.fixture
def grant_recorder(monkeypatch: pytest.MonkeyPatch) -> Callable[[Any, Any], None]:
    """Make a user a scorekeeper of one game through games.access's recorder checks,
    the extension point the league uses for its clubs."""
    from games import access

    granted: set[tuple[int, int]] = set()

    def check(user_id: int, game: Any) -> bool:
        return (user_id, game.pk) in granted

    monkeypatch.setattr(access, "_recorder_checks", [*access._recorder_checks, check])

    def grant(user: Any, game: Any) -> None:
        granted.add((user.pk, game.pk))

    return grant
