"""Building the standings from zero equals building them incrementally, whatever the
order of refreshes between the writes (hypothesis), on SQLite and on PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.errors import EngineError
from games.models import GameEvent
from league import projection
from league.models import Club, ResultVersion, StandingsState, Tournament
from league.standings import table_result
from tests.support.standings_rows import stored_rows
from tests.support.tournaments import add_round, command, make_tournament, open_game, players, record_hand

pytestmark = [pytest.mark.django_db, pytest.mark.both_databases]

OPERATIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["hand", "hand", "hand", "retract", "adjust", "abandon", "replace", "refresh", "refresh_game"]
        ),
        st.integers(0, 2),  # which game
        st.integers(0, 2),  # knocker, seat, or how much to retract
        st.lists(st.integers(0, 40), min_size=3, max_size=3),  # deadwood counts
    ),
    max_size=14,
)


def snapshot(tournament: Tournament) -> tuple[Any, ...]:
    state = StandingsState.objects.get(tournament=tournament)
    versions = list(
        ResultVersion.objects.filter(tournament=tournament)
        .order_by("position")
        .values_list("game_id", "position", "seq", "cause", "hand", "actor_id", "reason", "result")
    )
    return state.position, stored_rows(tournament), state.rows, versions


def apply(
    operation: tuple[str, int, int, list[int]], games: list[int], recorder: Any, tournament: Tournament
) -> None:
    kind, which, number, deadwood = operation
    game = games[which]
    seats = 3 if which == 0 else 2
    bodies = {
        "retract": {"type": "Retract", "count": (1, 2, 3)[number], "reason": "typo"},
        "adjust": {
            "type": "AdjustScore",
            "seat": number % seats,
            "points": f"-{number + 1}",
            "reason": "late",
        },
        "abandon": {"type": "AbandonGame", "reason": "left"},
        "replace": {"type": "ReplaceSeat", "seat": number % seats, "name": "Sub"},
    }
    try:
        if kind == "hand":
            record_hand(game, recorder, number % seats, deadwood[:seats])
        elif kind in bodies:
            command(game, recorder, bodies[kind])
        elif kind == "refresh":
            projection.refresh(tournament.pk)
        else:
            projection.refresh_game(game)
    except EngineError:
        pass  # a command the rules refuse here (the game is over, nothing to retract…)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS, scoring=st.sampled_from(["points", "placement", "match"]))
def test_rebuild_from_zero_equals_incremental_in_any_order_of_refreshes(
    owner: Any, operations: list[tuple[str, int, int, list[int]]], scoring: str
) -> None:
    with transaction.atomic():
        club = Club.objects.create(name="Prop club", slug="prop")
        a, b, c, d, e, f, g = players(club, *"ABCDEFG")
        tournament = make_tournament(club, scoring=scoring)
        first = add_round(tournament, 1, [[a, b, c], [d, e]], byes=[f])
        second = add_round(tournament, 2, [[f, g]], byes=[a])
        tables = [*first.tables.all(), second.tables.get()]
        games = [open_game(table, owner, hands=2) for table in tables]
        for operation in operations:
            apply(operation, games, owner, tournament)
        projection.refresh(tournament.pk)
        incremental = snapshot(tournament)
        for game in games:  # the fold's reading of each log agrees with the engine's replay
            log = [row.stored_form() for row in GameEvent.objects.filter(game_id=game).order_by("seq")]
            state = engine.replay([engine.event_from_dict(e) for e in log])
            result = table_result(log)
            assert result.status == {"finished": "finished", "abandoned": "abandoned"}.get(
                state.status, "playing"
            )
            expected = state.result
            assert result.places == (expected.places if expected else None)
            assert result.points == (expected.points if expected else None)
        projection.rebuild(tournament.pk)
        assert snapshot(tournament) == incremental
        transaction.set_rollback(True)
