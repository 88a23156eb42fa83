"""Demo tournaments for ``manage.py seed_demo``: a knock-rummy cup of 11 players at
tables of 3-4 with two rounds played (physical games recorded by the club's
scorekeeper), a correction made by the director on a round-2 table once the round was
complete (the wrong knocker undone, a penalty, the hand entered again: the standings'
changes list and the public page's corrections show it), and round 3 in draft; and a
gin-rummy Swiss of 8, registered at the door from a pasted list, with its first round
played and the second published, its tables live for the scorekeeper's record page (one
hand entered at the last), and its round clock running; and a closed
summer cup of four, the club's results (its winner on the club page, found by search).

Seeding twice finds what the first run made (tournaments by slug, rounds by number,
games by their table) and only does what is still missing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import selectors as game_selectors
from games import services as game_services
from games.models import Game, Source
from league import clock, projection, ratings, services
from league.models import Club, Registration, Round, Table, Tournament
from league.seating import balanced as balanced_seating
from league.seating import swiss as swiss_seating

CUP_PLAYERS = (
    "Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiro", "Ines", "Jonas", "Kasia",
)  # fmt: skip
SWISS_PLAYERS = ("Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiro")
# The Swiss's players were registered at the door, pasted as the director typed them: each
# is the club's player of that name whatever its case (league.services.registration_lists).
SWISS_PASTED = "alice\nBRUNO\nchiara\n\nDmitri\nesther\nFarid\ngreta\nHIRO\n"

CUP = {
    "name": "Riverside Autumn Cup",
    "kind": "tournament",
    "preset": "knock-rummy",
    "options": {"hands": 1},  # one hand a game: quick to record
    "mode": "physical",
    "table_size": {"min": 3, "max": 4},
    "seating": balanced_seating.METHOD,
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
    "seating": swiss_seating.METHOD,
    "rounds": 3,
    "seed": "riverside-gin-2026",
}

SUMMER = {
    "name": "Riverside Summer Cup",
    "kind": "tournament",
    "preset": "knock-rummy",
    "options": {"hands": 1},
    "mode": "physical",
    "table_size": {"min": 4, "max": 4},
    "seating": balanced_seating.METHOD,
    "rounds": 1,
    "seed": "riverside-summer-2026",
}
SUMMER_PLAYERS = ("Esther", "Farid", "Greta", "Hiro")
# The Swiss's round clock: long enough to be running while the demo is looked at.
CLOCK_MINUTES = 90


# The cup's correction: at round 2's table 2 the hand was entered with the wrong knocker.
CORRECTED_ROUND, CORRECTED_TABLE = 2, 2
RETRACT_REASON = "wrong knocker entered: Hiro knocked, not Farid"
PENALTY = {"seat": 3, "points": "-5", "reason": "penalty: Chiara exposed a card while dealing"}


def seed_demo_tournaments(*, club: Club, director: Any, scorekeeper: Any) -> list[Tournament]:
    summer = _tournament(club, director, SUMMER, SUMMER_PLAYERS)
    _play(summer, director, scorekeeper, played=1, draft=False)
    summer.refresh_from_db()  # its last round complete, it may have closed itself
    if summer.status != Tournament.Status.FINISHED:
        services.close_tournament(summer, director)
    cup = _tournament(club, director, CUP, CUP_PLAYERS)
    _play(
        cup,
        director,
        scorekeeper,
        played=2,
        draft=True,
        then=lambda: _correct(cup, director, scorekeeper),
    )
    swiss = _tournament(club, director, SWISS, SWISS_PLAYERS, pasted=SWISS_PASTED)
    _play(swiss, director, scorekeeper, played=1, draft=False, published=True)
    _first_entry(swiss, scorekeeper)
    in_play = swiss.round_set.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    shown = clock.round_clock(in_play) if in_play is not None else None
    if in_play is not None and (shown is None or not shown.ticking):
        clock.start_round_clock(in_play, director, minutes=CLOCK_MINUTES)
    # The projections now, whether or not a worker runs the refresh tasks yet
    # (both are idempotent: with an eager or running worker this finds nothing new).
    for tournament in (summer, cup, swiss):
        projection.refresh(tournament.pk)
    for family in ratings.FAMILIES:
        ratings.refresh(club.pk, family)
    return [Tournament.objects.get(pk=t.pk) for t in (cup, swiss, summer)]


def corrected_table(tournament: Tournament) -> Table | None:
    """The cup's table whose result the director corrected."""
    return Table.objects.filter(
        round__tournament=tournament, round__number=CORRECTED_ROUND, number=CORRECTED_TABLE
    ).first()


def _correct(tournament: Tournament, director: Any, scorekeeper: Any) -> None:
    """Round 2 is complete when the scorekeeper finds the wrong knocker at table 2: the
    director undoes the hand (a ``Retract`` with its reason, which reopens the game),
    gives a penalty (an ``AdjustScore`` with its reason), and the scorekeeper enters the
    hand again. Done once: a game with a retraction is left as it is."""
    table = corrected_table(tournament)
    assert table is not None and table.game_id is not None
    if game_selectors.event_positions([table.game_id], types={"Retracted"}):
        return
    game = Game.objects.get(pk=table.game_id)
    assert game.status == "finished" and game.version == 4  # started, recorded, scored, finished
    _submit(game.pk, director, {"type": "Retract", "count": 3, "reason": RETRACT_REASON}, "undo")
    _submit(game.pk, director, {"type": "AdjustScore", **PENALTY}, "penalty")
    _record_to_the_end(game.pk, scorekeeper, winner=1)  # Hiro (seat 1) knocks


def _submit(game_id: int, actor: Any, command: dict[str, Any], step: str) -> None:
    game = Game.objects.get(pk=game_id)
    game_services.submit_command(
        game=game,
        command=command,
        actor=actor,
        source=Source.SYSTEM,
        expected_version=game.version,
        idempotency_key=f"demo-correction-{game.pk}-{step}",
    )


def _tournament(
    club: Club, director: Any, data: dict[str, Any], names: tuple[str, ...], *, pasted: str = ""
) -> Tournament:
    tournament = Tournament.objects.filter(club=club, name=data["name"]).first()
    if tournament is None:
        tournament = services.create_tournament(club, data, director)
    if pasted and not tournament.round_set.exists():
        services.register_list(tournament, services.names_from_text(pasted), check_in=True)
    for name in names:
        player, _ = services.club_player(club, name)
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
    then: Callable[[], None] | None = None,
) -> None:
    """Rounds 1..``played`` published and recorded to the end; ``then`` (after them);
    then the next round in draft (``draft``) or published and not yet played
    (``published``)."""
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
    if then is not None:
        then()
    if draft or published:
        round_ = _round(tournament, director, played + 1)
        if published and round_.status == Round.Status.DRAFT:
            services.publish_round(round_, director)


def _first_entry(tournament: Tournament, scorekeeper: Any) -> None:
    """The scorekeeper's first hand at the live round's last table (a small knock: the
    game goes on), so round control shows a table playing for some minutes. Once."""
    table = (
        Table.objects.filter(round__tournament=tournament, round__status=Round.Status.PUBLISHED)
        .order_by("-round__number", "-number")
        .first()
    )
    if table is None or table.game_id is None:
        return
    game = Game.objects.get(pk=table.game_id)
    if game.events.exclude(source=Source.SYSTEM).exists():
        return
    game_services.submit_command(
        game=game,
        command={"type": "RecordHandResult", "knocker": 0, "deadwood": {"0": 5, "1": 8}},
        actor=scorekeeper,
        source=Source.WEB,
        expected_version=game.version,
        idempotency_key=f"demo-first-entry-{game.pk}",
    )


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
