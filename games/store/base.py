"""What every recorder (write path) does: the contract ``tests/games/test_store_contract.py``
checks on each of them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from games.models import Game, GameEvent
from games.store.errors import CorruptStream
from games.store.mapping import StoredEvent

# The columns of a game row a write may change (with its events, in one transaction).
GAME_CHANGES = frozenset({"version", "status", "snapshot", "seats", "updated_at"})

Message = tuple[str, dict[str, Any]]  # an outbox row: topic, payload


class LogRead(NamedTuple):
    """What a write reads of a game's log before deciding (:meth:`Recorder.read_log`,
    :meth:`Recorder.read_for_write`)."""

    key: str | None  # the idempotency key asked about (None: a fresh one, which no log holds)
    key_used: bool  # whether the log already holds it
    tail: list[StoredEvent] | None  # the events after the version asked for, if read along


class Recorder(Protocol):
    def read_game(self, game_id: int) -> Game | None:
        """The game row ``game_id`` without ``snapshot`` (deferred), or None."""

    def read_for_write(self, game_id: int, key: str | None, *, after: int) -> tuple[Game, LogRead] | None:
        """The game row (as :meth:`read_game`) and what a write on it needs of its log
        (as :meth:`read_log` at the row's version, ``key`` None asking nothing), or None
        when there is no such game; nothing is locked. Read together, so the log read
        is the row's: on PostgreSQL one statement."""

    def read_log(self, game: Game, key: str, *, after: int) -> LogRead:
        """Whether ``game``'s log holds ``key`` and (optionally) its events after
        ``after`` up to ``game.version``; nothing is locked."""

    def append(
        self, game: Game, changes: Mapping[str, Any], rows: list[GameEvent], messages: Sequence[Message]
    ) -> tuple[list[GameEvent], list[int]]:
        """In one transaction, and only if the game row is still at ``game.version``:
        apply ``changes`` (a subset of :data:`GAME_CHANGES`, ``updated_at`` included) to
        it, append ``rows`` with the next global positions, write ``messages`` to the
        outbox. Returns the saved rows and the outbox rows' ids. Raises
        :class:`~games.store.errors.WriteConflict` when the row moved on, and
        :class:`~games.store.errors.CorruptStream` when the log holds events past the
        row's version; either way nothing is written."""


def log_ahead(game: Game) -> CorruptStream:
    return CorruptStream(f"game {game.pk}: its log holds events after version {game.version}")


def mark_saved(rows: list[GameEvent], inserted: Mapping[int, tuple[int, int]]) -> list[GameEvent]:
    """``rows`` as saved: ``inserted`` maps each row's seq to its new (id, position)."""
    if len(inserted) != len(rows):
        raise CorruptStream(f"{len(rows)} events to append, {len(inserted)} inserted")
    for row in rows:
        row.pk, row.position = inserted[row.seq]
    return rows
