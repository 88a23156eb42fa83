"""A club night for the scorekeeper's page: a club with its people, a tournament whose
round 1 has a table of three (Ann, Bo, Cy) playing a physical knock-rummy game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import engine
from games import services
from games.models import Game, Source
from league.models import Club, ClubGame, Membership, Player, Round, Table, TableSeat, Tournament


@dataclass
class Night:
    club: Club
    tournament: Tournament
    round: Round
    table: Table
    game: Game
    director: Any
    scorekeeper: Any
    player: Any

    @property
    def url(self) -> str:
        return f"/tables/{self.table.pk}/record"


def club_night(
    make_user: Any, *, preset: str = "knock-rummy", names: tuple[str, ...] = ("Ann", "Bo", "Cy")
) -> Night:
    club = Club.objects.create(name="Riverside", slug="riverside")
    director, scorekeeper, player = make_user("dora"), make_user("sam"), make_user("pia")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    Membership.objects.create(club=club, user=scorekeeper, role=Membership.Role.SCOREKEEPER)
    Membership.objects.create(club=club, user=player, role=Membership.Role.PLAYER)
    tournament = Tournament.objects.create(
        club=club, name="Autumn Open", slug="autumn", preset=preset, table_min=3, table_max=4, seed="s"
    )
    rnd = Round.objects.create(
        tournament=tournament, number=1, status=Round.Status.PUBLISHED, method="manual", seed="s"
    )
    table = Table.objects.create(round=rnd, number=1)
    for position, name in enumerate(names):
        TableSeat.objects.create(
            table=table, position=position, player=Player.objects.create(club=club, name=name)
        )

    def link(game: Game) -> None:
        ClubGame.objects.create(club=club, game=game)

    created = services.create_game(
        ruleset=engine.get_ruleset(preset),
        mode="physical",
        seats=[services.SeatSpec(name) for name in names],
        first_dealer=0,
        owner=director,
        source=Source.WEB,
        context={"table": table.pk},
        after_create=link,
        followed=True,
    )
    table.game = created.game
    table.save(update_fields=["game"])
    return Night(club, tournament, rnd, table, created.game, director, scorekeeper, player)


def record(night: Night, command: dict[str, Any]) -> services.SubmitResult:
    game = Game.objects.defer("snapshot").get(pk=night.game.pk)
    return services.submit_command(
        game=game, command=command, actor=night.director, source=Source.API, expected_version=game.version
    )
