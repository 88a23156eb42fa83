"""Demo games for ``manage.py seed_demo``: what the product does, on a fresh install.

Each game is opened with a fixed Idempotency-Key, so seeding twice finds the games
it made the first time instead of opening new ones."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import engine
from games import services
from games.models import Game, Source
from league.models import Club, ClubGame

# (seat, final hand) of a recorded hand: seat 0 knocks with 10 (KD) and wins 30.
RECORDED_HANDS = {
    0: "2H 3H 4H 9S 9D 9C KD",
    1: "5C 6C 7C 8C QS QH 3D",
    2: "AS AD AH 7S 8S JH 2C",
}


def seed_demo_games(*, club: Club, owner: Any, scorekeeper: Any, players: dict[str, Any]) -> list[Game]:
    """A finished bot exhibition, a digital game waiting for a human, a physical game
    recorded by the club's scorekeeper; returns them."""
    exhibition = _open(
        key="demo-exhibition",
        owner=owner,
        preset="gin-rummy",
        options={"target_score": 50},
        seats=[services.SeatSpec(bot="expert"), services.SeatSpec(bot="greedy")],  # expert vs easy
        mode="digital",
    )
    _play_bots_to_the_end(exhibition)

    human = players["Alice"]
    table = _open(
        key="demo-alice-vs-bots",
        owner=human,
        preset="knock-rummy",
        options={"hands": 3},
        seats=[
            services.SeatSpec(name="Alice", user_id=human.pk),
            services.SeatSpec(bot="steady"),  # the normal level
            services.SeatSpec(bot="expert"),
        ],
        mode="digital",
    )
    _play_bots_to_the_end(table)  # the bots move until it is Alice's turn

    recorded = _open(
        key="demo-recorded-table",
        owner=scorekeeper,
        preset="knock-rummy",
        options={"hands": 2},
        seats=[
            services.SeatSpec(name=name, user_id=players[name].pk) for name in ("Bruno", "Chiara", "Dmitri")
        ],
        mode="physical",
        club=club,
    )
    if recorded.version == 1:
        hands = {str(seat): cards.split() for seat, cards in RECORDED_HANDS.items()}
        _record(recorded, scorekeeper, {"type": "RecordHandResult", "knocker": 0, "hands": hands})
    if Game.objects.get(pk=recorded.pk).version == 3:
        counts = {"0": 15, "1": 4, "2": 22}
        _record(recorded, scorekeeper, {"type": "RecordHandResult", "knocker": 1, "deadwood": counts})
    return [Game.objects.get(pk=game.pk) for game in (exhibition, table, recorded)]


def _open(
    *,
    key: str,
    owner: Any,
    preset: str,
    options: dict[str, Any],
    seats: list[services.SeatSpec],
    mode: str,
    club: Club | None = None,
) -> Game:
    def link(game: Game) -> None:
        if club is not None:
            ClubGame.objects.create(club=club, game=game)

    result = services.create_game(
        ruleset=engine.get_ruleset(preset, **options),
        mode=mode,
        seats=seats,
        stake=Fraction(0),
        owner=owner,
        source=Source.SYSTEM,
        idempotency_key=key,
        context={"club": club.pk} if club is not None else None,
        after_create=link,
        followed=club is not None,
    )
    return result.game


def _play_bots_to_the_end(game: Game) -> None:
    """Run the bot seats until a human must act or the game is over (the outbox does
    this after every commit too; here it also covers a worker that is not running)."""
    for _ in range(200):
        current = Game.objects.get(pk=game.pk)
        if services.run_bot_turns(game_id=current.pk, expected_version=current.version) == 0:
            return


def _record(game: Game, scorekeeper: Any, command: dict[str, Any]) -> None:
    current = Game.objects.get(pk=game.pk)
    services.submit_command(
        game=current,
        command=command,
        actor=scorekeeper,
        source=Source.SYSTEM,
        expected_version=current.version,
        idempotency_key=f"demo-record-{current.pk}-{current.version}",
    )
