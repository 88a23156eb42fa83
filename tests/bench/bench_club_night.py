"""Benchmark: a club night (issue 26), not run by CI. Needs PostgreSQL and Redis.

    .venv/bin/python tests/bench/bench_club_night.py [--seconds 20] [--pairs 1] [--pollers 100]
    BENCH_PG=postgres://postgres@127.0.0.1:5432   (a fresh database is created and dropped)
    BENCH_REDIS=redis://127.0.0.1:6379/4          (the shared cache; this database is flushed)

1. Builds a 128-player tournament of 8 rounds at tables of 4 (32 tables a round, 256
   games; rounds 1-7 complete, round 8's games open) with tests/support/big_events.py,
   and starts gunicorn on it with REDIS_URL set, so the live parts are shared through
   Redis as in production.
2. Results arrive every 5 s (``--every``): this process records one open game's hand
   through ``games.services.submit_command`` and refreshes the standings (Celery runs
   eagerly here: this process is the worker), so the live part changes.
3. Each phase runs 8 command clients (tests/bench/bench_api.py's: each plays its own
   digital game through ``POST /api/v1/games/{id}/commands``) for ``--seconds``, without
   then with ``--pollers`` pollers following ``/tournaments/<id>/live/`` as the page does:
   every 2 s (the page's htmx cadence) with the ETag they hold as ``If-None-Match``,
   taking the new ETag from each 200, and then asking for the earlier rounds as the page
   does (``/tournaments/<id>/rounds/``, conditional). ``--pairs`` repeats the pair.
4. Prints commands/s and p99 without and with the pollers and their ratio, the polls'
   p50/p99 (the 304s and the 200s apart), and, measured in this process after the run,
   the queries of a changed render (a cache miss) of the live part at this size and at a
   16-player, 4-round tournament in the same database.

Goals (issue 26): commands/s with the pollers >= 0.9 x without; poll p99 < 200 ms; a
changed render <= 10 queries whatever the size. The load generator shares the machine
with the server: report the load (``uptime``) beside the figures.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "bench")]

from bench_api import GUNICORN, PYTHON, SERVER, admin_sql, free_port, pids_of, run_clients  # noqa: E402

REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/4")
POLL_SECONDS = 2.0  # web.views.public.POLL_SECONDS: the page's htmx cadence


class Poller:
    """One page following the live part: a lean GET over a fresh socket (gunicorn's sync
    workers close after each response), reading the status and the ETag."""

    def __init__(self, port: int, tournament_id: int) -> None:
        self.port = port
        self.live = f"/tournaments/{tournament_id}/live/"
        self.rounds = f"/tournaments/{tournament_id}/rounds/"
        self.etag = ""
        self.rounds_etag = ""

    def get(self, path: str, etag: str) -> tuple[int, str]:
        conditional = f"If-None-Match: {etag}\r\n" if etag else ""
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nHX-Request: true\r\n"
            f"Accept-Language: en\r\n{conditional}Connection: close\r\n\r\n"
        ).encode()
        with socket.create_connection(("127.0.0.1", self.port), timeout=30) as sock:
            sock.sendall(request)
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        head = data.partition(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
        status = int(head[0].split(" ", 2)[1])
        tag = next(
            (line.split(":", 1)[1].strip() for line in head[1:] if line.lower().startswith("etag:")), ""
        )
        return status, tag


def poller_loop(port: int, tournament_id: int, seconds: float, offset: float, out: list[Any]) -> None:
    poller = Poller(port, tournament_id)
    unchanged: list[float] = []
    changed: list[float] = []
    rounds: list[float] = []
    errors = 0
    start = time.monotonic() + offset
    deadline = start + seconds
    time.sleep(offset)
    # the page as it was opened: the live part and the earlier rounds with their ETags
    poller.etag = poller.get(poller.live, "")[1]
    poller.rounds_etag = poller.get(poller.rounds, "")[1]
    tick = start + POLL_SECONDS
    while tick < deadline:
        time.sleep(max(0.0, tick - time.monotonic()))
        tick += POLL_SECONDS  # htmx's "every 2s": a timer, whatever the answer took
        began = time.perf_counter()
        status, tag = poller.get(poller.live, poller.etag)
        took = time.perf_counter() - began
        if status == 304:
            unchanged.append(took)
        elif status == 200:
            changed.append(took)
            poller.etag = tag
            began = time.perf_counter()
            status, tag = poller.get(poller.rounds, poller.rounds_etag)  # HX-Trigger: live-changed
            rounds.append(time.perf_counter() - began)
            if status == 200:
                poller.rounds_etag = tag
            elif status != 304:
                errors += 1
        else:
            errors += 1
    out.append((unchanged, changed, rounds, errors))


def poller_process(
    args: tuple[int, int, float, int, int, int],
) -> tuple[list[float], list[float], list[float], int, float]:
    port, tournament_id, seconds, threads, first, total = args
    results: list[Any] = []
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    workers = [
        threading.Thread(
            target=poller_loop,
            args=(port, tournament_id, seconds, POLL_SECONDS * (first + i) / total, results),
        )
        for i in range(threads)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    used = resource.getrusage(resource.RUSAGE_SELF)
    return (
        [x for u, _, _, _ in results for x in u],
        [x for _, c, _, _ in results for x in c],
        [x for _, _, r, _ in results for x in r],
        sum(e for *_, e in results),
        used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime,
    )


def ms(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return 1000 * ordered[max(0, int(len(ordered) * share) - 1)] if ordered else float("nan")


class Results(threading.Thread):
    """Records one open game's hand every ``every`` seconds (the standings refreshed
    eagerly, in this process) until stopped or out of open games."""

    def __init__(self, games: list[int], every: float) -> None:
        super().__init__(daemon=True)
        self.games, self.every = list(games), every
        self.stopped = threading.Event()
        self.recorded = 0

    def run(self) -> None:
        from django.db import connection

        from games.models import Game
        from games.services import submit_command

        try:
            while not self.stopped.wait(self.every) and self.games:
                game = Game.objects.get(pk=self.games.pop())
                submit_command(
                    game=game,
                    command={
                        "type": "RecordHandResult",
                        "knocker": 0,
                        "deadwood": {"0": 3, "1": 21, "2": 14, "3": 9},
                    },
                    actor=None,
                    source="system",
                    expected_version=game.version,
                )
                self.recorded += 1
        finally:
            connection.close()


def changed_render_queries(tournament_id: int, game: int) -> tuple[int, int, float, float]:
    """The queries of a changed live part (a cache miss), in this process, its size, and
    the wall time of that miss and of the next viewer's cache hit (ms)."""
    from django.db import connection
    from django.test import Client

    from games.models import Game
    from games.services import submit_command

    url = f"/tournaments/{tournament_id}/live/"
    client = (
        Client()
    )  # one client: a new one loads every middleware again (whitenoise scans the static files)
    etag = client.get(url)["ETag"]
    row = Game.objects.get(pk=game)
    submit_command(
        game=row,
        command={"type": "RecordHandResult", "knocker": 1, "deadwood": {"0": 30, "1": 2, "2": 14, "3": 9}},
        actor=None,
        source="system",
        expected_version=row.version,
    )
    queries = 0

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    began = time.perf_counter()
    with connection.execute_wrapper(count):
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    miss = time.perf_counter() - began
    assert response.status_code == 200 and response["ETag"] != etag, response.status_code
    began = time.perf_counter()
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).content == response.content
    hit = time.perf_counter() - began
    return queries, len(response.content), 1000 * miss, 1000 * hit


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=20, help="length of each phase")
    parser.add_argument("--pairs", type=int, default=1, help="phases without then with pollers, repeated")
    parser.add_argument("--pollers", type=int, default=100)
    parser.add_argument("--clients", type=int, default=8, help="command clients")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between two results")
    parser.add_argument(
        "--workers", type=int, default=3, help="gunicorn worker processes (3: as the Dockerfile runs it)"
    )
    parser.add_argument("--poller-processes", type=int, default=4)
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()

    dbname = f"kr_club_night_{os.getpid()}"
    admin_sql(f'CREATE DATABASE "{dbname}"')
    common = {
        "DATABASE_URL": f"{SERVER}/{dbname}?conn_max_age=600",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
    }
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CI")}
    server_env = {**base, **common, "REDIS_URL": REDIS}
    os.environ.update(common)
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    server = None
    import redis

    cache_db = redis.Redis.from_url(REDIS)
    try:
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=server_env, check=True)
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.db import connections
        from rest_framework.authtoken.models import Token

        from league import projection
        from league.models import Club, Round
        from tests.support.big_events import build_event

        user = get_user_model().objects.create_user("bench")
        token = Token.objects.create(user=user).key
        club = Club.objects.create(name="Club night", slug="club-night")
        built = time.perf_counter()
        event = build_event(club, players=128, rounds=8, table=4, seed=1, open_games=32)
        small = build_event(club, players=16, rounds=4, table=4, seed=2)
        for made in (event, small):
            last = Round.objects.filter(tournament=made.tournament).order_by("-number")[0].number
            Round.objects.filter(tournament=made.tournament, number__lt=last).update(
                status=Round.Status.COMPLETE
            )
            projection.refresh(made.tournament.pk)
        tournament = event.tournament.pk
        print(f"built 128x8 (256 games) and 16x4 in {time.perf_counter() - built:.1f} s; database {dbname}")
        connections.close_all()
        cache_db.flushdb()

        port = free_port()
        command = [GUNICORN, "-c", "python:config.gunicorn", "config.wsgi:application"]
        command += ["-b", f"127.0.0.1:{port}", "-w", str(args.workers), "--log-level", "warning"]
        server = subprocess.Popen(command, cwd=ROOT, env=server_env)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        run_clients(port, token, user.pk, args.workers * 2, 1, 4)  # warm every worker
        workers = [pid for pid in pids_of(f"127.0.0.1:{port}") if pid != server.pid]
        print(f"gunicorn: {args.workers} workers on :{port}, cache in {REDIS}; load: {os.getloadavg()}")

        results = Results(event.open_games[:-1], args.every)
        results.start()
        rows: dict[bool, list[dict[str, Any]]] = {False: [], True: []}
        polls: list[Any] = []
        for _ in range(args.pairs):
            for with_pollers in (False, True):
                pool = None
                if with_pollers:
                    procs = args.poller_processes
                    split = [
                        args.pollers // procs + (1 if i < args.pollers % procs else 0) for i in range(procs)
                    ]
                    firsts = [sum(split[:i]) for i in range(procs)]
                    pool = multiprocessing.get_context("fork").Pool(procs)
                    pending = pool.map_async(
                        poller_process,
                        [
                            (port, tournament, args.seconds + 2 * POLL_SECONDS, n, f, args.pollers)
                            for n, f in zip(split, firsts, strict=True)
                        ],
                    )
                    time.sleep(2 * POLL_SECONDS)  # every poller has opened the page and polled once
                rows[with_pollers].append(
                    run_clients(port, token, user.pk, args.clients, args.seconds, 4, workers)
                )
                if pool is not None:
                    polls.extend(pending.get())
                    pool.close()
                    pool.join()
        results.stopped.set()
        results.join()

        def line(name: str, got: list[dict[str, Any]]) -> tuple[float, float]:
            per_s = statistics.fmean(r["per_s"] for r in got)
            p99 = statistics.fmean(r["p99_ms"] for r in got)
            errors = sum(r["errors"] for r in got)
            cpu = statistics.fmean(r["server_cpu_ms"] for r in got)
            print(f"{name:<26}{per_s:>9.1f}{p99:>10.1f}{errors:>8}{cpu:>12.2f}")
            return per_s, p99

        print(
            f"{args.clients} command clients, {args.seconds:.0f} s a phase, {args.pairs} pair(s); "
            f"{results.recorded} results"
        )
        print(f"{'':<26}{'cmd/s':>9}{'p99 ms':>10}{'errors':>8}{'server CPU':>12} ms/command")
        alone, _ = line("without pollers", rows[False])
        beside, _ = line(f"with {args.pollers} pollers", rows[True])
        print(f"ratio with / without: {beside / alone:.2f} (goal >= 0.9)")
        unchanged = [x for u, *_ in polls for x in u]
        changed = [x for _, c, *_ in polls for x in c]
        earlier = [x for _, _, r, *_ in polls for x in r]
        poll_cpu = sum(p[4] for p in polls)
        every = unchanged + changed
        print(
            f"polls: {len(every)} ({len(changed)} changed, {sum(p[3] for p in polls)} errors): "
            f"p50 {ms(every, 0.5):.1f} ms, p99 {ms(every, 0.99):.1f} ms (goal < 200); "
            f"304 p50 {ms(unchanged, 0.5):.1f} / p99 {ms(unchanged, 0.99):.1f} ms; "
            f"200 p50 {ms(changed, 0.5):.1f} / p99 {ms(changed, 0.99):.1f} ms; "
            f"earlier rounds p50 {ms(earlier, 0.5):.1f} / p99 {ms(earlier, 0.99):.1f} ms"
        )
        polled = args.pairs * (args.seconds + 2 * POLL_SECONDS)
        print(
            f"the pollers' own CPU (load generator): {poll_cpu:.1f} s in {polled:.0f} s "
            f"({100 * poll_cpu / polled:.0f}% of one core), "
            f"{1000 * poll_cpu / max(len(every) + len(earlier), 1):.2f} ms a request"
        )
        large, size, miss, hit = changed_render_queries(tournament, event.open_games[-1])
        smaller, *_ = changed_render_queries(small.tournament.pk, small.open_game)
        print(f"queries per changed render: {large} at 128x8, {smaller} at 16x4 (goal <= 10)")
        print(
            f"at 128x8, in process: {size:,} bytes; the render {miss:.1f} ms, the next viewer's {hit:.1f} ms"
        )
        print(f"load after: {os.getloadavg()}")
        return 0
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        cache_db.flushdb()
        if not args.keep:
            from django.db import connections as open_connections

            open_connections.close_all()
            admin_sql(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
