"""The store contract: one write path, versions, idempotency, immutability, replay.
Runs on SQLite and on PostgreSQL (CI runs this folder on both)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction

import engine
from games import selectors, services, store
from games.models import Game, GameEvent, OutboxMessage, Source
from tests.support.games import a_legal_move, new_game, play

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


def stored_state(game_id: int) -> Any:
    rows = GameEvent.objects.filter(game_id=game_id).order_by("seq")
    return engine.replay(engine.event_from_dict(row.stored_form()) for row in rows)


def test_create_game_starts_and_deals_a_digital_game(duel: services.SubmitResult, ann: Any) -> None:
    game = Game.objects.get(pk=duel.game.pk)
    assert [e.type for e in duel.events] == ["GameStarted", "HandDealt"]
    assert [(e.seq, e.source) for e in duel.events] == [(1, Source.API), (2, Source.SYSTEM)]
    assert game.version == duel.version == 2
    assert game.status == "playing" and duel.state.to_move == 0
    assert game.seats == [
        {"name": "ann", "bot": None, "user": ann.pk},
        {"name": "bob", "bot": None, "user": game.seats[1]["user"]},
    ]
    deal = duel.events[1]
    assert deal.actor is None and len(deal.data["deck"]) == 52


def test_a_physical_game_waits_for_its_scorekeeper_to_deal(owner: Any) -> None:
    result = new_game(owner, [services.SeatSpec("Ann"), services.SeatSpec("Bo")], mode="physical")
    assert [e.type for e in result.events] == ["GameStarted"]
    assert result.state.status == "awaiting_deal" and not result.state.needs_deal


def test_commands_append_events_in_sequence_with_increasing_positions(
    duel: services.SubmitResult, ann: Any, bob: Any
) -> None:
    state = duel.state
    for _ in range(6):
        actor = ann if state.to_move == 0 else bob
        state = play(duel.game.pk, actor, a_legal_move(state)).state
    rows = list(GameEvent.objects.filter(game_id=duel.game.pk).order_by("seq"))
    assert [r.seq for r in rows] == list(range(1, len(rows) + 1))
    positions = [r.position for r in rows]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)
    assert Game.objects.get(pk=duel.game.pk).version == len(rows) == state.version


def test_the_state_the_service_returns_equals_the_replay_of_the_stored_log(
    duel: services.SubmitResult, ann: Any, bob: Any
) -> None:
    state = duel.state
    for _ in range(40):
        if state.status != "playing":
            break
        actor = ann if state.to_move == 0 else bob
        result = play(duel.game.pk, actor, a_legal_move(state))
        state = result.state
        assert state == stored_state(duel.game.pk)
    assert Game.objects.get(pk=duel.game.pk).version == state.version


def test_the_snapshot_is_written_when_the_game_ends_and_only_then(
    duel: services.SubmitResult, owner: Any, ann: Any, bob: Any
) -> None:
    state = duel.state
    while state.version < 40 and state.status == "playing":  # past the 32 that once wrote one
        actor = ann if state.to_move == 0 else bob
        state = play(duel.game.pk, actor, a_legal_move(state)).state
        assert Game.objects.get(pk=duel.game.pk).snapshot == {}
    assert state.version >= 32
    seats = Game.objects.get(pk=duel.game.pk).seats
    play(duel.game.pk, owner, {"type": "AbandonGame", "reason": "rain"})
    game = Game.objects.get(pk=duel.game.pk)
    assert game.snapshot["version"] == game.version and game.snapshot["status"] == "abandoned"
    assert game.snapshot == json.loads(json.dumps(store.state_at(game, game.version).to_dict()))
    assert game.seats == seats


def test_a_stale_expected_version_is_a_conflict_and_writes_nothing(
    duel: services.SubmitResult, ann: Any
) -> None:
    move = a_legal_move(duel.state)
    with pytest.raises(services.VersionConflict) as caught:
        play(duel.game.pk, ann, move, expected_version=1)
    assert caught.value.code == "version_conflict"
    assert (caught.value.expected_version, caught.value.current_version) == (1, 2)
    assert GameEvent.objects.filter(game_id=duel.game.pk).count() == 2


def _after_the_read(monkeypatch: pytest.MonkeyPatch, competing: Any) -> None:
    """Run ``competing()`` once, right after the next write has read the game (the row
    and its log, together or one after the other): the window in which another writer
    can get there first."""
    pending = [competing]

    def then_compete(read: Any) -> Any:
        def read_then_compete(*args: Any) -> Any:
            found = read(*args)
            while pending:
                pending.pop()()
            return found

        return read_then_compete

    monkeypatch.setattr(store, "read_log", then_compete(store.read_log))
    monkeypatch.setattr(store, "read_game_for_write", then_compete(store.read_game_for_write))


def _submit_as(game_id: int, actor: Any, command: dict[str, Any], **kwargs: Any) -> services.SubmitResult:
    """As ``play``, through the path the API takes: the row read with the key and the
    missing events (:func:`games.store.read_game_for_write`)."""
    return services.submit_as(
        actor,
        game_id,
        command,
        expected_version=kwargs.pop("expected_version", Game.objects.get(pk=game_id).version),
        idempotency_key=kwargs.pop("idempotency_key", None),
        source=Source.API,
    )


# the row, then the log (pages that read the row first); the row with the log (the API)
READ_PATHS = pytest.mark.parametrize("submit", [play, _submit_as], ids=["row-then-log", "row-with-log"])


@READ_PATHS
def test_a_write_overtaken_after_its_read_is_a_conflict_and_writes_nothing(
    duel: services.SubmitResult, ann: Any, monkeypatch: pytest.MonkeyPatch, submit: Any
) -> None:
    draw, take = {"type": "DrawFromStock", "seat": 0}, {"type": "DrawFromDiscard", "seat": 0}
    _after_the_read(monkeypatch, lambda: play(duel.game.pk, ann, take, idempotency_key="first"))
    with pytest.raises(services.VersionConflict) as caught:
        submit(duel.game.pk, ann, draw, expected_version=2, idempotency_key="second")
    assert (caught.value.expected_version, caught.value.current_version) == (2, 3)
    rows = list(GameEvent.objects.filter(game_id=duel.game.pk).order_by("seq"))
    assert [(r.seq, r.command_key) for r in rows][-1] == (3, "first") and len(rows) == 3
    game = Game.objects.get(pk=duel.game.pk)
    assert game.version == 3 and stored_state(game.pk).version == 3
    assert not OutboxMessage.objects.exists()
    # the loser's transaction left nothing behind: the next write goes through
    assert submit(duel.game.pk, ann, a_legal_move(stored_state(game.pk))).version == 4


@READ_PATHS
def test_a_retry_overtaken_by_its_own_original_returns_the_original_result(
    duel: services.SubmitResult, ann: Any, monkeypatch: pytest.MonkeyPatch, submit: Any
) -> None:
    move = a_legal_move(duel.state)
    originals: list[services.SubmitResult] = []
    _after_the_read(
        monkeypatch, lambda: originals.append(play(duel.game.pk, ann, move, idempotency_key="once"))
    )
    retry = submit(duel.game.pk, ann, move, expected_version=2, idempotency_key="once")
    assert retry.replayed and retry.version == originals[0].version == 3
    assert [e.pk for e in retry.events] == [e.pk for e in originals[0].events]
    assert GameEvent.objects.filter(game_id=duel.game.pk).count() == 3


@READ_PATHS
def test_a_write_inside_the_callers_transaction_leaves_it_usable_after_a_conflict(
    duel: services.SubmitResult, ann: Any, monkeypatch: pytest.MonkeyPatch, submit: Any
) -> None:
    take = {"type": "DrawFromDiscard", "seat": 0}
    _after_the_read(monkeypatch, lambda: play(duel.game.pk, ann, take, idempotency_key="first"))
    with transaction.atomic():
        with pytest.raises(services.VersionConflict):
            submit(duel.game.pk, ann, {"type": "DrawFromStock", "seat": 0}, expected_version=2)
        assert Game.objects.get(pk=duel.game.pk).version == 3  # the transaction still answers


def test_an_illegal_command_raises_the_engine_code_and_writes_nothing(
    duel: services.SubmitResult, bob: Any
) -> None:
    with pytest.raises(engine.IllegalMove) as caught:
        play(duel.game.pk, bob, {"type": "DrawFromStock", "seat": 1})
    assert caught.value.code == "not_your_turn"
    assert Game.objects.get(pk=duel.game.pk).version == 2


def test_a_retry_with_the_same_key_returns_the_original_result_and_writes_nothing(
    duel: services.SubmitResult, ann: Any
) -> None:
    move = a_legal_move(duel.state)
    first = play(duel.game.pk, ann, move, idempotency_key="retry-1")
    count = GameEvent.objects.count()
    again = play(duel.game.pk, ann, move, idempotency_key="retry-1", expected_version=2)
    assert again.replayed and not first.replayed
    assert again.version == first.version == 3
    assert [e.pk for e in again.events] == [e.pk for e in first.events]
    assert again.state == first.state and again.state_before == first.state_before
    assert GameEvent.objects.count() == count


def test_the_same_key_for_a_different_command_is_refused(duel: services.SubmitResult, ann: Any) -> None:
    play(duel.game.pk, ann, {"type": "DrawFromStock", "seat": 0}, idempotency_key="k1")
    with pytest.raises(services.IdempotencyKeyReused) as caught:
        play(duel.game.pk, ann, {"type": "DrawFromDiscard", "seat": 0}, idempotency_key="k1")
    assert caught.value.code == "idempotency_key_reused"
    assert "different command" in caught.value.message


def test_the_same_key_from_another_user_is_refused(duel: services.SubmitResult, ann: Any, bob: Any) -> None:
    play(duel.game.pk, ann, {"type": "DrawFromStock", "seat": 0}, idempotency_key="k1")
    with pytest.raises(services.IdempotencyKeyReused):
        play(
            duel.game.pk, bob, {"type": "DrawFromStock", "seat": 0}, idempotency_key="k1", expected_version=2
        )


def test_every_write_carries_a_key_and_its_events_share_it(duel: services.SubmitResult) -> None:
    rows = list(GameEvent.objects.filter(game_id=duel.game.pk).order_by("seq"))
    key = rows[0].command_key
    assert key.startswith("auto:")
    assert [r.idempotency_key for r in rows] == [key, f"{key}#2"]
    assert {r.command_key for r in rows} == {key}


def test_creating_with_a_repeated_key_returns_the_same_game(owner: Any) -> None:
    def create() -> services.SubmitResult:
        return services.create_game(
            ruleset=engine.get_ruleset("gin"),
            mode="physical",
            seats=[services.SeatSpec("A"), services.SeatSpec("B")],
            owner=owner,
            source=Source.WEB,
            idempotency_key="new-game-1",
        )

    first, second = create(), create()
    assert second.replayed and second.game.pk == first.game.pk
    assert Game.objects.count() == 1


@pytest.mark.parametrize(
    "statement", ["UPDATE games_gameevent SET type = 'X'", "DELETE FROM games_gameevent"]
)
def test_the_database_rejects_updating_or_deleting_events(
    duel: services.SubmitResult, statement: str
) -> None:
    with (
        pytest.raises(IntegrityError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)
    assert GameEvent.objects.filter(game_id=duel.game.pk).count() == 2


def test_the_orm_cannot_edit_an_event_either(duel: services.SubmitResult) -> None:
    event = GameEvent.objects.filter(game_id=duel.game.pk).first()
    assert event is not None
    event.data = {}
    with pytest.raises(IntegrityError), transaction.atomic():
        event.save()
    with pytest.raises(IntegrityError), transaction.atomic():
        GameEvent.objects.filter(pk=event.pk).delete()


def test_unique_seq_per_game_is_a_database_constraint(duel: services.SubmitResult) -> None:
    row = GameEvent.objects.get(game_id=duel.game.pk, seq=2)
    twin = GameEvent(
        game_id=row.game_id,
        seq=2,
        position=10_000,
        type=row.type,
        schema_version=1,
        data={},
        source=Source.SYSTEM,
        idempotency_key="other",
        command_digest="",
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        twin.save()


def test_events_after_reads_the_global_feed_in_position_order(owner: Any, ann: Any, bob: Any) -> None:
    one = new_game(owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(user_id=bob.pk)])
    two = new_game(owner, [services.SeatSpec(user_id=bob.pk), services.SeatSpec(user_id=ann.pk)])
    feed = selectors.events_after(0)
    assert [(e.game_id, e.seq) for e in feed] == [
        (one.game.pk, 1),
        (one.game.pk, 2),
        (two.game.pk, 1),
        (two.game.pk, 2),
    ]
    assert [e.position for e in selectors.events_after(feed[1].position, limit=1)] == [feed[2].position]
    assert [e.position for e in feed] == list(range(feed[0].position, feed[0].position + 4))


def test_a_stale_cached_state_catches_up_from_the_log(duel: services.SubmitResult, ann: Any) -> None:
    game = Game.objects.get(pk=duel.game.pk)
    store.state_cache.put(game, duel.state)
    play(duel.game.pk, ann, a_legal_move(duel.state))  # on_commit never runs here: the cache is stale
    game.refresh_from_db()
    assert store.load_state(game) == stored_state(game.pk)


def test_a_game_whose_log_does_not_reach_its_version_is_reported(duel: services.SubmitResult) -> None:
    Game.objects.filter(pk=duel.game.pk).update(version=5)
    with pytest.raises(store.CorruptStream, match="replays to version 2, not 5"):
        store.load_state(Game.objects.get(pk=duel.game.pk))


def test_bot_seats_get_an_outbox_row_in_the_same_transaction(owner: Any, ann: Any) -> None:
    result = new_game(
        owner, [services.SeatSpec(user_id=ann.pk), services.SeatSpec(bot="greedy")], first_dealer=0
    )
    assert result.state.to_move == 1
    (message,) = OutboxMessage.objects.all()
    assert message.topic == "games.tasks.play_bot_turn"
    assert message.payload == {"game_id": result.game.pk, "expected_version": result.version}
    assert message.dispatched_at is None  # the test transaction never commits


def test_unknown_bots_and_users_are_refused_before_anything_is_written(owner: Any) -> None:
    with pytest.raises(engine.IllegalMove) as caught:
        new_game(owner, [services.SeatSpec("A"), services.SeatSpec(bot="genius")])
    assert caught.value.code == "unknown_bot"
    with pytest.raises(engine.IllegalMove) as caught:
        new_game(owner, [services.SeatSpec("A"), services.SeatSpec(user_id=999_999)])
    assert caught.value.code == "unknown_user"
    assert not Game.objects.exists()


def test_a_replaced_seat_loses_its_user(duel: services.SubmitResult, owner: Any) -> None:
    play(duel.game.pk, owner, {"type": "ReplaceSeat", "seat": 1, "name": "Sub", "bot": None})
    assert Game.objects.get(pk=duel.game.pk).seats[1] == {"name": "Sub", "bot": None, "user": None}


def test_a_write_on_a_stale_cached_state_reads_the_missing_events_with_the_game(
    duel: services.SubmitResult, ann: Any, bob: Any, django_assert_num_queries: Any
) -> None:
    game = Game.objects.get(pk=duel.game.pk)
    state = duel.state
    for _ in range(3):  # another process wrote these: this one's cache stays at version 2
        state = play(game.pk, ann if state.to_move == 0 else bob, a_legal_move(state)).state
    store.state_cache.clear()
    store.state_cache.put(game, duel.state)
    move, actor = a_legal_move(state), ann if state.to_move == 0 else bob
    game = Game.objects.get(pk=game.pk)  # the row the caller has read
    # PostgreSQL: the key and the events after version 2 in one statement, then the write
    # (one call of games_append; no savepoint, though the test runs in a transaction).
    # SQLite: the key, the events after version 2, savepoint, update, top, insert, release
    with django_assert_num_queries(2 if connection.vendor == "postgresql" else 7):
        result = services.submit_command(
            game=game, command=move, actor=actor, source=Source.API, expected_version=state.version
        )
    assert result.state_before == state and result.state == stored_state(game.pk)


def test_quotes_and_backslashes_in_keys_and_payloads_are_stored_as_sent(
    duel: services.SubmitResult, owner: Any
) -> None:
    name = 'O\'Brien \\ "Sub"; DROP TABLE games_game; --'
    key = "it's \\ a key; --"
    result = play(
        duel.game.pk,
        owner,
        {"type": "ReplaceSeat", "seat": 1, "name": name, "bot": None},
        idempotency_key=key,
    )
    game = Game.objects.get(pk=duel.game.pk)
    assert game.seats[1] == {"name": name, "bot": None, "user": None}
    row = GameEvent.objects.get(game=game, idempotency_key=key)
    assert row.data["name"] == name and row.command_key == key and row.pk == result.events[0].pk
    assert row.position == result.events[0].position
    again = play(
        duel.game.pk,
        owner,
        {"type": "ReplaceSeat", "seat": 1, "name": name, "bot": None},
        idempotency_key=key,
        expected_version=result.version - 1,
    )
    assert again.replayed and [e.pk for e in again.events] == [e.pk for e in result.events]


def test_start_game_is_not_a_command_for_an_existing_game(duel: services.SubmitResult, ann: Any) -> None:
    from fractions import Fraction

    start = engine.StartGame(
        ruleset=engine.get_ruleset("knock-rummy"),
        seats=(engine.Seat("A", None), engine.Seat("B", None)),
        mode="digital",
        first_dealer=0,
        stake=Fraction(0),
    )
    with pytest.raises(engine.IllegalMove) as caught:
        play(duel.game.pk, ann, engine.command_to_dict(start))
    assert caught.value.code == "unexpected_command"
    assert Game.objects.get(pk=duel.game.pk).version == 2


def test_the_state_cache_keeps_no_history_and_a_retraction_reads_it_from_the_log(
    owner: Any, ann: Any, bob: Any
) -> None:
    result = new_game(owner, [services.SeatSpec("Ann"), services.SeatSpec("Bo")], mode="physical")
    game_id = result.game.pk
    deal = {"type": "DealHand", "upcard": "KD"}
    state = play(game_id, owner, deal).state
    for _ in range(3):
        state = play(game_id, owner, a_legal_move(state)).state
    game = Game.objects.get(pk=game_id)
    assert store.load_state(game) == state  # and into the cache
    cached = store.state_cache.get(game)
    assert cached == state and cached.prior is None and cached.depth == state.depth == 4
    retracted = play(game_id, owner, {"type": "Retract", "count": 3, "reason": "wrong entries"})
    assert retracted.state == stored_state(game_id)
    assert retracted.state.version == state.version + 1 and retracted.state.depth == state.depth - 3


def test_a_retraction_written_elsewhere_is_caught_up_by_a_full_replay(
    owner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = new_game(owner, [services.SeatSpec("Ann"), services.SeatSpec("Bo")], mode="physical")
    game_id = result.game.pk
    state = play(game_id, owner, {"type": "DealHand", "upcard": "KD"}).state
    state = play(game_id, owner, a_legal_move(state)).state
    game = Game.objects.get(pk=game_id)
    stale = store.state_cache.get(game)  # this process's cache, before the retraction
    play(game_id, owner, {"type": "Retract", "count": 1, "reason": "misdealt draw"})
    store.state_cache.put(game, stale)  # as if another process had written it
    caught_up = store.load_state(Game.objects.get(pk=game_id))
    assert caught_up == stored_state(game_id) and caught_up.version == state.version + 1


def test_a_write_decided_on_a_row_read_before_another_write_is_a_conflict(
    duel: services.SubmitResult, ann: Any
) -> None:
    """The service writes only over the row it was given: read before another write
    moved the game on, it is stale even though it agrees with ``expected_version``."""
    stale = Game.objects.get(pk=duel.game.pk)
    play(duel.game.pk, ann, {"type": "DrawFromDiscard", "seat": 0}, idempotency_key="first")
    with pytest.raises(services.VersionConflict) as caught:
        services.submit_command(
            game=stale,
            command={"type": "DrawFromStock", "seat": 0},
            actor=ann,
            source=Source.API,
            expected_version=2,
            idempotency_key="second",
        )
    assert (caught.value.expected_version, caught.value.current_version) == (2, 3)
    assert caught.value.command == {"type": "DrawFromStock", "seat": 0, "card": None}
    assert GameEvent.objects.filter(game_id=duel.game.pk).count() == 3


@pytest.mark.parametrize(
    "command",
    [
        {"type": "discard", "seat": 0, "card": "4H"},
        {"type": "replace_seat", "seat": 1, "name": "Zoë \u00e9\u4e2d", "bot": None},
    ],
)
def test_the_command_digest_is_the_sha256_of_its_stored_text(command: dict[str, Any]) -> None:
    """Digests already stored were made from this exact text: a retry after an upgrade
    must still match its original."""
    import hashlib

    text = json.dumps({"command": command, "actor": 7}, sort_keys=True, separators=(",", ":"))
    assert services.command_digest(command, 7) == hashlib.sha256(text.encode()).hexdigest()
    assert services.command_digest(command, None) != services.command_digest(command, 7)


def test_written_rows_know_their_game_and_actor_without_a_query(
    duel: services.SubmitResult, ann: Any, django_assert_num_queries: Any
) -> None:
    result = play(duel.game.pk, ann, a_legal_move(duel.state))
    with django_assert_num_queries(0):
        assert all(row.game is result.game and row.game_id == result.game.pk for row in result.events)
        assert result.events[0].actor == ann and result.events[0].actor_id == ann.pk
        assert all(row.pk is not None and row.position is not None for row in result.events)
    stored = GameEvent.objects.get(pk=result.events[0].pk)
    assert (stored.game_id, stored.actor_id, stored.seq) == (result.game.pk, ann.pk, result.events[0].seq)
