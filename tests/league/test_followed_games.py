"""The league's games are followed (``games.Game.followed``): their writes carry the
league's outbox rows, and a free game's carry none. The club-game, archive and demo
tests check the other places the league opens games."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.models import Game, OutboxMessage
from games.services import SeatSpec
from league import services, tasks
from tests.support.games import new_game, play
from tests.support.league import checked_in_tournament, finish_round


@pytest.mark.django_db
def test_a_published_rounds_games_are_followed_and_queue_the_standings(staff: dict[str, Any]) -> None:
    director = staff["director"]
    tournament = checked_in_tournament(staff, ("Ann", "Bo", "Cy", "Di", "Ed", "Flo"))
    first = services.publish_round(services.generate_round(tournament, director), director)
    games = Game.objects.filter(league_table__round=first)
    assert games.count() == 2 and all(game.followed for game in games)
    finish_round(first, director)
    queued = set(OutboxMessage.objects.values_list("topic", "payload__game_id"))
    for game in games:
        assert {(tasks.REFRESH_STANDINGS, game.pk), (tasks.GAME_ENDED, game.pk)} <= queued


@pytest.mark.django_db
def test_a_free_game_played_to_its_end_writes_no_outbox_row(owner: Any, ann: Any) -> None:
    created = new_game(owner, [SeatSpec("Ann"), SeatSpec("Bo")], mode="physical", hands=1)
    assert not created.game.followed
    counts = {"0": 2, "1": 20}
    play(created.game.pk, owner, {"type": "RecordHandResult", "knocker": 0, "deadwood": counts})
    assert Game.objects.get(pk=created.game.pk).status == "finished"
    assert not OutboxMessage.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_follows_the_games_a_club_or_a_table_holds() -> None:
    executor = MigrationExecutor(connection)
    before = [("games", "0005_remove_gameevent_command_key"), ("league", "0013_notes_as_codes")]
    after = [("league", "0014_followed_games")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    game_model = old.get_model("games", "Game")
    club = old.get_model("league", "Club").objects.create(name="Old club", slug="old")
    tournament = old.get_model("league", "Tournament").objects.create(
        club=club, name="Old cup", slug="old-cup", preset="knock-rummy", table_min=2, table_max=4, seed="s"
    )
    round_ = old.get_model("league", "Round").objects.create(tournament=tournament, number=1)

    def a_game() -> Any:
        return game_model.objects.create(ruleset={}, mode="physical", seats=[])

    held_by_club, at_a_table, free = a_game(), a_game(), a_game()
    old.get_model("league", "ClubGame").objects.create(club=club, game=held_by_club)
    old.get_model("league", "Table").objects.create(round=round_, number=1, game=at_a_table)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    followed = dict(Game.objects.values_list("pk", "followed"))
    assert followed == {held_by_club.pk: True, at_a_table.pk: True, free.pk: False}
