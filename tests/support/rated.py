"""Helpers of the ratings and archive tests: a club with players, and club games recorded
to their end through the games services (one hand each, from announced deadwood)."""

from __future__ import annotations

from typing import Any

import engine
from games import services
from games.models import Game, Source
from league.models import Club, ClubGame, Player


def club_with(names: list[str], *, slug: str = "kings") -> tuple[Club, dict[str, Player]]:
    club = Club.objects.create(name=slug.title(), slug=slug)
    return club, {name: Player.objects.create(club=club, name=name) for name in names}


def open_club_game(
    club: Club | None, seats: list[str], *, preset: str = "knock-rummy", **options: Any
) -> Game:
    """A physical game of ``seats`` (names) opened under ``club`` (None: under no club)."""

    def link(game: Game) -> None:
        if club is not None:
            ClubGame.objects.create(club=club, game=game)

    if preset == "knock-rummy":
        options.setdefault("hands", 1)
    if preset == "gin-rummy":
        options.setdefault("target_score", 10)
    result = services.create_game(
        ruleset=engine.get_ruleset(preset, **options),
        mode="physical",
        seats=[services.SeatSpec(name=name) for name in seats],
        owner=None,
        source=Source.SYSTEM,
        after_create=link,
        followed=club is not None,
    )
    return result.game


def record(game: Game, command: dict[str, Any]) -> services.SubmitResult:
    current = Game.objects.get(pk=game.pk)
    return services.submit_command(
        game=current, command=command, actor=None, source=Source.SYSTEM, expected_version=current.version
    )


def record_hand(game: Game, deadwood: list[int], knocker: int = 0) -> services.SubmitResult:
    counts = {str(seat): count for seat, count in enumerate(deadwood)}
    return record(game, {"type": "RecordHandResult", "knocker": knocker, "deadwood": counts})


def played(
    club: Club | None, seats: list[str], deadwood: list[int], *, knocker: int = 0, **kwargs: Any
) -> Game:
    """A one-hand game of ``seats`` finished with ``deadwood`` announced, ``knocker`` knocking.

    Knock rummy settles the hand: the knocker (lowest deadwood) wins, everyone else pays
    the difference, so places follow the deadwood and equal counts tie."""
    game = open_club_game(club, seats, **kwargs)
    result = record_hand(game, deadwood, knocker)
    assert result.state.status == "finished", result.state.status
    return Game.objects.get(pk=game.pk)
