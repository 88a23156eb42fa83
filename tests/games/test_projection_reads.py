"""The reads games.selectors offers other apps' projections (standings, ratings,
archives): each against rows made through the services, and a lazy id queryset read as
a subquery of the same statement."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from games import selectors
from games.models import Game, GameEvent
from games.services import SeatSpec
from tests.support.games import new_game, play

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]


@pytest.fixture
def two(owner: Any) -> tuple[Game, Game]:
    """A physical knock rummy game with one hand recorded, and a gin game just dealt."""
    knock = new_game(owner, [SeatSpec("Ann"), SeatSpec("Bo")], mode="physical", hands=3).game
    play(knock.pk, owner, {"type": "RecordHandResult", "knocker": 0, "deadwood": {"0": 3, "1": 20}})
    gin = new_game(owner, [SeatSpec("Cy"), SeatSpec(bot="random")], mode="physical", preset="gin-rummy").game
    return Game.objects.get(pk=knock.pk), Game.objects.get(pk=gin.pk)


def test_versions_seats_presets_and_games_by_id(two: tuple[Game, Game]) -> None:
    knock, gin = two
    assert selectors.game_versions([knock.pk, gin.pk]) == {knock.pk: knock.version, gin.pk: gin.version}
    assert knock.version > 1
    seats = selectors.seats_of([gin.pk])
    assert [seat["name"] for seat in seats[gin.pk]] == ["Cy", gin.seats[1]["name"]]
    assert seats[gin.pk][1].get("bot") == "random"
    assert (selectors.preset_of(knock.pk), selectors.preset_of(gin.pk)) == ("knock-rummy", "gin-rummy")
    assert selectors.preset_of(987654) is None
    assert selectors.games_by_id([gin.pk, 987654]) == {gin.pk: gin}


def test_event_rows_read_data_only_of_the_types_asked(two: tuple[Game, Game]) -> None:
    knock, gin = two
    rows = list(selectors.event_rows([gin.pk, knock.pk], data_of={"HandScored"}))
    stored = list(
        GameEvent.objects.filter(game__in=[knock, gin])
        .order_by("game_id", "seq")
        .values_list(
            "game_id", "seq", "position", "type", "schema_version", "data", "actor_id", "recorded_at"
        )
    )
    assert [row[:5] for row in rows] == [row[:5] for row in stored]
    assert [row[6:] for row in rows] == [row[6:] for row in stored]
    for row, original in zip(rows, stored, strict=True):
        assert row[5] == (original[5] if row[3] == "HandScored" else None)
    assert any(row[3] == "HandScored" and row[5] for row in rows)


def test_positions_and_times(two: tuple[Game, Game]) -> None:
    knock, gin = two
    events = list(GameEvent.objects.order_by("position"))
    scored = [e for e in events if e.type == "HandScored"]
    assert selectors.event_positions([knock.pk, gin.pk], types={"HandScored"}) == [
        (knock.pk, scored[0].position)
    ]
    assert selectors.event_positions([knock.pk], types={"HandScored"}, after=scored[0].position) == []
    assert selectors.last_position([knock.pk, gin.pk], types={"GameStarted", "HandScored"}) == max(
        e.position for e in events if e.type in ("GameStarted", "HandScored")
    )
    assert selectors.last_position([gin.pk], types={"HandScored"}) == 0
    assert selectors.recorded_at_position(events[2].position) == events[2].recorded_at
    assert selectors.recorded_at_position(0) is None


def test_game_ids_among_filters_by_preset_in_one_statement(
    two: tuple[Game, Game], django_assert_num_queries: Any
) -> None:
    knock, gin = two
    lazy = GameEvent.objects.filter(type="HandScored").values_list("game_id", flat=True)
    ids = selectors.game_ids_among(lazy, [gin.pk], presets={"knock-rummy", "gin-rummy"})
    with django_assert_num_queries(1):
        assert sorted(ids) == sorted([knock.pk, gin.pk])
    assert list(selectors.game_ids_among([knock.pk, gin.pk], presets={"gin-rummy"})) == [gin.pk]
    assert list(selectors.game_ids_among(presets={"gin-rummy"})) == []
    with django_assert_num_queries(1):  # the id queryset is a subquery
        assert selectors.game_versions(selectors.game_ids_among(lazy, presets={"knock-rummy"})) == {
            knock.pk: knock.version
        }


def test_current_states_are_the_replayed_states(
    two: tuple[Game, Game], owner: Any, django_assert_num_queries: Any
) -> None:
    from games import store

    knock, gin = two
    empty = new_game(owner, [SeatSpec("Di"), SeatSpec("Ed")], mode="physical").game
    states = selectors.current_states([knock.pk, gin.pk, empty.pk, 987654])
    assert set(states) == {knock.pk, gin.pk, empty.pk}  # an unknown id is left out
    assert states[knock.pk] == store.load_state(knock, use_cache=False)
    assert states[knock.pk].tally.hands_scored == 1 and states[gin.pk].version == gin.version
    with django_assert_num_queries(1):  # cached: the games' row only
        selectors.current_states([knock.pk, gin.pk])


def test_final_results_read_the_places_the_engine_reads(two: tuple[Game, Game], owner: Any) -> None:
    knock, gin = two
    play(knock.pk, owner, {"type": "RecordHandResult", "knocker": 1, "deadwood": {"0": 30, "1": 2}})
    play(knock.pk, owner, {"type": "RecordHandResult", "knocker": 1, "deadwood": {"0": 40, "1": 0}})
    finished = GameEvent.objects.get(game=knock, type="GameFinished")
    event = engine.event_from_dict(finished.stored_form())
    assert isinstance(event, engine.GameFinished)
    lazy = Game.objects.filter(pk__in=[knock.pk, gin.pk]).values_list("pk", flat=True)
    for ids in ([knock.pk, gin.pk], lazy):
        assert selectors.final_results(ids) == [
            selectors.FinalResult(knock.pk, finished.position, event.result.places, ())
        ]
    assert event.result.places == (2, 1)
    assert selectors.final_results([knock.pk], finished_from=finished.position + 1) == []


def test_a_finish_stored_unlike_the_engine_writes_it_is_read_through_the_engine(
    two: tuple[Game, Game],
) -> None:
    knock, _ = two
    top = GameEvent.objects.order_by("-position").values_list("position", flat=True)[0]
    GameEvent.objects.create(
        game=knock,
        seq=knock.version + 1,
        position=top + 1,
        type="GameFinished",
        schema_version=1,
        data={"result": {"places": ["1", "2"]}},
        source="system",
        idempotency_key="hand-made",
        command_digest="-",
    )
    with pytest.raises(engine.InvalidEvent) as refused:
        selectors.final_results([knock.pk])
    assert str(refused.value).startswith("GameFinished: bad 'result'")
