"""Benchmark: the desk's publish, time and queries, paired between checkouts (not run by CI).

    .venv/bin/python tests/bench/bench_publish.py [--tables 3,12] [--repeat 9]
    .venv/bin/python tests/bench/bench_publish.py --checkout /work/main --checkout .
    .venv/bin/python tests/bench/bench_publish.py --postgres      # BENCH_PG, a fresh database each

For each checkout (default: this one) a worker process is started with that checkout's
code on its path and its own database (a temporary SQLite file, or with ``--postgres`` a
fresh PostgreSQL database on ``BENCH_PG``, dropped afterwards), migrated, with a club
and its director signed in through Django's test client. Then, for each table count and
repetition, every worker in turn (so that the machine's load falls on all of them
alike) makes a physical tournament of ``3 x tables`` players checked in at tables of 3,
generates round 1 through the services, and posts the desk's publish form
(``POST /tournaments/<id>/desk/rounds/1/publish``: the view, ``once``, the service and
the redirect); it reports the wall and thread-CPU time of that request and the queries
it ran. Printed: per checkout and table count, the median of the repetitions and the
queries (the same every time), and the queries each added table costs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchdb import SERVER, admin_sql, use_database

ROOT = Path(__file__).resolve().parents[2]


# --- the worker: one checkout, one database ----------------------------------------------------


def worker(root: str, database_url: str) -> None:
    use_database(database_url)
    sys.path.insert(0, root)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from league import services
    from league.models import Club, Membership, Registration

    call_command("migrate", verbosity=0)
    director = get_user_model().objects.create_user("director")
    club = Club.objects.create(name="Bench club", slug="bench")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    client = Client()
    client.force_login(director)
    print("ready", flush=True)
    for made, line in enumerate(sys.stdin, start=1):
        tables = int(line)
        body = {"name": f"Cup {made}", "table_size": {"min": 3, "max": 3}, "rounds": 3, "seed": "bench"}
        tournament = services.create_tournament(club, body, director)
        for n in range(3 * tables):
            registration = services.register(tournament, name=f"Player {made}-{n}")
            services.set_registration_status(registration, Registration.Status.CHECKED_IN)
        services.generate_round(tournament, director)
        url = f"/tournaments/{tournament.pk}/desk/rounds/1/publish"
        with CaptureQueriesContext(connection) as queries:
            wall, cpu = time.perf_counter(), time.thread_time()
            response = client.post(url, {"idempotency_key": f"form-key-{made:0>8}"})
            wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        published = tournament.round_set.get(number=1).status == "published"
        if response.status_code != 302 or not published:
            raise SystemExit(f"publish refused: {response.status_code}")
        print(json.dumps({"ms": wall * 1000, "cpu_ms": cpu * 1000, "queries": len(queries)}), flush=True)


# --- the driver -------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--checkout", action="append", help="a checkout to measure (repeat to pair several)")
    parser.add_argument("--tables", default="3,12", help="table counts, comma-separated")
    parser.add_argument("--repeat", type=int, default=9, help="publishes per checkout and table count")
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL on BENCH_PG instead of SQLite")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.database_url)
        return 0

    checkouts = [str(Path(c).resolve()) for c in (args.checkout or [str(ROOT)])]
    counts = [int(n) for n in args.tables.split(",")]
    scratch = Path(tempfile.mkdtemp(prefix="bench-publish-"))
    workers: list[tuple[str, subprocess.Popen[str], str]] = []
    try:
        for index, checkout in enumerate(checkouts):
            if args.postgres:
                name = f"kr_bench_publish_{os.getpid()}_{index}"
                admin_sql(f'CREATE DATABASE "{name}"')
                url = f"{SERVER}/{name}"
            else:
                name, url = "", f"sqlite:///{scratch / f'db{index}.sqlite3'}"
            process = subprocess.Popen(
                [sys.executable, __file__, "--worker", checkout, "--database-url", url],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=checkout,
            )
            workers.append((checkout, process, name))
        for _, process, _ in workers:
            assert process.stdout is not None
            if process.stdout.readline().strip() != "ready":
                raise SystemExit("a worker did not start")
        results: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for tables in counts:
            for _ in range(args.repeat):
                for checkout, process, _ in workers:  # in turn: the load falls on each alike
                    assert process.stdin is not None and process.stdout is not None
                    process.stdin.write(f"{tables}\n")
                    process.stdin.flush()
                    results.setdefault((checkout, tables), []).append(json.loads(process.stdout.readline()))
        print(f"Python {sys.version.split()[0]}, {'PostgreSQL' if args.postgres else 'SQLite'}, "
              f"median of {args.repeat} publishes through the desk")  # fmt: skip
        for checkout, _, _ in workers:
            queries = {}
            for tables in counts:
                runs = results[(checkout, tables)]
                queries[tables] = {run["queries"] for run in runs}
                wall = statistics.median(run["ms"] for run in runs)
                cpu = statistics.median(run["cpu_ms"] for run in runs)
                print(f"{checkout}: {tables:>3} tables: {wall:7.1f} ms wall, {cpu:7.1f} ms CPU, "
                      f"{'/'.join(str(q) for q in sorted(queries[tables]))} queries")  # fmt: skip
            if len(counts) > 1:
                low, high = min(counts), max(counts)
                per_table = (min(queries[high]) - min(queries[low])) / (high - low)
                print(f"{checkout}: {per_table:.1f} queries per added table")
    finally:
        for _, process, name in workers:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=60)
            if name:
                admin_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
