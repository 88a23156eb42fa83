"""Live-server tests may write games (tests/fixtures/live.py: games_db)."""

from __future__ import annotations

from typing import Any
from urllib.request import urlopen

import pytest

from games.models import GameEvent
from games.services import SeatSpec
from tests.support.games import new_game

pytestmark = pytest.mark.both_databases


def test_a_live_server_test_writes_a_game_and_its_teardown_clears_it(
    games_db: None, live_server: Any, owner: Any
) -> None:
    created = new_game(owner, [SeatSpec("Ann"), SeatSpec("Bo")], mode="physical")
    assert GameEvent.objects.filter(game=created.game).exists()
    with urlopen(live_server.url + "/") as response:
        assert f"#{created.game.pk}".encode() in response.read()


def test_the_next_test_starts_empty(games_db: None) -> None:
    assert not GameEvent.objects.exists()
