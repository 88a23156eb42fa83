"""PostgreSQL-only: real concurrency. Many writers at one version, and the global
position order a projection relies on, forced into the interleaving that breaks
sequence-based stores."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games import selectors, services
from games.models import Game, GameEvent, Source
from games.store import postgres
from tests.support.games import new_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


def deal(game_id: int, actor: Any, upcard: str = "KD") -> services.SubmitResult:
    """The scorekeeper deals a physical game at version 1."""
    return services.submit_command(
        game=Game.objects.get(pk=game_id),
        command={"type": "DealHand", "upcard": upcard},
        actor=actor,
        source=Source.API,
        expected_version=1,
    )


def in_thread(target: Callable[[], None]) -> threading.Thread:
    def run() -> None:
        try:
            target()
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_twenty_writers_at_one_version_make_one_201_and_nineteen_409s(
    postgres_required: None, owner: Any, ann: Any
) -> None:
    game = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=ann.pk)]).game
    token = Token.objects.create(user=ann).key
    barrier = threading.Barrier(20)
    results: dict[int, tuple[int, dict[str, Any]]] = {}

    def post(i: int) -> Callable[[], None]:
        def run() -> None:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
            barrier.wait(timeout=10)
            response = client.post(
                f"/api/v1/games/{game.pk}/commands",
                {"expected_version": 2, "command": {"type": "DrawFromStock", "seat": 0}},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"writer-{i}",
            )
            results[i] = (response.status_code, response.json())

        return run

    for thread in [in_thread(post(i)) for i in range(20)]:
        thread.join(timeout=30)
    statuses = sorted(status for status, _ in results.values())
    assert statuses == [201] + [409] * 19
    conflicts = [body for status, body in results.values() if status == 409]
    assert all(body["code"] == "version_conflict" and body["current_version"] == 3 for body in conflicts)
    rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
    assert [r.seq for r in rows] == [1, 2, 3]
    assert Game.objects.get(pk=game.pk).version == 3
    positions = [r.position for r in GameEvent.objects.order_by("position")]
    assert positions == list(range(positions[0], positions[0] + len(positions)))


def test_concurrent_writers_on_different_games_all_succeed_without_gaps(
    postgres_required: None, owner: Any
) -> None:
    games = [
        new_game(owner, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical").game
        for _ in range(8)
    ]
    barrier = threading.Barrier(len(games))
    errors: list[BaseException] = []

    def dealer(game_id: int) -> Callable[[], None]:
        def run() -> None:
            barrier.wait(timeout=10)
            try:
                deal(game_id, owner)
            except BaseException as exc:  # reported below
                errors.append(exc)

        return run

    for thread in [in_thread(dealer(g.pk)) for g in games]:
        thread.join(timeout=30)
    assert errors == []
    positions = list(GameEvent.objects.order_by("position").values_list("position", flat=True))
    assert positions == list(range(1, len(games) * 2 + 1))


def test_a_reader_never_sees_a_later_position_before_an_earlier_one_commits(
    postgres_required: None, owner: Any
) -> None:
    """T1 takes a position and keeps its transaction open; T2 then writes another game
    and commits. A reader polling in between must never see T2's event without T1's:
    T2 waits for T1's commit before it even gets a position."""
    one = new_game(owner, [services.SeatSpec("A"), services.SeatSpec("B")], mode="physical").game
    two = new_game(owner, [services.SeatSpec("C"), services.SeatSpec("D")], mode="physical").game
    start = selectors.events_after(0)[-1].position
    t1_positioned, release_t1, t2_done, stop_reader = (threading.Event() for _ in range(4))
    observed: list[list[int]] = []

    def t1() -> None:
        with transaction.atomic():
            deal(one.pk, owner)
            t1_positioned.set()
            release_t1.wait(timeout=20)

    def t2() -> None:
        deal(two.pk, owner)
        t2_done.set()

    def reader() -> None:
        checkpoint = start
        while not stop_reader.is_set():
            batch = [e.position for e in selectors.events_after(checkpoint)]
            if batch:
                observed.append(batch)
                checkpoint = batch[-1]
            time.sleep(0.005)

    first = in_thread(t1)
    assert t1_positioned.wait(timeout=10)
    poller = in_thread(reader)
    second = in_thread(t2)
    time.sleep(0.5)
    assert not t2_done.is_set(), "T2 committed while T1 held a lower position open"
    assert observed == [], "the reader saw an event before T1 committed"
    release_t1.set()
    first.join(timeout=10)
    second.join(timeout=10)
    time.sleep(0.1)
    stop_reader.set()
    poller.join(timeout=10)

    seen = [position for batch in observed for position in batch]
    assert seen == [start + 1, start + 2]  # every event, once, in order: nothing skipped
    by_position = {e.position: e.game_id for e in GameEvent.objects.filter(position__gt=start)}
    assert by_position == {start + 1: one.pk, start + 2: two.pk}


def test_the_append_function_inserts_every_column_of_the_event_model(postgres_required: None) -> None:
    """games_append names the event columns itself (migration 0003): a column added to
    GameEvent without a migration replacing the function fails here, not in production."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_functiondef('games_append'::regproc)")
        (definition,) = cursor.fetchone()
    inserted = re.search(r"INSERT INTO games_gameevent \((.*?)\)", definition, re.S)
    assert inserted is not None
    columns = {name.strip() for name in inserted.group(1).split(",")}
    assert columns == {*postgres.INSERTED_FIELDS, "position"}
