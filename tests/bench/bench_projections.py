"""Benchmark: the per-result work of the standings and ratings projections at three
sizes, and their full rebuilds (issue 26). Not a timed test: figures and ratios printed.

Not run in CI. Usage (see tests/bench/README.md):

    .venv/bin/python tests/bench/bench_projections.py [--database-url URL] [--repeat 7]
        [--only standings|ratings|rebuilds]

The events are built cheaply (:mod:`tests.support.big_events`: one-hand physical games
inserted in bulk, 64 players at tables of 4):

- standings: a 64x8 tournament (128 games), a 1,504-game league season (94 nights) and
  a 10,000-game season (625 nights); each measured refresh reads one game just finished
  (its events appended since the last refresh) — the outbox task's work after a result —
  in the process of the last refresh (the records cached), then, listed apart, as in
  another worker process (the stored records read);
- ratings: a club of 64 players with 128, 1,500 and 10,000 rated games; each measured
  refresh rates one game just finished;
- full rebuilds: the 10,000-game club's ratings and the 1,504-game season's standings.

Goals: a refresh < 20 ms at every size and flat (largest / smallest < 2); the ratings
rebuild < 3 s, the standings rebuild < 2 s. The database is migrated and filled from
scratch: a temporary SQLite file by default, or ``--database-url`` (a PostgreSQL
database you can throw away). DEBUG is off, as in the workers.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SEASONS = {"128 games (64x8)": 8, "1,504 games (94 nights)": 94, "10,000 games (625 nights)": 625}
CLUBS = {"128 club games": 128, "1,500 club games": 1500, "10,000 club games": 10000}


CPU: dict[str, list[float]] = {}  # this thread's CPU time of each step, by name


def timed(step: Callable[[], Any], name: str = "") -> float:
    """The wall time of ``step``; its CPU time (``time.thread_time``: what a loaded
    machine's scheduler does not stretch) is kept under ``name``."""
    cpu, start = time.thread_time(), time.perf_counter()
    step()
    wall = time.perf_counter() - start
    CPU.setdefault(name, []).append(time.thread_time() - cpu)
    return wall


def figures(times: list[float], cpu: list[float]) -> str:
    return (
        f"wall median {statistics.median(times) * 1000:6.1f} ms, best {min(times) * 1000:6.1f} ms;"
        f" CPU median {statistics.median(cpu) * 1000:5.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", default="", help="a database to fill (default: temporary SQLite)")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--only",
        choices=("standings", "ratings", "rebuilds"),
        help="one part: the standings (refreshes and rebuild), the ratings, or the two rebuilds alone",
    )
    args = parser.parse_args()
    parts = {"standings", "ratings"} if args.only in (None, "rebuilds") else {args.only}
    refreshes = args.only != "rebuilds"
    scratch = None
    if args.database_url:
        os.environ["DATABASE_URL"] = args.database_url
    else:
        scratch = tempfile.mkdtemp(prefix="bench-projections-")
        os.environ["DATABASE_URL"] = f"sqlite:///{scratch}/bench.sqlite3"
    # as the workers run: DEBUG off (on, Django's debug cursor formats and logs every statement)
    os.environ.update(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(60),
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="false",
    )
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import logging

    import django

    django.setup()
    logging.disable(logging.INFO)
    from django.core.management import call_command
    from django.db import connection

    from league import projection, ratings
    from league.models import Club, Player
    from league.standings_records import records_cache
    from tests.support.big_events import build_event, club_games, finish

    call_command("migrate", verbosity=0)

    def analyze() -> None:
        """Fresh statistics after a bulk build, as autovacuum would gather them."""
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

    print(f"database: {connection.vendor}; load average {os.getloadavg()[0]:.2f} at start")

    refresh: dict[str, list[float]] = {}
    cold: dict[str, list[float]] = {}  # the standings refreshes that read the stored records
    rebuilds: dict[str, float] = {}
    for n, (name, nights) in enumerate(SEASONS.items(), start=1):
        if "standings" not in parts or not (refreshes or nights == 94):
            continue
        started = time.perf_counter()
        club = Club.objects.create(name=f"Season club {n}", slug=f"season-{n}")
        kind = "tournament" if nights == 8 else "league"
        event = build_event(club, rounds=nights, kind=kind, seed=n, open_games=2 * args.repeat + 1)
        built = time.perf_counter() - started
        analyze()
        rebuild = timed(lambda event=event: projection.rebuild(event.tournament.pk), f"rebuild {name}")
        if nights == 94:
            rebuilds["standings rebuild, 1,504-game season"] = rebuild
            CPU["standings rebuild, 1,504-game season"] = CPU[f"rebuild {name}"]
        if refreshes:
            times = []
            for k, game in enumerate(event.open_games):
                finish(game, event.open_log)
                if k > args.repeat:  # as in another worker process than the last refresh's
                    records_cache.clear()
                times.append(timed(lambda event=event: projection.refresh(event.tournament.pk), name))
            # the first warms the caches
            refresh[f"standings refresh, {name}"] = times[1 : args.repeat + 1]
            cold[f"standings refresh, records read, {name}"] = times[args.repeat + 1 :]
            CPU[f"standings refresh, {name}"] = CPU[name][1 : args.repeat + 1]
            CPU[f"standings refresh, records read, {name}"] = CPU.pop(name)[args.repeat + 1 :]
        print(f"  built {name} in {built:.1f} s; rebuilt in {rebuild:.2f} s", flush=True)

    for n, (name, size) in enumerate(CLUBS.items(), start=1):
        if "ratings" not in parts or not (refreshes or size == 10000):
            continue
        started = time.perf_counter()
        club = Club.objects.create(name=f"Rating club {n}", slug=f"rating-{n}")
        members = [Player(club=club, name=f"Member {n}-{i:02d}") for i in range(64)]
        people = Player.objects.bulk_create(members)
        club_games(club, people, size, seed=n)
        built = time.perf_counter() - started
        analyze()
        rebuild = timed(lambda club=club: ratings.rebuild(club), f"rebuild {name}")
        if size == 10000:
            rebuilds["ratings rebuild, 10,000-game club"] = rebuild
            CPU["ratings rebuild, 10,000-game club"] = CPU[f"rebuild {name}"]
        if refreshes:
            times = []
            for k in range(args.repeat + 1):
                club_games(club, people, 1, seed=1000 + k)
                times.append(timed(lambda club=club: ratings.refresh(club.pk, "knock"), name))
            refresh[f"ratings refresh, {name}"] = times[1:]
            CPU[f"ratings refresh, {name}"] = CPU.pop(name)[1:]
        print(f"  built {name} in {built:.1f} s; rebuilt in {rebuild:.2f} s", flush=True)

    print(f"\nrepeat {args.repeat}; load average {os.getloadavg()[0]:.2f} at the end")
    for name, times in refresh.items():
        verdict = "ok" if statistics.median(times) < 0.02 else "OVER"
        print(f"{name:<46} {figures(times, CPU[name])}  (goal < 20 ms: {verdict})")
    for name, times in cold.items():
        print(f"{name:<46} {figures(times, CPU[name])}")
    for kind in sorted(parts) if refreshes else ():
        medians = [statistics.median(t) for name, t in refresh.items() if name.startswith(kind)]
        if not medians:
            continue
        ratio = medians[-1] / medians[0]
        print(f"{kind} refresh largest / smallest: {ratio:.2f} (goal < 2: {'ok' if ratio < 2 else 'OVER'})")
    for name, seconds in rebuilds.items():
        goal = 3.0 if name.startswith("ratings") else 2.0
        cpu = CPU[name][0]
        verdict = "ok" if seconds < goal else "OVER"
        print(f"{name:<46} wall {seconds:6.2f} s, CPU {cpu:6.2f} s  (goal < {goal:.0f} s: {verdict})")
    if scratch is not None:
        import shutil

        connection.close()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
