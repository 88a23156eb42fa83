"""Benchmark: POST /api/v1/games/{id}/commands under gunicorn on PostgreSQL (not run by CI).

    .venv/bin/python tests/bench/bench_api.py [--seconds 10] [--clients 1,8,32] [--workers 3]
        [--rounds 1] [--read]
    BENCH_PG=postgres://postgres@127.0.0.1:5432 (the server; a fresh database is created and dropped)

1. Creates a database, migrates it, creates a user with a token, starts gunicorn on
   127.0.0.1 with a spare port (DEBUG off), 3 sync workers as the Dockerfile runs it.
   The games are free games (no club holds them, ``Game.followed`` is false), so their
   writes carry no outbox rows. Until 2026-11-26 every scored hand and game end carried
   the league's, which Celery ran in the request without a broker; ``--broker
   redis://…/N`` only sends such tasks there, as in production, for measuring an older
   checkout (nothing consumes them; the queue is purged at the end: a database nothing
   else uses).
2. For each client count: that many clients (threads spread over a few processes, one
   socket each, reopened whenever the server closes it), each playing its own digital
   game as both seats: POST a random legal command from the previous answer's view, at
   the version it returned,
   with a fresh Idempotency-Key. Reports commands/s, p50/p99 latency, and the CPU
   one command cost gunicorn's workers, PostgreSQL, the load generator and the whole
   machine (/proc, getrusage), with
   the share of the run the hypervisor stole, and the stalls: every stretch of 50 ms or
   more in which no command was answered at all, beside what an 8 kB write and
   fdatasync on this machine's disk took meanwhile (a probe, one every 50 ms). Every
   command waits for its commit to reach the disk, so a slow flush holds all clients
   at once; on a shared host such flushes take 100-500 ms now and then, even idle.
3. Right after each client count's run, on the same database: the eventsourcing library's
   PostgresApplicationRecorder appending one event per call from as many threads, each
   to its own aggregate (the reference append rate; pip install "eventsourcing[postgres]"),
   and our rate as a ratio of it. ``--rounds N`` pairs N runs with N references and
   prints the median ratio; ``--read`` also runs the clients on ``GET`` of their own
   game between the two (the read a command stands on: no decision, write or events).
4. Verifies every game's log replays (manage.py verify_games: version, status, and the
   snapshot at the version it names), that
   each game's seq runs 1..n and that global positions are 1..N without gap or duplicate.
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing
import os
import platform
import random
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import orjson
from benchdb import SERVER, admin_sql

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python")
GUNICORN = str(ROOT / ".venv" / "bin" / "gunicorn")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Client:
    """A lean HTTP/1.1 client over one socket: the load generator shares the server's
    two cores, so it does as little as it can (no header parsing beyond what it needs).
    Reconnects when the server closes the connection (gunicorn's sync workers close
    after every response)."""

    def __init__(self, port: int, token: str, user_id: int) -> None:
        self.port, self.user_id = port, user_id
        self.head = (
            f"Host: 127.0.0.1:{port}\r\nAuthorization: Token {token}\r\nContent-Type: application/json\r\n"
        ).encode()
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.keys_prefix, self.keys = uuid.uuid4().hex, itertools.count()  # a fresh key per command

    def _connect(self) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(30)
        sock.connect(("127.0.0.1", self.port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        return sock

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        payload = orjson.dumps(body)
        request = (
            f"POST {path} HTTP/1.1\r\nIdempotency-Key: {self.keys_prefix}{next(self.keys)}\r\n"
            f"Content-Length: {len(payload)}\r\n".encode()
            + self.head
            + b"\r\n"
            + payload
        )
        status, data = self.exchange(request)
        return status, orjson.loads(data)

    def get(self, path: str) -> int:
        """GET ``path`` with the token; its status (the body is read and dropped)."""
        return self.exchange(f"GET {path} HTTP/1.1\r\n".encode() + self.head + b"\r\n")[0]

    def exchange(self, request: bytes) -> tuple[int, bytes]:
        for attempt in range(2):
            if self.sock is None:
                self.sock = self._connect()
            try:
                self.sock.sendall(request)
                status, close, data = self._response()
            except (ConnectionError, EOFError):
                if attempt:
                    raise
                self.sock.close()
                self.sock = None
                continue
            if close:
                self.sock.close()
                self.sock = None
            return status, data
        raise AssertionError("unreachable")

    def _read(self) -> bytes:
        assert self.sock is not None
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError("the server closed the connection")
        return chunk

    def _response(self) -> tuple[int, bool, bytes]:
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._read()
        head, _, rest = self.buffer.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length, close = 0, False
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"connection":
                close = value.strip().lower() == b"close"
        while len(rest) < length:
            rest += self._read()
        self.buffer = rest[length:]
        return status, close, rest[:length]

    def new_game(self) -> tuple[int, int, dict[str, Any]]:
        seats = [{"user": self.user_id}, {"user": self.user_id}]
        status, body = self.post(
            "/api/v1/games", {"preset": "knock-rummy", "seats": seats, "first_dealer": 1}
        )
        assert status == 201, body
        return body["id"], body["version"], body["state"]


def client_loop(port: int, token: str, user_id: int, seconds: float, seed: int, out: list[Any]) -> None:
    rng = random.Random(seed)
    client = Client(port, token, user_id)
    game, version, state = client.new_game()
    latencies: list[float] = []
    answered: list[float] = []  # time.monotonic() of every answer: the same clock in every process
    errors = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        legal = state["view"]["legal_commands"]
        if state["status"] != "playing" or not legal:
            game, version, state = client.new_game()
            continue
        command = rng.choice(legal)
        started = time.perf_counter()
        status, body = client.post(
            f"/api/v1/games/{game}/commands", {"expected_version": version, "command": command}
        )
        latencies.append(time.perf_counter() - started)
        answered.append(time.monotonic())
        if status != 201:
            errors += 1
            game, version, state = client.new_game()
            continue
        version, state = body["version"], body["state"]
    out.append((latencies, errors, answered))


def read_loop(port: int, token: str, user_id: int, seconds: float, seed: int, out: list[Any]) -> None:
    """The read a command stands on: ``GET /api/v1/games/{id}`` of the client's own game, as
    fast as the client can, through the same gunicorn, middleware, DRF and token, with the
    game row and the worker's cached state and the seat's view in the answer: a command
    without its decision, its write and its events."""
    client = Client(port, token, user_id)
    game, _, _ = client.new_game()
    latencies: list[float] = []
    answered: list[float] = []
    errors = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        started = time.perf_counter()
        status = client.get(f"/api/v1/games/{game}")
        latencies.append(time.perf_counter() - started)
        answered.append(time.monotonic())
        errors += status != 200
    out.append((latencies, errors, answered))


LOOPS = {"commands": client_loop, "read": read_loop}


def process_main(
    args: tuple[str, int, str, int, float, int, int],
) -> tuple[list[float], int, list[float], float]:
    loop, port, token, user_id, seconds, threads, seed = args
    results: list[Any] = []
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    workers = [
        threading.Thread(target=LOOPS[loop], args=(port, token, user_id, seconds, seed * 1000 + i, results))
        for i in range(threads)
    ]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    used = resource.getrusage(resource.RUSAGE_SELF)
    return (
        [x for lat, _, _ in results for x in lat],
        sum(e for _, e, _ in results),
        [t for _, _, times in results for t in times],
        used.ru_utime + used.ru_stime - cpu.ru_utime - cpu.ru_stime,
    )


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes ``pids`` have used so far."""
    return sum(cpu_by_pid(pids).values())


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) each of the processes ``pids`` still running has used."""
    used = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return used


def database_cpu() -> dict[int, float]:
    """Every postgres process's CPU so far (backends, WAL writer, checkpointer), by pid."""
    return cpu_by_pid(pids_of("postgres"))


def database_cpu_since(before: dict[int, float]) -> float:
    """CPU seconds the postgres processes used since ``before`` (:func:`database_cpu`):
    a process running at both ends by the difference, one started since by all it used
    (the reference's pool opens its backends as it runs); one that has exited since
    (the previous phase's backends closing) no longer counts, rather than negatively."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in database_cpu().items())


def machine_busy() -> float:
    """CPU seconds all cores have spent busy so far: user, nice, system, irq and softirq
    (not idle, iowait, or steal — time the hypervisor gave to another guest)."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:8]]
    user, nice, system, _idle, _iowait, irq, softirq = ticks
    return (user + nice + system + irq + softirq) / CLOCK_TICKS


def machine_steal() -> tuple[float, float]:
    """(steal, total) CPU seconds so far: steal is time a busy virtual CPU waited for
    the hypervisor; a high share means the figures say more about the host than us."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]
    return ticks[7] / CLOCK_TICKS, sum(ticks) / CLOCK_TICKS


STALL = 0.050  # seconds without a single answer, with every client waiting on one


def stalls(answered: list[float], started: float, ended: float) -> list[float]:
    """The stretches of at least ``STALL`` seconds in which no command was answered."""
    times = [started, *sorted(answered), ended]
    return [b - a for a, b in itertools.pairwise(times) if b - a >= STALL]


class StorageProbe(threading.Thread):
    """Every 50 ms, writes 8 kB to a file in ``directory`` and fdatasyncs it, as a
    commit flushes the WAL: how long the disk takes to make a write durable while the
    benchmark runs, whatever the server does."""

    def __init__(self, directory: str) -> None:
        super().__init__(daemon=True)
        self.directory = directory
        self.flushes: list[float] = []
        self._done = threading.Event()

    def run(self) -> None:
        import tempfile

        block = os.urandom(8192)
        with tempfile.NamedTemporaryFile(dir=self.directory, prefix="bench-probe-") as f:
            while not self._done.wait(0.05):
                started = time.perf_counter()
                os.pwrite(f.fileno(), block, 0)
                os.fdatasync(f.fileno())
                self.flushes.append(time.perf_counter() - started)

    def stop(self) -> list[float]:
        self._done.set()
        self.join()
        return sorted(self.flushes)


def probe_directory(dbname: str) -> tuple[str, str]:
    """A directory on the database's disk, when it is on this machine and readable
    (its data directory's parent file system), else the temporary directory; and
    which of the two it is."""
    import tempfile

    import psycopg

    scratch = tempfile.gettempdir()
    try:
        with psycopg.connect(f"{SERVER}/{dbname}") as conn:
            data = str(conn.execute("SHOW data_directory").fetchone()[0])  # type: ignore[index]
        if os.stat(data).st_dev == os.stat(scratch).st_dev:
            return scratch, f"{scratch}, on the file system of PostgreSQL's {data}"
    except Exception:  # not a superuser, another machine: say so below
        pass
    return scratch, f"{scratch} (PostgreSQL's data directory not seen to share its disk)"


def pids_of(pattern: str) -> list[int]:
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout
    return [int(pid) for pid in found.split()]


def run_clients(
    port: int,
    token: str,
    user_id: int,
    clients: int,
    seconds: float,
    processes: int,
    server_pids: list[int] | None = None,
    probe_dir: str | None = None,
    loop: str = "commands",
) -> dict[str, Any]:
    """Run the clients; with ``server_pids`` (gunicorn's workers) also the CPU each
    command cost the server, PostgreSQL, and everything (load generator and kernel
    included), from /proc; with ``probe_dir`` the disk's flush times meanwhile."""
    procs = min(clients, processes)
    split = [clients // procs + (1 if i < clients % procs else 0) for i in range(procs)]
    database_before = database_cpu()
    cpu_before = (process_cpu(server_pids or []), machine_busy())
    steal_before = machine_steal()
    probe = StorageProbe(probe_dir) if probe_dir else None
    if probe:
        probe.start()
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        jobs = [(loop, port, token, user_id, seconds, n, i) for i, n in enumerate(split)]
        parts = pool.map(process_main, jobs)
    elapsed = time.perf_counter() - started
    flushes = probe.stop() if probe else []
    # from the first answer to the last: the pool's start and the last stragglers aside
    answered = sorted(t for _, _, times, _ in parts for t in times)
    quiet = stalls(answered, answered[0], answered[-1]) if answered else []
    cpu_after = (process_cpu(server_pids or []), machine_busy())
    database_used = database_cpu_since(database_before)
    steal_after = machine_steal()
    latencies = sorted(x for lat, _, _, _ in parts for x in lat)
    n = max(len(latencies), 1)
    server_ms, all_ms = (1000 * (b - a) / n for a, b in zip(cpu_before, cpu_after, strict=True))
    database_ms = 1000 * database_used / n
    return {
        "steal_share": (steal_after[0] - steal_before[0]) / max(steal_after[1] - steal_before[1], 1e-9),
        "server_cpu_ms": server_ms,
        "database_cpu_ms": database_ms,
        "all_cpu_ms": all_ms,
        "client_cpu_ms": 1000 * sum(cpu for _, _, _, cpu in parts) / n,
        "clients": clients,
        "commands": len(latencies),
        "errors": sum(e for _, e, _, _ in parts),
        "stalls": quiet,
        "flushes": flushes,
        "per_s": len(latencies) / seconds,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99) - 1],
        "elapsed": elapsed,
    }


def print_row(label: str, row: dict[str, Any]) -> None:
    server = "-" if row["server_cpu_ms"] is None else f"{row['server_cpu_ms']:.2f}"
    print(
        f"{label:24}{row['clients']:>8}{row['commands']:>10}{row['per_s']:>10.0f}"
        f"{row['p50_ms']:>9.1f}{row['p99_ms']:>9.1f}{row['errors']:>8}"
        f"   {server}, {row['database_cpu_ms']:.2f}, {row['client_cpu_ms']:.2f},"
        f" {row['all_cpu_ms']:.2f}"
        f"; {100 * row['steal_share']:.0f}%"
    )
    if "stalls" in row:
        print(f"{'':24}{stall_report(row)}")


def stall_report(row: dict[str, Any]) -> str:
    """The stalls of a run and, beside them, what the disk's flushes took meanwhile."""
    quiet, flushes = row["stalls"], row["flushes"]
    text = f"stalls (no answer for {1000 * STALL:.0f}+ ms): {len(quiet)}"
    if quiet:
        text += f", longest {1000 * max(quiet):.0f} ms, {1000 * sum(quiet):.0f} ms in all"
    if flushes:
        slow = sum(1 for f in flushes if f >= STALL)
        text += (
            f"; disk flushes: {len(flushes)}, p50 {1000 * statistics.median(flushes):.1f} ms,"
            f" {slow} of {1000 * STALL:.0f}+ ms, longest {1000 * flushes[-1]:.0f} ms"
        )
    return text


def eventsourcing_rate(dbname: str, threads: int, seconds: float) -> dict[str, Any]:
    from urllib.parse import urlsplit

    from eventsourcing.persistence import StoredEvent
    from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore

    parts = urlsplit(SERVER)
    datastore = PostgresDatastore(
        dbname,
        parts.hostname or "127.0.0.1",
        parts.port or 5432,
        parts.username or "postgres",
        parts.password or "",
        pool_size=threads,
        max_overflow=0,
    )
    recorder = PostgresApplicationRecorder(datastore, events_table_name="es_bench_events")
    recorder.create_table()
    payload = json.dumps({"seat": 0, "card": "QS"}).encode()
    latencies: list[float] = []
    lock = threading.Lock()

    def append() -> None:
        stream, version, mine = uuid.uuid4(), 0, []
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            version += 1
            started = time.perf_counter()
            recorder.insert_events([StoredEvent(stream, version, "bench:CardDiscarded", payload)])
            mine.append(time.perf_counter() - started)
        with lock:
            latencies.extend(mine)

    database_before = database_cpu()
    cpu_before = (machine_busy(), resource.getrusage(resource.RUSAGE_SELF))
    steal_before = machine_steal()
    workers = [threading.Thread(target=append) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    database, busy, own = (
        database_cpu_since(database_before),
        machine_busy(),
        resource.getrusage(resource.RUSAGE_SELF),
    )
    steal_after = machine_steal()
    datastore.close()
    latencies.sort()
    n = max(len(latencies), 1)
    return {
        "clients": threads,
        "commands": len(latencies),
        "errors": 0,
        "per_s": len(latencies) / seconds,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99) - 1],
        # no server: the appending process is the "load generator"
        "server_cpu_ms": None,
        "database_cpu_ms": 1000 * database / n,
        "client_cpu_ms": 1000
        * (own.ru_utime + own.ru_stime - cpu_before[1].ru_utime - cpu_before[1].ru_stime)
        / n,
        "all_cpu_ms": 1000 * (busy - cpu_before[0]) / n,
        "steal_share": (steal_after[0] - steal_before[0]) / max(steal_after[1] - steal_before[1], 1e-9),
    }


def verify(env: dict[str, str]) -> list[str]:
    """verify_games, then seq and global position without gaps or duplicates."""
    problems = []
    result = subprocess.run(
        [PYTHON, "manage.py", "verify_games"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if result.returncode != 0:
        problems.append(result.stdout[-2000:] + result.stderr[-2000:])
    import psycopg

    with psycopg.connect(env["DATABASE_URL"].split("?")[0]) as conn:
        bad_seq = conn.execute(
            "SELECT count(*) FROM (SELECT game_id, count(*) n, max(seq) top, count(DISTINCT seq) d "
            "FROM games_gameevent GROUP BY game_id) s WHERE n <> top OR d <> n"
        ).fetchone()
        games, events, low, high, distinct = conn.execute(
            "SELECT count(DISTINCT game_id), count(*), min(position), max(position), "
            "count(DISTINCT position) FROM games_gameevent"
        ).fetchone()  # type: ignore[misc]
    if bad_seq and bad_seq[0]:
        problems.append(f"{bad_seq[0]} games whose seq is not 1..n")
    if (low, high, distinct) != (1, events, events):
        problems.append(f"positions {low}..{high} for {events} events ({distinct} distinct)")
    print(f"verified {games} games, {events} events: positions 1..{high}, seq 1..n per game")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", default="1,8,32")
    parser.add_argument(
        "--workers", type=int, default=3, help="gunicorn worker processes (3: as the Dockerfile runs it)"
    )
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (gthread if > 1)")
    parser.add_argument("--client-processes", type=int, default=4)
    parser.add_argument("--keep", action="store_true", help="keep the database")
    parser.add_argument("--no-probe", action="store_true", help="no disk flush probe during the runs")
    parser.add_argument("--broker", default="", help="a Redis URL to send the outbox's tasks to (else eager)")
    parser.add_argument(
        "--rounds", type=int, default=1, help="rounds at each client count, each paired with the reference"
    )
    parser.add_argument(
        "--read",
        action="store_true",
        help="also GET each client's game at each client count: a command without its decision and write",
    )
    args = parser.parse_args()

    dbname = f"kr_bench_{os.getpid()}"
    admin_sql(f'CREATE DATABASE "{dbname}"')
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CI")},
        "DATABASE_URL": f"{SERVER}/{dbname}?conn_max_age=600",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(60),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        **({"REDIS_URL": args.broker} if args.broker else {}),
    }
    server = None
    try:
        subprocess.run([PYTHON, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
        made = subprocess.run(
            [
                PYTHON,
                "manage.py",
                "shell",
                "-c",
                "from django.contrib.auth import get_user_model\n"
                "from rest_framework.authtoken.models import Token\n"
                "u = get_user_model().objects.create_user('bench')\n"
                "print(u.pk, Token.objects.create(user=u).key)",
            ],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        user_id, token = made.stdout.strip().splitlines()[-1].split()
        port = free_port()
        command = [
            GUNICORN,
            "-c",
            "python:config.gunicorn",  # the project's settings: preload and the gc.freeze hook
            "config.wsgi:application",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(args.workers),
            "--log-level",
            "warning",
            "--keep-alive",
            "30",
        ]
        if args.threads > 1:
            command += ["-k", "gthread", "--threads", str(args.threads)]
        server = subprocess.Popen(command, cwd=ROOT, env=env)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        for _ in range(2):  # warm every worker (imports, connections)
            run_clients(port, token, int(user_id), args.workers * 2, 1, args.client_processes)
        workers = [pid for pid in pids_of(f"127.0.0.1:{port}") if pid != server.pid]
        print(f"gunicorn: {args.workers} workers x {args.threads} threads on :{port}; database {dbname}")
        print(f"Python {platform.python_version()} ({os.path.realpath(sys.executable)})")
        print(
            f"{'':24}{'clients':>8}{'commands':>10}{'cmd/s':>10}{'p50 ms':>9}{'p99 ms':>9}{'errors':>8}"
            "   CPU ms per command: gunicorn, PostgreSQL, load generator, whole machine; steal"
        )
        probe_dir, probe_where = (None, "") if args.no_probe else probe_directory(dbname)
        rows = []
        ratios: dict[int, list[float]] = {}

        def measure(clients: int, loop: str, probe: str | None = None) -> dict[str, Any]:
            return run_clients(
                port, token, int(user_id), clients, args.seconds, args.client_processes, workers, probe, loop
            )

        for clients in (int(c) for c in args.clients.split(",")):
            for _ in range(args.rounds):  # each round: ours, the read, the reference, back to back
                row = measure(clients, "commands", probe_dir)
                rows.append(row)
                print_row("POST .../commands", row)
                if args.read:
                    read = measure(clients, "read")
                    print_row("GET .../games/{id}", read)
                try:
                    reference = eventsourcing_rate(dbname, clients, args.seconds)
                except ImportError:
                    print('eventsourcing is not installed: pip install "eventsourcing[postgres]"')
                    continue
                print_row("eventsourcing append", reference)
                ratio = row["per_s"] / reference["per_s"]
                read_ratio = f"; reads {read['per_s'] / reference['per_s']:.2f}" if args.read else ""
                print(f"{'':24}ratio to the reference: commands {ratio:.2f}{read_ratio}")
                ratios.setdefault(clients, []).append(ratio)
        if probe_dir:
            print(f"disk flush probe: 8 kB + fdatasync every 50 ms in {probe_where}")
        for clients, measured in ratios.items():
            spread = ", ".join(f"{r:.2f}" for r in measured)
            median = statistics.median(measured)
            of = f" (median of {spread})" if len(measured) > 1 else ""
            print(f"ratio at {clients} clients: {median:.2f} of the eventsourcing append rate{of}")
        problems = verify(env)
        if args.broker:
            purge = "from config.celery import app; print(app.control.purge())"
            shell = [PYTHON, "manage.py", "shell", "-c", purge]
            purged = subprocess.run(shell, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
            print(f"{purged.stdout.strip()} tasks sent to the broker, purged")
        for problem in problems:
            print("PROBLEM:", problem)
        return 1 if problems or any(r["errors"] for r in rows) else 0
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        if not args.keep:
            admin_sql(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main())
