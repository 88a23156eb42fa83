"""Benchmark: the worker CPU of the API's request path, in process (not run by CI).

    .venv/bin/python tests/bench/bench_request_cpu.py [--commands 1000]
    BENCH_PG=postgres://postgres@127.0.0.1:5432 (the server; a fresh database is created and dropped)

Two users with tokens play digital knock-rummy games against each other through DRF's
``APIClient`` (Django's whole request path, middleware, authentication, the views, the
store and the engine, without a server or a socket): each turn reads the game as the
seat to move when the last answer showed another seat, then posts a random legal
command with a fresh Idempotency-Key; a finished game is replaced by a new one. The
random choices are seeded, so two checkouts run the same workload. It prints the
thread CPU per turn, then plays ``--counted`` more turns counting the SQL statements
each kind of request ran (``connection.execute_wrapper``, left out of the timing).
The games are free games (``Game.followed`` false): since 2026-11-26 their writes carry
no outbox rows. Before, the league's (standings on every scored hand; the round and the
ratings at a game's end) ran inside the request without ``--broker`` (Celery eager, as
in the embedded default and ``bench_api.py``); with ``--broker redis://…/N`` they are
only sent to that Redis database, as a production web process does (nothing consumes
them here; the queue is purged at the end, so give it a database nothing else uses).
Compare two checkouts by running this file from each, alternately:
unlike ``bench_api.py`` it does not depend on the host's scheduling of many processes,
but it also leaves out what Django's test client skips (the connection health check at
the start of a request) and everything PostgreSQL spends.

``--steps`` then plays ``--counted`` more turns timing the steps of each kind of request
(thread CPU, each step with what it calls): the functions in ``STEPS`` are wrapped for
the rest of the run. It shows where a command's CPU goes beside a
read of the same game, which runs the same request path without a decision or a write.
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import sys
import time
from pathlib import Path
from typing import Any

from benchdb import SERVER, admin_sql, use_database

ROOT = Path(__file__).resolve().parents[2]


class Counter:
    """SQL statements per kind of request (``execute_wrapper`` is Django's public hook)."""

    def __init__(self) -> None:
        self.kind = ""
        self.queries: dict[str, int] = {}
        self.requests: dict[str, int] = {}

    def request(self, kind: str) -> None:
        self.kind = kind
        self.requests[kind] = self.requests.get(kind, 0) + 1

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.queries[self.kind] = self.queries.get(self.kind, 0) + 1
        return execute(sql, params, many, context)


# (label, module, dotted name within it): each step of a request, timed with what it
# calls. The name is replaced where the request path looks it up: "store.read_game" in
# games.access is the store module's function, which games.access calls through
# ``store.``; "Class.method" names a method.
STEPS = [
    ("the whole request (Django's handler)", "django.core.handlers.base", "BaseHandler.get_response"),
    ("  DRF's dispatch", "rest_framework.views", "APIView.dispatch"),
    ("    authentication", "rest_framework.views", "APIView.perform_authentication"),
    ("      the token's statement", "games.authentication", "user_by_token"),
    ("    the game row, read", "games.access", "store.read_game"),
    ("    the game row and the log, read", "games.access", "store.read_game_for_write"),
    ("    the command parsed and checked", "api.games", "_command_request"),
    ("    the decision", "games.services", "engine.decide"),
    ("    the events folded", "games.services", "store.fold_steps"),
    ("    the event rows built", "games.services", "store.new_rows"),
    ("    the write", "games.services", "store.write_game_and_events"),
    ("    the events redacted", "api.games", "redact_events"),
    ("    the state as the caller sees it", "api.games", "selectors.state_payload"),
    ("  the answer rendered", "config.renderers", "FastJSONRenderer.render"),
]


class Steps:
    """Thread CPU per kind of request and step (see ``STEPS``)."""

    def __init__(self) -> None:
        self.kind = ""
        self.requests: dict[str, int] = {}
        self.spent: dict[tuple[str, str], int] = {}

    def request(self, kind: str) -> None:
        self.kind = kind
        self.requests[kind] = self.requests.get(kind, 0) + 1

    def wrap_all(self) -> None:
        import importlib

        for label, module, name in STEPS:
            owner: Any = importlib.import_module(module)
            *path, attr = name.split(".")
            for part in path:
                owner = getattr(owner, part)
            setattr(owner, attr, self._timed(label, getattr(owner, attr)))

    def _timed(self, label: str, function: Any) -> Any:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time_ns()
            try:
                return function(*args, **kwargs)
            finally:
                key = (self.kind, label)
                self.spent[key] = self.spent.get(key, 0) + time.thread_time_ns() - started

        return timed

    def report(self) -> None:
        for kind in ("command", "read"):
            made = self.requests.get(kind, 0)
            print(f"  {kind}: CPU µs per request, each step with what it calls ({made} requests)")
            for label, _, _ in STEPS:
                if (kind, label) in self.spent:
                    print(f"    {label:<44}{self.spent[(kind, label)] / made / 1000:8.0f}")


def play(turns: int, clients: list[Any], users: list[Any], counter: Counter | Steps | None = None) -> None:
    def count(kind: str) -> None:
        if counter is not None:
            counter.request(kind)

    def new_game() -> dict[str, Any]:
        seats = [{"user": user.pk} for user in users]
        body = {"preset": "knock-rummy", "mode": "digital", "seats": seats}
        count("create")
        answer: dict[str, Any] = clients[0].post("/api/v1/games", body, format="json").json()
        return answer

    game = new_game()
    for turn in range(turns):
        state = game["state"]
        seat = state["view"]["to_move"] or 0
        if state["viewer"].get("seat") != seat:
            count("read")
            state = clients[seat].get(f"/api/v1/games/{game['id']}?seat={seat}").json()
        legal = state["view"]["legal_commands"]
        if state["status"] != "playing" or not legal:
            game = new_game()
            continue
        count("command")
        response = clients[seat].post(
            f"/api/v1/games/{game['id']}/commands",
            {"expected_version": state["version"], "command": random.choice(legal)},
            format="json",
            HTTP_IDEMPOTENCY_KEY=f"turn-{turn}-{secrets.token_hex(8)}",
        )
        if response.status_code != 201:
            raise SystemExit(f"turn {turn}: {response.status_code} {response.content[:300]!r}")
        game = {"id": game["id"], "state": response.json()["state"]}


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--commands", type=int, default=1000, help="turns to time (after 50 to warm up)")
    parser.add_argument("--counted", type=int, default=300, help="turns whose SQL statements are counted")
    parser.add_argument("--steps", action="store_true", help="then time each step of a command and a read")
    parser.add_argument("--broker", default="", help="a Redis URL to send the outbox's tasks to (else eager)")
    args = parser.parse_args()

    dbname = f"kr_bench_cpu_{os.getpid()}"
    admin_sql(f'CREATE DATABASE "{dbname}"')
    use_database(f"{SERVER}/{dbname}", broker=args.broker)
    sys.path.insert(0, str(ROOT))
    try:
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from django.db import connections
        from rest_framework.authtoken.models import Token
        from rest_framework.test import APIClient

        call_command("migrate", verbosity=0)
        users = [get_user_model().objects.create_user(name) for name in ("ann", "bob")]
        clients = []
        for user in users:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
            clients.append(client)
        random.seed(1)
        play(50, clients, users)
        started = time.thread_time()
        play(args.commands, clients, users)
        spent = time.thread_time() - started
        print(f"Python {sys.version.split()[0]} ({sys.executable})")
        print(f"{args.commands} turns: {spent / args.commands * 1000:.3f} ms of CPU per turn")
        counter = Counter()
        with connections["default"].execute_wrapper(counter):
            play(args.counted, clients, users, counter)
        for kind in sorted(counter.requests):
            made = counter.requests[kind]
            print(f"  {kind}: {made} requests, {counter.queries.get(kind, 0) / made:.2f} SQL statements each")
        if args.steps:
            steps = Steps()
            steps.wrap_all()
            play(args.counted, clients, users, steps)
            steps.report()
        connections.close_all()
        if args.broker:
            from config.celery import app

            print(f"  {app.control.purge()} tasks sent to the broker, purged")
    finally:
        admin_sql(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
