"""A retried Idempotency-Key gets the same JSON — equal once parsed, which is what
docs/api.md promises (PostgreSQL's jsonb may reorder object keys, so not the bytes)."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from games import services
from games.models import Game, GameEvent
from tests.support.games import client_for

pytestmark = pytest.mark.django_db

URL = "/api/v1/games"


def command(client: Any, game_id: int, version: int, body: Any, key: str) -> Any:
    return client.post(
        f"{URL}/{game_id}/commands",
        {"expected_version": version, "command": body},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def test_a_command_retried_after_the_game_moved_on_gets_the_same_json(
    duel: services.SubmitResult, ann: Any
) -> None:
    client = client_for(ann, token=True)
    first = command(client, duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0}, "retry-1")
    assert first.status_code == 201
    drawn = first.json()
    discard = next(
        c
        for c in engine.view(services.store.load_state(Game.objects.get(pk=duel.game.pk)), 0).legal_commands
        if c.TYPE == "Discard"
    )
    assert command(client, duel.game.pk, 3, engine.command_to_dict(discard), "retry-2").status_code == 201
    events = GameEvent.objects.count()
    retry = command(client, duel.game.pk, 2, {"type": "DrawFromStock", "seat": 0}, "retry-1")
    assert retry.status_code == 201
    assert json.loads(retry.content) == drawn  # as of that write, not the game's version now
    assert drawn["version"] == 3 and Game.objects.get(pk=duel.game.pk).version == 4
    assert GameEvent.objects.count() == events


def test_a_game_creation_retried_gets_the_same_json(ann: Any, bob: Any) -> None:
    client = client_for(ann)
    body = {"seats": [{"user": ann.pk}, {"user": bob.pk}, {"bot": "greedy"}], "options": {"target_score": 50}}
    first = client.post(URL, body, format="json", HTTP_IDEMPOTENCY_KEY="new-game-1")
    retry = client.post(URL, body, format="json", HTTP_IDEMPOTENCY_KEY="new-game-1")
    assert first.status_code == retry.status_code == 201
    assert json.loads(retry.content) == json.loads(first.content)
    assert Game.objects.count() == 1
