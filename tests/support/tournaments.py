"""Tournaments built straight with the ORM, with physical games recorded through
games.services, for the standings tests and the benchmark."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from games import services
from league.models import Club, Player, Round, Table, TableSeat, Tournament
from tests.support.games import new_game, play


def make_tournament(club: Club, **fields: Any) -> Tournament:
    defaults: dict[str, Any] = {
        "name": "Spring cup",
        "slug": f"cup-{Tournament.objects.count() + 1}",
        "preset": "knock-rummy",
        "table_min": 2,
        "table_max": 4,
        "seed": "seed-1",
        "status": Tournament.Status.RUNNING,
    }
    defaults.update(fields)
    return Tournament.objects.create(club=club, **defaults)


def players(club: Club, *names: str) -> list[Player]:
    return [Player.objects.create(club=club, name=name) for name in names]


def add_round(
    tournament: Tournament,
    number: int,
    tables: Sequence[Sequence[Player | str]],
    *,
    byes: Sequence[Player] = (),
) -> Round:
    """A published round; a ``str`` seat is a bot."""
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.Status.PUBLISHED,
        method="manual",
        seed=f"{tournament.seed}-{number}",
        input_digest="-",
        byes=[p.pk for p in byes],
        published_at=timezone.now(),
    )
    for t, seats in enumerate(tables, start=1):
        table = Table.objects.create(round=rnd, number=t)
        for i, seat in enumerate(seats):
            if isinstance(seat, str):
                TableSeat.objects.create(table=table, position=i, bot=seat)
            else:
                TableSeat.objects.create(table=table, position=i, player=seat)
    return rnd


def open_game(table: Table, recorder: Any, *, hands: int = 1) -> int:
    """Open the table's physical knock-rummy game of ``hands`` hands; returns its id."""
    seats = [
        services.SeatSpec(name=s.player.name if s.player else s.bot)
        for s in table.seats.select_related("player")
    ]
    game = new_game(recorder, seats, mode="physical", hands=hands, followed=True).game
    table.game = game
    table.save(update_fields=["game"])
    return int(game.pk)


def record_hand(game_id: int, recorder: Any, knocker: int, deadwood: Sequence[int]) -> None:
    """A hand recorded from announced deadwood counts (the knocker's first)."""
    counts = {str(seat): value for seat, value in enumerate(deadwood)}
    play(game_id, recorder, {"type": "RecordHandResult", "knocker": knocker, "deadwood": counts})


def command(game_id: int, recorder: Any, body: dict[str, Any]) -> None:
    play(game_id, recorder, body)
