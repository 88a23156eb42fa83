"""The event store: one ``Game`` row per stream, its ``GameEvent`` log, and the outbox.

Rows are an adapter around the engine (see :mod:`games.store`): an event row holds
the engine's stored form ``{"type", "schema_version", "data"}`` plus where, when and
by whom it was recorded. Events are never updated or deleted — a database trigger
(migration 0002) rejects both on PostgreSQL and SQLite.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Mode(models.TextChoices):
    DIGITAL = "digital", _("Digital")
    PHYSICAL = "physical", _("Physical")


class Source(models.TextChoices):
    WEB = "web", _("Web (session)")
    API = "api", _("API (token)")
    BOT = "bot", _("Bot")
    SYSTEM = "system", _("System")


class Game(models.Model):
    """One event stream. ``version`` is the number of events in it; ``status`` (written
    with every append) and ``snapshot`` (the engine state's ``to_dict()``, which names
    its version: written by the write that ends the game) are a disposable read model
    checked by ``manage.py verify_games``."""

    # Identifies the stream in process caches: ids can be reused after a rollback (SQLite).
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    ruleset = models.JSONField()
    mode = models.CharField(max_length=10, choices=Mode.choices)
    # One entry per seat: {"name": str, "bot": str | None, "user": user id | None}.
    seats = models.JSONField()
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="owned_games"
    )
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, default="")
    snapshot = models.JSONField(default=dict, blank=True)
    # The Idempotency-Key the game was created (or imported) with, unique per owner.
    creation_key = models.CharField(max_length=200, blank=True, default="")
    # Seconds between two bot moves (a countdown on each bot turn, so a person can follow
    # them); None: settings.BOT_MOVE_DELAY.
    bot_delay = models.FloatField(null=True, blank=True)
    # Whether another app follows the game's events (the league: a club's or a tournament's
    # game). Only a followed game's writes carry the outbox rows other apps subscribed to
    # (games.outbox.subscribe); set when the game is created for them, never changed.
    followed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "creation_key"],
                condition=~Q(creation_key=""),
                name="unique_game_creation_key",
            ),
        ]

    def __str__(self) -> str:
        names = ", ".join(seat["name"] for seat in self.seats)
        return f"Game {self.pk} ({names})"

    def seats_of(self, user_id: int | None) -> tuple[int, ...]:
        """The seats ``user_id`` plays (none for anonymous users)."""
        if user_id is None:
            return ()
        return tuple(i for i, seat in enumerate(self.seats) if seat.get("user") == user_id)


# Between a write's idempotency key and the number of its event (``K#2``): no key has one.
COMMAND_KEY_SEPARATOR = "#"


class GameEvent(models.Model):
    """One event of one game. ``seq`` runs 1..n per game; ``position`` is the global
    order projections read in (assigned under the store's append lock, so a reader
    never skips an event that commits after a higher position — see games/store/__init__.py).

    Every write (one command, and the deal the system adds to it) carries an
    idempotency key ``K`` (which never holds ``#``): its first event stores ``K``, the
    n-th ``K#n`` (:attr:`command_key` reads ``K`` back); all store the digest of the
    command, so a retry can be recognised.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    position = models.BigIntegerField(unique=True)
    type = models.CharField(max_length=64)
    schema_version = models.PositiveSmallIntegerField()
    data = models.JSONField()
    # PROTECT, not SET_NULL: an UPDATE of an event is rejected; deactivate users instead.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    source = models.CharField(max_length=10, choices=Source.choices)
    idempotency_key = models.CharField(max_length=220)
    command_digest = models.CharField(max_length=64)
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="unique_event_seq_per_game"),
            models.UniqueConstraint(fields=["game", "idempotency_key"], name="unique_event_key_per_game"),
            models.CheckConstraint(condition=Q(seq__gte=1), name="event_seq_from_one"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"

    @property
    def command_key(self) -> str:
        """The idempotency key of the write this event belongs to (``K`` of ``K#n``)."""
        return self.idempotency_key.partition(COMMAND_KEY_SEPARATOR)[0]

    @classmethod
    def command_key_filter(cls, key: str) -> Q:
        """The events of the write whose idempotency key is ``key``."""
        return Q(idempotency_key=key) | Q(idempotency_key__startswith=f"{key}{COMMAND_KEY_SEPARATOR}")

    def stored_form(self) -> dict[str, object]:
        """The engine's stored form of this event (``engine.event_from_dict`` reads it)."""
        return {"type": self.type, "schema_version": self.schema_version, "data": self.data}


class OutboxMessage(models.Model):
    """A side effect (a Celery task and its keyword arguments) written in the same
    transaction as the events that cause it; sent after commit, re-sent by
    ``games.tasks.drain_outbox`` if the sender died first."""

    topic = models.CharField(max_length=100)
    payload = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    dispatched_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(
                fields=["created_at"], condition=Q(dispatched_at__isnull=True), name="outbox_undispatched"
            ),
        ]

    def __str__(self) -> str:
        state = "sent" if self.dispatched_at else "pending"
        return f"{self.topic} {self.payload} ({state})"
