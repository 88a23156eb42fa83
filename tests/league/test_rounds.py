"""Rounds through the services: who is active, standings until League II, digital
tables with bots, completion from the game events through the outbox."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from games.models import Game, OutboxMessage
from league import services, tasks
from league.models import Player, Registration, Round, TableSeat, Tournament
from tests.support.league import checked_in_tournament, finish_round

pytestmark = pytest.mark.django_db


def _seated(round_: Round) -> set[int]:
    return {s.player_id for t in round_.tables.all() for s in t.seats.all() if s.player_id} | set(round_.byes)


def test_active_players_are_checked_in_entered_and_not_dropped(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"))
    director = staff["director"]
    late = services.register(tournament, name="Late", from_round=2)
    services.set_registration_status(late, "checked_in")
    absent = services.register(tournament, name="Absent")  # registered, never checked in
    first = services.generate_round(tournament, director)
    assert late.player_id not in _seated(first) and absent.player_id not in _seated(first)
    assert len(_seated(first)) == 6
    first = services.publish_round(first, director)
    finish_round(first, director)
    ann = Registration.objects.get(tournament=tournament, player__name="Ann")
    services.set_registration_status(ann, "dropped")
    assert Registration.objects.get(pk=ann.pk).dropped_after == 1
    second = services.generate_round(tournament, director)
    assert late.player_id in _seated(second) and ann.player_id not in _seated(second)
    # round 1 still counts Ann, who played it: its regeneration is unchanged
    assert services.regenerate(first).same
    with pytest.raises(services.LeagueError) as refused:
        services.set_registration_status(Registration.objects.get(pk=ann.pk), "withdrawn")
    assert refused.value.code == "already_played"


def test_swiss_seats_by_the_standings_projection(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(
        staff, ("Ann", "Bo", "Cy", "Di"), seating="swiss", table_size={"min": 2, "max": 2}
    )
    director = staff["director"]
    first = services.publish_round(services.generate_round(tournament, director), director)
    finish_round(first, director)
    order, points = services.seating_standings(tournament, 2)
    winners = {t.seats.all()[0].player_id for t in first.tables.all()}
    assert set(order[:2]) == winners
    assert all(points[p] > 0 for p in winners) and sum(points.values()) == Fraction(0)
    second = services.generate_round(tournament, director)
    # Swiss: the two winners meet
    assert any({s.player_id for s in t.seats.all()} == winners for t in second.tables.all())
    assert second.request["points"]


def test_digital_tables_get_bots_up_to_the_minimum(
    staff: dict[str, Any], make_user: Callable[..., Any]
) -> None:
    tournament = checked_in_tournament(
        staff, (), mode="digital", bots=True, bot="random", table_size={"min": 4, "max": 4}
    )
    director = staff["director"]
    for name in ("Ann", "Bo", "Cy", "Di", "Ed"):
        player = Player.objects.create(club=staff["club"], name=name, user=make_user(name.lower()))
        services.set_registration_status(services.register(tournament, player=player), "checked_in")
    round_ = services.generate_round(tournament, director)
    assert round_.byes == [] and sorted(t.seats.count() for t in round_.tables.all()) == [2, 3]
    round_ = services.publish_round(round_, director)
    for table in round_.tables.all():
        assert table.seats.count() == 4
        game = Game.objects.get(pk=table.game_id)
        assert [s["bot"] for s in game.seats].count("random") == 4 - len(
            [s for s in table.seats.all() if s.player_id]
        )
        assert all(s["user"] for s in game.seats if not s["bot"])
    assert TableSeat.objects.filter(bot="random").count() == 3


def test_a_digital_player_without_a_login_cannot_be_seated(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy"), mode="digital", bots=True)
    round_ = services.generate_round(tournament, staff["director"])
    with pytest.raises(services.LeagueError) as refused:
        services.publish_round(round_, staff["director"])
    assert refused.value.code == "player_has_no_login"
    assert Round.objects.get(pk=round_.pk).status == "draft" and not Game.objects.exists()


def test_game_end_writes_an_outbox_row_and_the_task_is_idempotent(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy"))
    director = staff["director"]
    round_ = services.publish_round(services.generate_round(tournament, director), director)
    finish_round(round_, director)
    game_id = round_.tables.get().game_id
    rows = OutboxMessage.objects.filter(topic=tasks.GAME_ENDED)
    assert [r.payload for r in rows] == [{"game_id": game_id}]
    assert Round.objects.get(pk=round_.pk).status == "published"  # the task has not run (no commit)
    assert tasks.game_ended(game_id) is True
    assert tasks.game_ended(game_id) is True  # delivered twice: nothing more happens
    done = Round.objects.get(pk=round_.pk)
    assert done.status == "complete" and done.completed_at is not None
    assert tasks.game_ended(424242) is False  # not a league game
    assert tasks.check_open_rounds() == 0


def test_the_last_fixed_round_finishes_the_tournament(staff: dict[str, Any]) -> None:
    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy"), rounds=1)
    director = staff["director"]
    round_ = services.publish_round(services.generate_round(tournament, director), director)
    assert Tournament.objects.get(pk=tournament.pk).status == "running"
    finish_round(round_, director)
    assert services.check_open_rounds() == 1
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"


def test_a_round_robin_league_with_open_rounds_is_refused_as_a_tournament(staff: dict[str, Any]) -> None:
    with pytest.raises(services.LeagueError):
        services.create_tournament(
            staff["club"], {"name": "X", "table_size": {"min": 2, "max": 2}, "seating": "swiss"}, None
        )
    season = services.create_tournament(
        staff["club"], {"name": "Season", "kind": "league", "table_size": {"min": 2, "max": 2}}, None
    )
    assert season.rounds is None and season.kind == "league"


def test_check_rounds_command_completes_what_the_task_missed(staff: dict[str, Any]) -> None:
    from io import StringIO

    from django.core.management import call_command

    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy"))
    director = staff["director"]
    round_ = services.publish_round(services.generate_round(tournament, director), director)
    out = StringIO()
    call_command("check_rounds", stdout=out)
    assert out.getvalue().startswith("0 published rounds complete")
    finish_round(round_, director)
    call_command("check_rounds", stdout=out)
    assert "1 published round complete" in out.getvalue()
    assert Round.objects.get(pk=round_.pk).status == "complete"


def test_no_league_read_shows_a_card(staff: dict[str, Any], make_user: Callable[..., Any]) -> None:
    """A digital round in play: the league's answers name games, never cards (the games
    API decides who sees which card)."""
    from engine.cards import ALL_CARDS
    from games import services as game_services
    from tests.support.games import client_for

    codes = {card.code for card in ALL_CARDS}
    tournament = checked_in_tournament(
        staff, (), mode="digital", bots=True, bot="greedy", table_size={"min": 3, "max": 3}
    )
    director = staff["director"]
    for name in ("Ann", "Bo"):
        player = Player.objects.create(club=staff["club"], name=name, user=make_user(name.lower()))
        services.set_registration_status(services.register(tournament, player=player), "checked_in")
    round_ = services.publish_round(services.generate_round(tournament, director), director)
    game = Game.objects.get(pk=round_.tables.get().game_id)
    game_services.run_bot_turns(game_id=game.pk, expected_version=game.version)
    assert Game.objects.get(pk=game.pk).version > 1  # dealt: there are cards to hide
    t = tournament.pk
    urls = [
        f"/api/v1/tournaments/{t}",
        f"/api/v1/tournaments/{t}/registrations",
        f"/api/v1/tournaments/{t}/rounds",
        f"/api/v1/tournaments/{t}/rounds/1",
        f"/api/v1/clubs/{staff['club'].pk}/tournaments",
    ]
    for user in (None, staff["player"], staff["scorekeeper"], director):
        for url in urls:
            response = client_for(user).get(url)
            assert response.status_code == 200, url
            text = response.content.decode()
            found = {code for code in codes if f'"{code}"' in text}
            assert not found, (url, found)
