"""Demo tournaments for ``manage.py seed_demo``: a knock-rummy cup of 11 players at
tables of 3-4 with two rounds played (physical games recorded by the club's
scorekeeper) and round 3 in draft; and a gin-rummy Swiss of 8 with its first round
played and the second published.

Seeding twice finds what the first run made (tournaments by slug, rounds by number,
games by their table) and only does what is still missing."""

from __future__ import annotations

from typing import Any

from games import services as game_services
from games.models import Game, Source
from league import services
from league.models import Club, Player, Registration, Round, Tournament

CUP_PLAYERS = (
    "Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kasia",
)  # fmt: skip
SWISS_PLAYERS = ("Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiro")

CUP = {
    "name": "Riverside Autumn Cup",
    "kind": "tournament",
    "preset": "knock-rummy",
    "options": {"hands": 1},  # one hand a game: quick to record
    "mode": "physical",
    "table_size": {"min": 3, "max": 4},
    "seating": "balanced",
    "rounds": 4,
    "seed": "riverside-autumn-2026",
}
SWISS = {
    "name": "Riverside Gin Swiss",
    "kind": "tournament",
    "preset": "gin-rummy",
    "options": {"target_score": 10},  # one knock reaches it
    "mode": "physical",
    "table_size": {"min": 2, "max": 2},
    "seating": "swiss",
    "rounds": 3,
    "seed": "riverside-gin-2026",
}


def seed_demo_tournaments(*, club: Club, director: Any, scorekeeper: Any) -> list[Tournament]:
    cup = _tournament(club, director, CUP, CUP_PLAYERS)
    _play(cup, director, scorekeeper, played=2, draft=True)
    swiss = _tournament(club, director, SWISS, SWISS_PLAYERS)
    _play(swiss, director, scorekeeper, played=1, draft=False, published=True)
    return [Tournament.objects.get(pk=cup.pk), Tournament.objects.get(pk=swiss.pk)]


def _tournament(club: Club, director: Any, data: dict[str, Any], names: tuple[str, ...]) -> Tournament:
    tournament = Tournament.objects.filter(club=club, name=data["name"]).first()
    if tournament is None:
        tournament = services.create_tournament(club, data, director)
    for name in names:
        player, _ = Player.objects.get_or_create(club=club, name=name)
        registration = Registration.objects.filter(tournament=tournament, player=player).first()
        if registration is None and not tournament.round_set.exists():
            registration = services.register(tournament, player=player)
        if registration is not None and registration.status == Registration.Status.REGISTERED:
            services.set_registration_status(registration, Registration.Status.CHECKED_IN)
    return tournament


def _play(
    tournament: Tournament,
    director: Any,
    scorekeeper: Any,
    *,
    played: int,
    draft: bool,
    published: bool = False,
) -> None:
    """Rounds 1..``played`` published and recorded to the end; then the next round in
    draft (``draft``) or published and not yet played (``published``)."""
    for number in range(1, played + 1):
        round_ = _round(tournament, director, number)
        if round_.status == Round.Status.DRAFT:
            round_ = services.publish_round(round_, director)
        for table in round_.tables.all():
            assert table.game_id is not None  # published: every table has its game
            _record_to_the_end(
                table.game_id, scorekeeper, winner=(table.number + number) % table.seats.count()
            )
        services.check_round_complete(round_)
    if draft or published:
        round_ = _round(tournament, director, played + 1)
        if published and round_.status == Round.Status.DRAFT:
            services.publish_round(round_, director)


def _round(tournament: Tournament, director: Any, number: int) -> Round:
    existing = Round.objects.filter(tournament=tournament, number=number).first()
    return existing or services.generate_round(tournament, director)


def _record_to_the_end(game_id: int, scorekeeper: Any, *, winner: int) -> None:
    """The scorekeeper records hands: ``winner`` knocks with 2 deadwood each time."""
    for _ in range(10):
        game = Game.objects.get(pk=game_id)
        if game.status in game_services.FINAL_STATUSES:
            return
        counts = {str(seat): (2 if seat == winner else 18 + 3 * seat) for seat in range(len(game.seats))}
        game_services.submit_command(
            game=game,
            command={"type": "RecordHandResult", "knocker": winner, "deadwood": counts},
            actor=scorekeeper,
            source=Source.SYSTEM,
            expected_version=game.version,
            idempotency_key=f"demo-league-{game.pk}-{game.version}",
        )
