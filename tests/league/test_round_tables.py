"""A round's tables as every reader gets them (league.selectors.round_tables), and what
publishing a round costs in queries: a fixed number, plus each game's creation."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import engine
from games import services as game_services
from games.models import Game, Source
from league import services
from league.models import ClubGame, Player, Round, Table, Tournament
from league.selectors import RoundSeat, round_tables
from tests.support.league import checked_in_tournament, finish_round

pytestmark = pytest.mark.django_db


def _tournament(staff: dict[str, Any], tables: int, **data: Any) -> Tournament:
    names = [f"P{n}" for n in range(3 * tables)]
    return checked_in_tournament(staff, names, table_size={"min": 3, "max": 3}, **data)


def test_a_round_s_tables_come_with_their_seats_players_and_games(staff: dict[str, Any]) -> None:
    tournament = _tournament(staff, 2)
    draft = services.generate_round(tournament, staff["director"])
    tables = round_tables([draft.pk])[draft.pk]
    assert [t.number for t in tables] == [1, 2]
    stored = {t.number: t for t in Table.objects.filter(round=draft)}
    for table in tables:
        seats = stored[table.number].seats.order_by("position").select_related("player")
        assert table.pk == stored[table.number].pk and table.round_id == draft.pk
        assert table.seats == tuple(
            RoundSeat(s.position, s.player_id, s.player.name, s.player.user_id, "") for s in seats
        )
        assert table.player_ids == tuple(s.player_id for s in seats)
        assert [n.to_dict() for n in table.notes] == stored[table.number].notes
        assert (table.game_id, table.game_status, table.game_version) == (None, None, None)
    published = services.publish_round(draft, staff["director"])
    tables = round_tables([published.pk])[published.pk]
    games = {g.pk: g for g in Game.objects.all()}
    assert sorted(t.game_id for t in tables) == sorted(games)
    for table in tables:
        game = games[table.game_id]
        assert (table.game_status, table.game_version) == (game.status, game.version)


def test_bot_seats_are_read_as_bots(staff: dict[str, Any], make_user: Callable[..., Any]) -> None:
    tournament = checked_in_tournament(
        staff, (), mode="digital", bots=True, bot="greedy", table_size={"min": 3, "max": 3}
    )
    for name in ("Ann", "Bo"):
        player = Player.objects.create(club=staff["club"], name=name, user=make_user(name.lower()))
        registration = services.register(tournament, player=player)
        services.set_registration_status(registration, "checked_in")
    round_ = services.publish_round(services.generate_round(tournament, staff["director"]), staff["director"])
    (table,) = round_tables([round_.pk])[round_.pk]
    assert [(s.position, s.player_id is None, s.bot) for s in table.seats] == [
        (0, False, ""),
        (1, False, ""),
        (2, True, "greedy"),
    ]
    assert table.seats[2].name == "" and table.seats[2].user_id is None
    assert {s.user_id for s in table.seats[:2]} == set(
        Player.objects.filter(name__in=("Ann", "Bo")).values_list("user_id", flat=True)
    )
    assert table.player_ids == (table.seats[0].player_id, table.seats[1].player_id)


@pytest.mark.parametrize(("rounds", "tables"), [(1, 2), (3, 5)])
def test_round_tables_reads_any_number_of_rounds_in_two_queries(
    staff: dict[str, Any], rounds: int, tables: int, django_assert_num_queries: Any
) -> None:
    tournament = _tournament(staff, tables)
    ids = []
    for _ in range(rounds):
        director = staff["director"]
        round_ = services.publish_round(services.generate_round(tournament, director), director)
        finish_round(round_, staff["director"])
        ids.append(round_.pk)
    with django_assert_num_queries(2):  # the seats with their players; the tables with their games
        found = round_tables(ids)
    assert list(found) == ids
    assert [len(found[pk]) for pk in ids] == [tables] * rounds
    assert all(len(t.seats) == 3 and t.game_status == "finished" for pk in ids for t in found[pk])


def test_no_round_costs_no_query(django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        assert round_tables([]) == {}


def _game_creation_queries(staff: dict[str, Any], tournament: Tournament) -> int:
    """What games.services.create_game runs for one table's game, as publishing calls it."""
    ruleset = engine.RuleSet.from_dict(
        {"schema_version": 1, "preset": tournament.preset, "options": tournament.options}
    )
    with CaptureQueriesContext(connection) as queries:
        game_services.create_game(
            ruleset=ruleset,
            mode=tournament.mode,
            seats=[game_services.SeatSpec(name=name) for name in ("A", "B", "C")],
            stake=Fraction(0),
            owner=staff["director"],
            source=Source.SYSTEM,
            idempotency_key="measure",
            context={"club": tournament.club_id},
        )
    return len(queries)


def test_publishing_costs_a_fixed_number_of_queries_and_each_game_s_creation(staff: dict[str, Any]) -> None:
    """No per-table read or write of the league's own: the tables are read once, the
    club links and the tables' games written together (issue 25: 55 queries for 3 tables)."""
    counts = {}
    for tables in (2, 5):
        tournament = _tournament(staff, tables, name=f"Cup of {tables}")
        draft = services.generate_round(tournament, staff["director"])
        with CaptureQueriesContext(connection) as queries:
            published = services.publish_round(draft, staff["director"])
        counts[tables] = len(queries)
        assert published.status == Round.Status.PUBLISHED
        assert Table.objects.filter(round=published, game=None).count() == 0
        games = Table.objects.filter(round=published).values("game_id")
        assert ClubGame.objects.filter(game_id__in=games, club=staff["club"]).count() == tables
    per_game = _game_creation_queries(staff, tournament)
    assert counts[5] - counts[2] == 3 * per_game
    # the tournament and the round locked, the tables and seats read, the club links and
    # the tables' games written, the round saved, the tournament started; and the
    # transaction's savepoint and its release (the test runs inside a transaction)
    assert counts[2] - 2 * per_game == 10


def test_a_manual_round_starts_from_the_checked_in_players_in_registration_order(
    staff: dict[str, Any],
) -> None:
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
    manual = checked_in_tournament(staff, names, seating="manual", table_size={"min": 3, "max": 3})
    ids = list(manual.registrations.order_by("id").values_list("player_id", flat=True))
    assert services.manual_start(manual) == {"tables": [ids[0:3], ids[3:6]], "byes": [ids[6]]}
    round_ = services.generate_round(manual, staff["director"], manual=services.manual_start(manual))
    assert [t.player_ids for t in round_tables([round_.pk])[round_.pk]] == [tuple(ids[0:3]), tuple(ids[3:6])]
    # any other method seats by itself
    assert services.manual_start(_tournament(staff, 1, name="Balanced")) is None
