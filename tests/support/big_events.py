"""Big tournaments and league seasons built cheaply, for the tests and benchmarks that
compare the projections' work at two sizes: every game is a one-hand physical game
whose log (a handful of events, made once by the engine) is inserted in bulk with the
next global positions — no replay, no outbox — and the rounds, tables and seats in bulk.

:func:`finish` appends the rest of a game left open, the same way, so a refresh has
exactly one game's new events to read."""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Max
from django.utils import timezone

import engine
from games.models import Game, GameEvent, Source
from league.models import Club, ClubGame, Player, Round, Table, TableSeat, Tournament

VARIANTS = 6  # different hand results, so the standings are not all level


@functools.cache
def one_hand_logs(seats: int) -> tuple[tuple[dict[str, Any], ...], ...]:
    """Logs of a finished one-hand physical game of ``seats`` seats, in stored form."""
    ruleset = engine.get_ruleset("knock-rummy", hands=1)
    logs = []
    for variant in range(VARIANTS):
        names = tuple(f"P{i}" for i in range(seats))
        log = list(engine.decide(None, engine.StartGame(ruleset, names, mode="physical")))
        state = engine.replay(log)
        deadwood = {s: (7 * s + 11 * variant) % 37 for s in range(seats)}
        deadwood[variant % seats] = 3
        for event in engine.decide(
            state, engine.RecordHandResult(knocker=variant % seats, deadwood=deadwood)
        ):
            state = engine.apply(state, event)
            log.append(event)
        assert state.status == "finished"
        logs.append(tuple(engine.event_to_dict(e) for e in log))
    return tuple(logs)


def _league_game(ruleset: dict[str, Any], seats: list[dict[str, Any]], version: int) -> Game:
    """An unsaved finished physical game the league holds (followed, as the league opens
    its games), its row at ``version``; the caller writes its events."""
    return Game(
        ruleset=ruleset, mode="physical", seats=seats, version=version, status="finished", followed=True
    )


def _next_position() -> int:
    return int(GameEvent.objects.aggregate(top=Max("position"))["top"] or 0) + 1


def _event_rows(game: Game, log: Any, first_seq: int, position: int) -> list[GameEvent]:
    now = timezone.now()
    return [
        GameEvent(
            game=game,
            seq=seq,
            position=position + i,
            type=event["type"],
            schema_version=event["schema_version"],
            data=event["data"],
            source=Source.SYSTEM,
            idempotency_key=f"bulk-{game.pk}#{seq}",
            command_digest="-",
            recorded_at=now,
        )
        for i, (seq, event) in enumerate(enumerate(log, start=first_seq))
    ]


@dataclass
class BigEvent:
    tournament: Tournament
    players: list[Player]
    open_games: list[int]  # the last games: started only, each finished by finish()
    open_log: tuple[dict[str, Any], ...]

    @property
    def open_game(self) -> int:
        return self.open_games[-1]


def build_event(
    club: Club,
    *,
    players: int = 64,
    rounds: int = 8,
    table: int = 4,
    kind: str = "tournament",
    tiebreaks: tuple[str, ...] = ("buchholz", "wins"),
    seed: int = 1,
    open_games: int = 1,
) -> BigEvent:
    """A running tournament (or league season) of ``rounds`` published rounds, every
    table a finished game but the last ``open_games``, which are started only."""
    rng = random.Random(seed)
    people = Player.objects.bulk_create(
        [Player(club=club, name=f"Player {seed}-{i:03d}") for i in range(players)]
    )
    tournament = Tournament.objects.create(
        club=club,
        name=f"Big {kind} {seed}",
        slug=f"big-{kind}-{seed}",
        preset="knock-rummy",
        kind=kind,
        table_min=table,
        table_max=table,
        seed=f"big-{seed}",
        scoring="placement",
        tiebreaks=list(tiebreaks),
        status=Tournament.Status.RUNNING,
    )
    logs = one_hand_logs(table)
    per_round = players // table
    total = rounds * per_round
    ruleset = engine.get_ruleset("knock-rummy", hands=1).to_dict()
    seats = [{"name": f"P{i}", "bot": None, "user": None} for i in range(table)]
    games = Game.objects.bulk_create([_league_game(ruleset, seats, len(logs[0])) for _ in range(total)])
    open_log = logs[0]
    position = _next_position()
    events: list[GameEvent] = []
    for n, game in enumerate(games):
        log = logs[rng.randrange(VARIANTS)] if n < total - open_games else open_log[:1]
        events.extend(_event_rows(game, log, 1, position))
        position += len(log)
    left_open = [game.pk for game in games[total - open_games :]]
    Game.objects.filter(pk__in=left_open).update(version=1, status="playing")
    GameEvent.objects.bulk_create(events, batch_size=2000)
    now = timezone.now()
    made = Round.objects.bulk_create(
        [
            Round(
                tournament=tournament,
                number=number,
                status=Round.Status.PUBLISHED,
                method="manual",
                seed=f"big-{number}",
                input_digest="-",
                published_at=now,
            )
            for number in range(1, rounds + 1)
        ]
    )
    tables = Table.objects.bulk_create(
        [
            Table(round=rnd, number=t + 1, game=games[r * per_round + t])
            for r, rnd in enumerate(made)
            for t in range(per_round)
        ]
    )
    seat_rows = []
    for r in range(rounds):
        order = people[:]
        rng.shuffle(order)
        for t in range(per_round):
            for i, player in enumerate(order[t * table : (t + 1) * table]):
                seat_rows.append(TableSeat(table=tables[r * per_round + t], position=i, player=player))
    TableSeat.objects.bulk_create(seat_rows, batch_size=2000)
    return BigEvent(tournament, people, left_open, open_log)


def club_games(club: Club, players: list[Player], count: int, *, table: int = 4, seed: int = 1) -> list[int]:
    """``count`` finished games opened under the club (no tournament), their seats named
    after the club's players; the ids, in the order they finished."""
    rng = random.Random(seed)
    logs = one_hand_logs(table)
    ruleset = engine.get_ruleset("knock-rummy", hands=1).to_dict()
    games = []
    for _ in range(count):
        named = rng.sample(players, table)
        seats = [{"name": p.name, "bot": None, "user": None} for p in named]
        games.append(_league_game(ruleset, seats, len(logs[0])))
    made = Game.objects.bulk_create(games, batch_size=2000)
    position = _next_position()
    events: list[GameEvent] = []
    for game in made:
        log = logs[rng.randrange(VARIANTS)]
        events.extend(_event_rows(game, log, 1, position))
        position += len(log)
    GameEvent.objects.bulk_create(events, batch_size=2000)
    ClubGame.objects.bulk_create([ClubGame(club=club, game=g) for g in made], batch_size=2000)
    return [g.pk for g in made]


def finish(game_id: int, log: tuple[dict[str, Any], ...]) -> None:
    """Append the rest of ``log`` to a game that holds its first ``version`` events."""
    game = Game.objects.get(pk=game_id)
    rest = log[game.version :]
    GameEvent.objects.bulk_create(_event_rows(game, rest, game.version + 1, _next_position()))
    Game.objects.filter(pk=game_id).update(version=len(log), status="finished")


def rows_changed() -> int:
    """Rows inserted, updated or deleted so far on this connection (SQLite) or in this
    transaction (PostgreSQL's statistics): the difference over a block is what it wrote."""
    if connection.vendor == "sqlite":
        return int(connection.connection.total_changes)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT COALESCE(SUM(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_xact_user_tables"
        )
        return int(cursor.fetchone()[0])
