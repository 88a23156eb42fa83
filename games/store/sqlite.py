"""The SQLite recorder: the write with the ORM, in a transaction that holds SQLite's
write lock from ``BEGIN`` (``transaction_mode`` IMMEDIATE), so checking the version,
reading the highest position and inserting cannot interleave with another writer.

It relies on the database serialising writers; on PostgreSQL it is correct only with one
writer at a time (the contract tests run it there too), which is why
:mod:`games.store.postgres` exists."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.db.models import Max

from games.models import Game, GameEvent, OutboxMessage
from games.store.base import LogRead, Message, log_ahead
from games.store.errors import WriteConflict


class SQLiteRecorder:
    def read_game(self, game_id: int) -> Game | None:
        """Written once (``Manager.raw``) rather than compiled from a queryset on every call."""
        return next(iter(Game.objects.raw(_game_row_sql(), [game_id])), None)

    def read_for_write(self, game_id: int, key: str | None, *, after: int) -> tuple[Game, LogRead] | None:
        """The row, then the key if there is one (SQLite's statements cost no round trip)."""
        game = self.read_game(game_id)
        if game is None:
            return None
        if key is None:
            return game, LogRead(None, False, None)
        return game, self.read_log(game, key, after=after)

    def read_log(self, game: Game, key: str, *, after: int) -> LogRead:
        """The key only: replay reads the events it lacks itself (no tail)."""
        return LogRead(key, GameEvent.objects.filter(game_id=game.pk, idempotency_key=key).exists(), None)

    def append(
        self, game: Game, changes: Mapping[str, Any], rows: list[GameEvent], messages: Sequence[Message]
    ) -> tuple[list[GameEvent], list[int]]:
        with transaction.atomic():
            if not Game.objects.filter(pk=game.pk, version=game.version).update(**changes):
                raise WriteConflict(f"game {game.pk} moved on from version {game.version}")
            highest = GameEvent.objects.aggregate(top=Max("position"))["top"] or 0
            for offset, row in enumerate(rows, start=1):
                row.position = highest + offset
            try:
                saved = GameEvent.objects.bulk_create(rows)
            except IntegrityError as exc:
                # the row was at its version, so only a log ahead of it collides
                raise log_ahead(game) from exc
            created = OutboxMessage.objects.bulk_create(
                OutboxMessage(topic=topic, payload=payload) for topic, payload in messages
            )
        return saved, [message.pk for message in created]


@functools.cache
def _game_row_sql() -> str:
    """Every column of a game row but ``snapshot`` (read by ``verify_games`` only)."""
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in Game._meta.concrete_fields if f.name != "snapshot")
    return f"SELECT {columns} FROM {quote(Game._meta.db_table)} WHERE {quote(Game._meta.pk.column)} = %s"
