"""PostgreSQL through Django's own backend (``django.db.backends.postgresql``) with the
documented OPTIONS config.env sets: parameters bound on the server, and psycopg's
automatic prepared statements (docs/performance.md). Seen through public means only:
PostgreSQL's ``pg_prepared_statements`` view and ``pg_terminate_backend``."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import close_old_connections, connection
from django.db.backends.postgresql.base import DatabaseWrapper
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from config.env import PREPARE_THRESHOLD, parse_database_url
from games import services
from games.authentication import TokenAuthentication
from games.models import Game
from games.store import load_state
from tests.support.games import a_legal_move, new_game

pytestmark = pytest.mark.django_db(transaction=True)


def _terminate(pid: int) -> None:
    settings = connection.settings_dict
    with psycopg.connect(
        dbname=settings["NAME"],
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        autocommit=True,
    ) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)
        for _ in range(100):
            if not admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchall():
                return
            time.sleep(0.02)
    raise AssertionError(f"backend {pid} did not go away")


def _prepared_statements(on: Any = connection) -> list[str]:
    with on.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [statement for (statement,) in cursor.fetchall()]


def test_the_stock_backend_binds_on_the_server_and_prepares(postgres_required: None) -> None:
    assert connection.settings_dict["ENGINE"] == "django.db.backends.postgresql"
    assert connection.features.uses_server_side_binding
    connection.ensure_connection()
    assert connection.connection.prepare_threshold == PREPARE_THRESHOLD


def test_a_connection_the_server_closed_is_replaced_at_the_next_request(postgres_required: None) -> None:
    connection.ensure_connection()
    old_pid = connection.connection.info.backend_pid
    _terminate(old_pid)

    close_old_connections()  # what Django does when a request starts
    with connection.cursor() as cursor:  # CONN_HEALTH_CHECKS: checked, reconnected
        cursor.execute("SELECT pg_backend_pid()")
        (new_pid,) = cursor.fetchone()
    assert new_pid != old_pid


def test_the_hot_statements_are_prepared_after_a_few_commands(postgres_required: None) -> None:
    """What ``POST .../commands`` with a token runs (the store's read of the game row with
    the key and the missing events, then the call of games_append) and DRF's token check:
    each is prepared by psycopg once it has run PREPARE_THRESHOLD times on the connection."""
    users = [get_user_model().objects.create_user(name) for name in ("ann", "bob", "olga")]
    seats = [services.SeatSpec(user_id=users[0].pk), services.SeatSpec(user_id=users[1].pk)]
    result = new_game(users[2], seats)
    game_id, state, version = result.game.pk, result.state, result.version
    clients = []
    for user in users[:2]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
        clients.append(client)
    for n in range(PREPARE_THRESHOLD + 2):
        response = clients[state.to_move].post(
            f"/api/v1/games/{game_id}/commands",
            {"expected_version": version, "command": a_legal_move(state)},
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"move-{n}",
        )
        assert response.status_code == 201, response.json()
        version = response.json()["version"]
        state = load_state(Game.objects.get(pk=game_id))
    key = Token.objects.get(user=users[0]).key
    for _ in range(PREPARE_THRESHOLD + 1):
        assert TokenAuthentication().authenticate_credentials(key)[0] == users[0]

    prepared = _prepared_statements()
    markers = (
        # games.store.read_game_for_write: the row, the key and the missing events
        "e.idempotency_key = $1), (SELECT json_agg(",
        "e.seq <= g.version) FROM games_game g WHERE g.id = $",
        "FROM games_append($",
        'JOIN "authtoken_token" t ON',  # games.authentication
    )
    for marker in markers:
        assert [s for s in prepared if marker in s], f"{marker!r} not prepared: {prepared}"


def test_prepared_statements_can_be_turned_off(postgres_required: None) -> None:
    """``?prepared_statements=false`` (a pooler that cannot keep them): psycopg prepares
    nothing, however often a statement runs; parameters are still bound on the server."""
    options = parse_database_url("postgres://u@h/n?prepared_statements=false", Path("/"))["OPTIONS"]
    unprepared = DatabaseWrapper({**connection.settings_dict, "OPTIONS": options}, alias="unprepared")
    try:
        for n in range(PREPARE_THRESHOLD * 2):
            with unprepared.cursor() as cursor:
                cursor.execute("SELECT %s::int * 2", [n])
                assert cursor.fetchone() == (n * 2,)
        assert unprepared.connection.prepare_threshold is None
        assert _prepared_statements(unprepared) == []
    finally:
        unprepared.close()
