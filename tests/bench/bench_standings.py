"""Benchmark: the standings projection of a synthetic tournament, beside a naive
recomputation from all logs, measured in the same run.

Not run in CI. Usage (see tests/bench/README.md):

    .venv/bin/python tests/bench/bench_standings.py [--database-url URL] [--repeat 5]

The tournament: 64 players, 8 rounds at 16 tables of 4, each table a digital
knock-rummy game of 5 hands played by the engine's bots (greedy most of the time, so
hands run as long as real ones), stored through ``games.services.import_game`` — every
event of every turn, as a real digital game stores them. The database is migrated and
filled from scratch: a temporary SQLite file by default, or ``--database-url`` (a
PostgreSQL database you can throw away).

Figures (best of ``--repeat``; the machine is shared), each with its target:

- full rebuild (``projection.rebuild``): < 1 s;
- incremental refresh after one game (one game's events unread): < 50 ms;
- standings read (``GET /api/v1/tournaments/{id}/standings``): < 20 ms;
- as-of read on the recorded timeline (``?timeline=recorded&at=<mid position>``): < 200 ms;

and beside each, the naive way: read every event of the tournament's games (up to the
position, for the as-of read) and compute ``standings_from_logs`` from them.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PLAYERS = 64
ROUNDS = 8
TABLE = 4
HANDS = 5
GREEDY_SHARE = 0.8


def best(repeat: int, step: Callable[[], Any], setup: Callable[[], Any] | None = None) -> float:
    times = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return min(times)


def play_game(rng: random.Random) -> list[dict[str, Any]]:
    import engine
    from engine.bots import get_bot

    greedy = get_bot("greedy")
    ruleset = engine.get_ruleset("knock-rummy", hands=HANDS)
    log = engine.decide(None, engine.StartGame(ruleset, tuple(f"P{i}" for i in range(TABLE))))
    state = engine.replay(log)
    while state.status != "finished":
        if state.needs_deal:
            command: Any = engine.DealHand(deck=engine.shuffled_deck(ruleset, rng.random()))
        elif rng.random() < GREEDY_SHARE:
            command = greedy(engine.view(state, state.to_move), rng)
        else:
            command = rng.choice(engine.legal_commands(state))
        for event in engine.decide(state, command):
            state = engine.apply(state, event)
            log.append(event)
    return [engine.event_to_dict(e) for e in log]


def build(rng: random.Random) -> tuple[Any, int]:
    """The tournament; returns it and the number of events stored."""
    from django.utils import timezone

    from games import services
    from games.models import Source
    from league.models import Club, Player, Round, Table, TableSeat, Tournament

    club = Club.objects.create(name="Bench club", slug="bench")
    people = [Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(PLAYERS)]
    tournament = Tournament.objects.create(
        club=club,
        name="Bench cup",
        slug="bench",
        preset="knock-rummy",
        table_min=TABLE,
        table_max=TABLE,
        seed="bench",
        scoring="placement",
        status=Tournament.Status.RUNNING,
    )
    events = 0
    for number in range(1, ROUNDS + 1):
        rnd = Round.objects.create(
            tournament=tournament,
            number=number,
            status=Round.Status.PUBLISHED,
            method="manual",
            seed=f"bench-{number}",
            input_digest="-",
            published_at=timezone.now(),
        )
        order = people[:]
        rng.shuffle(order)
        for t in range(PLAYERS // TABLE):
            log = play_game(rng)
            events += len(log)
            game = services.import_game(log_events=log, owner=None, source=Source.SYSTEM, followed=True).game
            table = Table.objects.create(round=rnd, number=t + 1, game=game)
            for i, player in enumerate(order[t * TABLE : (t + 1) * TABLE]):
                TableSeat.objects.create(table=table, position=i, player=player)
        print(f"  round {number}: {events} events so far", flush=True)
    return tournament, events


def naive(tournament: Any, position: int | None = None) -> list[dict[str, Any]]:
    """Every event of the tournament's games (up to ``position``), then the pure standings."""
    from games.models import GameEvent
    from league import projection
    from league.models import Table
    from league.standings import standings_from_logs

    game_ids = list(
        Table.objects.filter(round__tournament=tournament, game__isnull=False).values_list(
            "game_id", flat=True
        )
    )
    events = GameEvent.objects.filter(game_id__in=game_ids)
    if position is not None:
        events = events.filter(position__lte=position)
    logs: dict[int, list[dict[str, Any]]] = {}
    for game_id, kind, version, data in events.order_by("game_id", "seq").values_list(
        "game_id", "type", "schema_version", "data"
    ):
        logs.setdefault(game_id, []).append({"type": kind, "schema_version": version, "data": data})
    return standings_from_logs(projection.settings_of(tournament), projection.rounds_of(tournament.pk), logs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url", default="", help="a database to fill (default: a temporary SQLite file)"
    )
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    scratch = None
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        scratch = tempfile.mkdtemp(prefix="bench-standings-")
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)  # tasks run in process; the outbox rows are left unsent
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import logging

    import django

    django.setup()
    logging.disable(logging.INFO)  # the outbox's eager tasks log every run
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client

    from games.models import GameEvent
    from league import projection
    from league.models import ResultVersion, StandingsGame, StandingsState

    call_command("migrate", verbosity=0)
    shape = f"{PLAYERS} players, {ROUNDS} rounds at tables of {TABLE}, {HANDS} hands a game"
    print(f"database: {connection.vendor}; building {shape}")
    started = time.perf_counter()
    tournament, events = build(random.Random(7))
    per_game = events / (PLAYERS // TABLE * ROUNDS)
    print(f"built in {time.perf_counter() - started:.1f} s: {events} events, {per_game:.0f} a game")

    rebuild = best(args.repeat, lambda: projection.rebuild(tournament.pk))
    naive_full = best(args.repeat, lambda: naive(tournament))
    state = StandingsState.objects.get(tournament=tournament)
    assert [(r["player"], r["points"]) for r in state.rows] == [
        (r["player"], r["points"]) for r in naive(tournament)
    ]

    victim = (
        StandingsGame.objects.filter(tournament=tournament)
        .order_by("-game_id")
        .values_list("game_id", flat=True)[0]
    )
    events = GameEvent.objects.filter(game_id=victim).order_by("position")
    first = events.values_list("position", flat=True)[0]

    def forget_one_game() -> None:
        # the last game built holds the last positions: reading from its first one again
        # reads it alone, as if its events had just arrived
        StandingsState.objects.filter(tournament=tournament).update(position=first - 1, read_to=first - 1)
        StandingsGame.objects.filter(tournament=tournament, game_id=victim).delete()
        ResultVersion.objects.filter(tournament=tournament, game_id=victim).delete()

    incremental = best(args.repeat, lambda: projection.refresh(tournament.pk), setup=forget_one_game)
    assert projection.refresh(tournament.pk).games_read == 0

    client = Client()
    url = f"/api/v1/tournaments/{tournament.pk}/standings"
    assert client.get(url).status_code == 200
    read = best(args.repeat * 4, lambda: client.get(url))
    positions = sorted(ResultVersion.objects.filter(tournament=tournament).values_list("position", flat=True))
    middle = positions[len(positions) // 2]
    as_of = best(args.repeat * 2, lambda: client.get(url, {"timeline": "recorded", "at": str(middle)}))
    naive_as_of = best(args.repeat, lambda: naive(tournament, middle))
    recorded = client.get(url, {"timeline": "recorded", "at": str(middle)}).json()["rows"]
    assert [(r["player"]["id"], r["points"], r["rank"]) for r in recorded] == [
        (r["player"], r["points"], r["rank"]) for r in naive(tournament, middle)
    ]

    def line(name: str, ours: float, target: float, theirs: float) -> None:
        verdict = "ok" if ours < target else "OVER"
        print(
            f"{name:<38} {ours * 1000:8.1f} ms  (target {target * 1000:5.0f} ms, {verdict})"
            f"   naive from all logs {theirs * 1000:8.1f} ms  ({theirs / ours:5.1f}x)"
        )

    print(f"repeat {args.repeat}, best of each")
    line("full rebuild", rebuild, 1.0, naive_full)
    line("incremental refresh after one game", incremental, 0.05, naive_full)
    line("standings read (GET, corrected)", read, 0.02, naive_full)
    line("as-of read (GET, recorded, mid position)", as_of, 0.2, naive_as_of)
    if scratch is not None:
        import shutil

        connection.close()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
