"""The transactional outbox: side effects are rows written with the events that cause
them, sent to Celery after commit, and re-sent by ``drain_outbox`` when the process
died between commit and send. Delivery is at least once; every task is idempotent.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from config.celery import app as celery_app
from games.models import Game, OutboxMessage

log = logging.getLogger(__name__)

PLAY_BOT_TURN = "games.tasks.play_bot_turn"
# A payload key that is not the task's argument but its countdown in seconds.
COUNTDOWN = "countdown"
# drain_outbox leaves younger rows alone: their on_commit send is probably under way.
DRAIN_GRACE = timedelta(seconds=5)
MAX_ATTEMPTS = 25

_local = threading.local()

# Other apps' tasks, run when a write carries one of their event types: (topic, types).
# games never imports those apps; each subscribes from its AppConfig.ready().
_subscriptions: list[tuple[str, frozenset[str]]] = []


def subscribe(topic: str, event_types: Iterable[str]) -> None:
    """Have every write to a followed game (``Game.followed``: created for the app that
    follows it) that appends an event of one of ``event_types`` (engine event class names,
    such as ``"GameFinished"``) also write an outbox row for the Celery task ``topic``,
    with the payload ``{"game_id": …}``, in the same transaction. The task must be
    idempotent: delivery is at least once."""
    types = frozenset(event_types)
    if (topic, types) not in _subscriptions:
        _subscriptions.append((topic, types))


def subscribed_messages(game: Game, event_types: Iterable[str]) -> list[tuple[str, dict[str, Any]]]:
    """The outbox rows the subscriptions want for a write of ``event_types`` to ``game``:
    none when no app follows the game (a free game's moves send nothing but its bots')."""
    if not game.followed:
        return []
    written = set(event_types)
    return [(topic, {"game_id": game.pk}) for topic, types in _subscriptions if types & written]


def dispatch_on_commit(ids: Sequence[int], messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
    """Send the outbox rows ``ids`` (written by ``games.store`` with the events that
    caused them, from ``messages``: topic and payload, in the same order) once their
    transaction commits — at once if it already has."""
    if ids:
        written = [(row_id, topic, payload) for row_id, (topic, payload) in zip(ids, messages, strict=True)]
        transaction.on_commit(lambda: dispatch(written))


def dispatch(written: Sequence[tuple[int, str, dict[str, Any]]]) -> None:
    """Send rows just committed (id, topic, payload), or hold their ids while a bot loop
    runs. The write has them in hand, so they are sent without being read back, and the
    sent ones are marked dispatched together: one statement for the lot. A row the drain
    sent meanwhile (it waits ``DRAIN_GRACE``) may go twice, which at-least-once delivery
    allows."""
    held = getattr(_local, "held", None)
    if held is not None:
        held.extend(row_id for row_id, _, _ in written)
        return
    sent = [row_id for row_id, topic, payload in written if _enqueue(row_id, topic, payload)]
    if sent:
        _mark_dispatched(sent)


def send(message: OutboxMessage) -> bool:
    """Hand one row to Celery (in process when eager), then mark it dispatched. A failure
    is recorded and left for ``drain_outbox``."""
    if not _enqueue(message.pk, message.topic, message.payload):
        return False
    _mark_dispatched([message.pk])
    return True


def _enqueue(row_id: int, topic: str, payload: dict[str, Any]) -> bool:
    """Hand the row ``row_id`` to Celery; a failure is recorded on the row and False."""
    kwargs = dict(payload)
    # A paced bot turn waits in the broker (an eta), never in a worker.
    countdown = kwargs.pop(COUNTDOWN, None)
    options: dict[str, Any] = {"countdown": countdown} if countdown else {}
    try:
        celery_app.tasks[topic].apply_async(kwargs=kwargs, **options)
    except Exception as exc:  # the broker is down, or an eager task failed: retried by the drain
        log.exception("outbox %s: sending %s failed", row_id, topic)
        failed = OutboxMessage.objects.filter(pk=row_id)
        failed.update(attempts=F("attempts") + 1, last_error=repr(exc)[:2000])
        return False
    return True


def _mark_dispatched(ids: list[int]) -> None:
    OutboxMessage.objects.filter(pk__in=ids).update(dispatched_at=timezone.now(), attempts=F("attempts") + 1)


def drain(*, older_than: timedelta = DRAIN_GRACE, limit: int = 500) -> int:
    """Re-send rows still undispatched ``older_than`` after they were written."""
    cutoff = timezone.now() - older_than
    pending = OutboxMessage.objects.filter(
        dispatched_at__isnull=True, created_at__lt=cutoff, attempts__lt=MAX_ATTEMPTS
    ).order_by("id")[:limit]
    return sum(1 for message in pending if send(message))


@contextmanager
def holding() -> Iterator[list[int] | None]:
    """Within a bot loop: rows committed meanwhile are collected rather than sent (the
    loop itself plays the turns they ask for), so eager mode cannot recurse once per
    move. The outermost loop gets the list and settles it with :func:`settle` when it
    stops; a nested one gets None."""
    if getattr(_local, "held", None) is not None:
        yield None
        return
    _local.held = []
    try:
        yield _local.held
    finally:
        _local.held = None


def settle(ids: list[int], *, handled: Callable[[OutboxMessage], bool]) -> None:
    """Mark the held rows ``handled(message)`` says the loop already played as
    dispatched; send the others."""
    for message in OutboxMessage.objects.filter(pk__in=ids, dispatched_at__isnull=True):
        if handled(message):
            OutboxMessage.objects.filter(pk=message.pk).update(
                dispatched_at=timezone.now(), attempts=F("attempts") + 1
            )
        else:
            send(message)
