"""The store contract, checked on both recorders (the two write paths), after
pyeventsourcing's recorder tests: one abstract class holds the tests, a subclass per
recorder runs them. The SQLite recorder is plain ORM and runs on whichever database the
suite uses; the PostgreSQL one needs PostgreSQL (CI runs both there)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone

import engine
from games import store
from games.models import Game, GameEvent, OutboxMessage, Source
from games.services import SeatSpec
from tests.support.games import new_game

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def physical_game(owner: Any) -> Game:
    """A physical game at version 1 (started, not dealt)."""
    return new_game(owner, [SeatSpec("A"), SeatSpec("B")], mode="physical").game


def deal_rows(game: Game, key: str = "k") -> tuple[list[GameEvent], dict[str, Any]]:
    """Unsaved rows of the deal of ``game`` (at version 1), and the game row's changes."""
    state = store.load_state(game)
    events = engine.decide(state, engine.DealHand(upcard="KD"))
    items = [(event, None, Source.API) for event in events]
    rows = store.new_rows(game, items, command_key=key, command_digest="d" * 64, first_seq=game.version + 1)
    after = store.fold(state, events)
    assert after is not None
    return rows, {"version": after.version, "status": after.status, "updated_at": timezone.now()}


def top_position() -> int:
    return GameEvent.objects.aggregate(top=Max("position"))["top"] or 0


class StoreContract:
    """What every recorder does. Subclasses set ``recorder``."""

    recorder: store.Recorder

    def test_append_saves_the_rows_and_moves_the_game_row(self, owner: Any) -> None:
        game = physical_game(owner)
        rows, changes = deal_rows(game)
        top = top_position()
        saved, outbox_ids = self.recorder.append(game, changes, rows, [("topic", {"n": 1})])
        assert [row.seq for row in saved] == [2] and saved[0].pk is not None
        assert saved[0].position == top + 1
        stored = GameEvent.objects.get(pk=saved[0].pk)
        assert (stored.game_id, stored.seq, stored.type, stored.idempotency_key) == (
            game.pk,
            2,
            "HandDealt",
            "k",
        )
        assert stored.data == saved[0].data and stored.command_key == "k"
        assert Game.objects.get(pk=game.pk).version == changes["version"]
        assert list(OutboxMessage.objects.filter(pk__in=outbox_ids).values_list("topic", "payload")) == [
            ("topic", {"n": 1})
        ]

    def test_read_log_reports_the_key_and_the_events_after_a_version(self, owner: Any) -> None:
        game = physical_game(owner)
        rows, changes = deal_rows(game, key="deal")
        self.recorder.append(game, changes, rows, [])
        game = Game.objects.get(pk=game.pk)
        read = self.recorder.read_log(game, "deal", after=0)
        assert read.key_used
        assert not self.recorder.read_log(game, "other", after=0).key_used
        if read.tail is not None:  # a recorder may leave the events to replay
            assert [(event.seq, event.form["type"]) for event in read.tail] == [
                (1, "GameStarted"),
                (2, "HandDealt"),
            ]
            assert [event.seq for event in self.recorder.read_log(game, "deal", after=1).tail or ()] == [2]

    def test_read_for_write_reads_the_row_with_the_key_and_the_events_after_a_version(
        self, owner: Any
    ) -> None:
        game = physical_game(owner)
        rows, changes = deal_rows(game, key="deal")
        self.recorder.append(game, changes, rows, [])
        read = self.recorder.read_for_write(game.pk, "deal", after=1)
        assert read is not None
        row, log = read
        assert (row.pk, row.uid, row.version, row.status) == (game.pk, game.uid, 2, changes["status"])
        assert (row.ruleset, row.seats, row.owner_id) == (game.ruleset, game.seats, owner.pk)
        assert "snapshot" in row.get_deferred_fields()
        assert (log.key, log.key_used) == ("deal", True)
        if log.tail is not None:  # a recorder may leave the events to replay
            assert [(event.seq, event.form) for event in log.tail] == [(2, rows[0].stored_form())]
        unused = self.recorder.read_for_write(game.pk, "other", after=0)
        assert unused is not None and (unused[1].key, unused[1].key_used) == ("other", False)
        if unused[1].tail is not None:
            assert [event.seq for event in unused[1].tail] == [1, 2]
        fresh = self.recorder.read_for_write(game.pk, None, after=2)  # a fresh key: nothing to ask
        assert fresh is not None
        assert (fresh[1].key, fresh[1].key_used, fresh[1].tail or []) == (None, False, [])
        assert self.recorder.read_for_write(game.pk + 1000, "deal", after=0) is None
        assert self.recorder.read_game(game.pk + 1000) is None
        stored = Game.objects.get(pk=game.pk)
        for built in (row, self.recorder.read_game(game.pk)):  # as the ORM builds the row
            assert built is not None and not built._state.adding
            for field in Game._meta.concrete_fields:
                if field.name != "snapshot":
                    assert getattr(built, field.attname) == getattr(stored, field.attname), field.name

    def test_a_game_row_that_moved_on_is_a_conflict_and_nothing_is_written(self, owner: Any) -> None:
        game = physical_game(owner)
        rows, changes = deal_rows(game)
        Game.objects.filter(pk=game.pk).update(version=5)  # another write got there first
        before = GameEvent.objects.count(), OutboxMessage.objects.count()
        with pytest.raises(store.WriteConflict):
            self.recorder.append(game, changes, rows, [("topic", {})])
        assert (GameEvent.objects.count(), OutboxMessage.objects.count()) == before
        assert Game.objects.get(pk=game.pk).version == 5

    def test_a_retried_write_is_recognised_by_its_key_and_not_written_twice(self, owner: Any) -> None:
        game = physical_game(owner)
        at_version_1 = Game.objects.get(pk=game.pk)
        rows, changes = deal_rows(game, key="once")
        self.recorder.append(game, changes, rows, [])
        assert self.recorder.read_log(Game.objects.get(pk=game.pk), "once", after=0).key_used
        again, _ = deal_rows(at_version_1, key="once")
        with pytest.raises(store.WriteConflict):
            self.recorder.append(at_version_1, changes, again, [])
        assert GameEvent.objects.filter(GameEvent.command_key_filter("once"), game=game).count() == 1

    def test_a_log_ahead_of_its_game_row_is_corruption_and_nothing_is_written(self, owner: Any) -> None:
        game = physical_game(owner)
        rows, changes = deal_rows(game)
        self.recorder.append(game, changes, rows, [])
        Game.objects.filter(pk=game.pk).update(version=1)  # the row forgets the deal
        behind = Game.objects.get(pk=game.pk)
        again, changes = deal_rows(behind, key="k2")  # seq 2 again, under a new key
        before = GameEvent.objects.count()
        # (the atomic block: the failed statement does not break the test's transaction)
        corrupt = pytest.raises(store.CorruptStream, match="its log holds events after version 1")
        with corrupt, transaction.atomic():
            self.recorder.append(behind, changes, again, [])
        assert GameEvent.objects.count() == before
        assert Game.objects.get(pk=game.pk).version == 1

    def test_positions_are_contiguous_and_in_the_order_of_the_writes(self, owner: Any) -> None:
        games = [physical_game(owner) for _ in range(3)]
        top = top_position()
        for game in games:
            rows, changes = deal_rows(game)
            self.recorder.append(game, changes, rows, [])
        written = GameEvent.objects.filter(position__gt=top).order_by("position")
        assert [(event.game_id, event.position) for event in written] == [
            (game.pk, top + n) for n, game in enumerate(games, start=1)
        ]
        seqs = GameEvent.objects.filter(game=games[0]).order_by("position").values_list("seq", flat=True)
        assert list(seqs) == [1, 2]


class TestSQLiteRecorder(StoreContract):
    recorder = store.SQLiteRecorder()


class TestPostgresRecorder(StoreContract):
    recorder = store.PostgresRecorder()

    @pytest.fixture(autouse=True)
    def _on_postgresql(self, postgres_required: None) -> None:
        assert connection.vendor == "postgresql"


def test_the_store_writes_through_the_recorder_of_its_database() -> None:
    expected = store.PostgresRecorder if connection.vendor == "postgresql" else store.SQLiteRecorder
    assert type(store.recorder()) is expected


def test_a_write_changes_only_the_game_columns_it_knows(owner: Any) -> None:
    game = physical_game(owner)
    with pytest.raises(ValueError, match=r"cannot change \['owner_id'\]"):
        store.write_game_and_events(game, {"version": 2, "status": "playing", "owner_id": None}, [])
    assert Game.objects.get(pk=game.pk).version == 1
