"""Other apps subscribe to event types through games.outbox; the rows are written with
the events, in the same transaction."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from config.celery import app as celery_app
from games import outbox
from games.models import Game, OutboxMessage
from games.services import SeatSpec
from tests.support.games import new_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def subscription() -> Iterator[str]:
    topic = "games.tasks.drain_outbox"  # any registered task: the row is what is checked
    saved = list(outbox._subscriptions)
    outbox.subscribe(topic, ["HandDealt"])
    yield topic
    outbox._subscriptions[:] = saved


def test_a_write_with_a_subscribed_event_writes_one_row_for_its_topic() -> None:
    saved = list(outbox._subscriptions)
    outbox._subscriptions[:] = []  # without the apps' own (the league's, for one)
    try:
        outbox.subscribe("t.deal", ["HandDealt", "GameFinished"])
        outbox.subscribe("t.deal", ["HandDealt", "GameFinished"])  # twice is once
        outbox.subscribe("t.finish", ["GameFinished"])
        game = Game(pk=7, followed=True)
        assert outbox.subscribed_messages(game, ["GameStarted", "HandDealt"]) == [("t.deal", {"game_id": 7})]
        assert outbox.subscribed_messages(game, ["Drew"]) == []
        assert [t for t, _ in outbox.subscribed_messages(game, ["GameFinished"])] == ["t.deal", "t.finish"]
        # a game no app follows: nothing, whatever it writes
        assert outbox.subscribed_messages(Game(pk=8), ["GameStarted", "HandDealt", "GameFinished"]) == []
    finally:
        outbox._subscriptions[:] = saved


def test_the_store_writes_the_subscribed_rows_with_the_events(
    subscription: str, owner: Any, ann: Any
) -> None:
    # A digital game deals at creation: its first write carries HandDealt.
    result = new_game(owner, [SeatSpec(user_id=owner.pk), SeatSpec(user_id=ann.pk)], followed=True)
    rows = OutboxMessage.objects.filter(topic=subscription)
    assert [row.payload for row in rows] == [{"game_id": result.game.pk}]
    # A physical game's creation deals nothing: no row.
    new_game(owner, [SeatSpec("Ann"), SeatSpec("Bo")], mode="physical", followed=True)
    assert rows.count() == 1
    # A game no app follows deals as the first did, and writes no row for it.
    new_game(owner, [SeatSpec(user_id=owner.pk), SeatSpec(user_id=ann.pk)])
    assert rows.count() == 1


def test_the_rows_a_write_commits_are_sent_as_written_and_marked_in_one_statement(
    owner: Any,
    ann: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
    django_assert_num_queries: Any,
) -> None:
    saved = list(outbox._subscriptions)
    outbox._subscriptions[:] = []  # without the apps' own (the league's, for one)
    outbox.subscribe("games.tasks.drain_outbox", ["HandDealt"])
    outbox.subscribe("games.tasks.watch_bot_turns", ["GameStarted"])
    sent: list[tuple[str, dict[str, Any]]] = []
    for topic in ("games.tasks.drain_outbox", "games.tasks.watch_bot_turns"):
        task = celery_app.tasks[topic]
        monkeypatch.setattr(task, "apply_async", lambda *, kwargs, topic=topic: sent.append((topic, kwargs)))
    try:
        with django_capture_on_commit_callbacks() as callbacks:
            result = new_game(owner, [SeatSpec(user_id=owner.pk), SeatSpec(user_id=ann.pk)], followed=True)
    finally:
        outbox._subscriptions[:] = saved
    rows = OutboxMessage.objects.order_by("id")
    assert [(row.topic, row.dispatched_at) for row in rows] == [
        ("games.tasks.drain_outbox", None),
        ("games.tasks.watch_bot_turns", None),
    ]
    # after the commit: no read of the rows, the sends, one UPDATE marking both
    with django_assert_num_queries(1):
        for callback in callbacks:
            callback()
    game = {"game_id": result.game.pk}
    assert sent == [("games.tasks.drain_outbox", game), ("games.tasks.watch_bot_turns", game)]
    assert all(row.dispatched_at is not None and row.attempts == 1 for row in rows.all())
