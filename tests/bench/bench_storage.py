"""Benchmark: what the event store costs on disk, per event and per game, on PostgreSQL
(not run by CI).

    .venv/bin/python tests/bench/bench_storage.py [--games 200]
    BENCH_PG=postgres://postgres@127.0.0.1:5432 (the server; a fresh database is created and dropped)

Plays ``--games`` whole two-player knock-rummy games in process, each command through
``games.services.submit_as`` as the API sends it (a person's token: source ``api``, the
actor, a client's Idempotency-Key of 36 characters), each move the ``steady`` bot's choice
for the seat to move. Then reports how many of the game row's updates were heap-only
(HOT: no new index entry, the old version pruned in its page) and, as written (the game
row is updated by every write, so its table holds dead row versions until autovacuum
gets to them) and after ``VACUUM FULL`` (live rows only): the size of each table, its
TOAST and each of its indexes, per event and per game, and the mean stored size of each
column of an event and of a game row (``pg_column_size``, compressed where PostgreSQL
compressed it).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from benchdb import SERVER, admin_sql, use_database

ROOT = Path(__file__).resolve().parents[2]
TABLES = ("games_game", "games_gameevent", "games_outboxmessage")


def play_games(count: int) -> None:
    from django.contrib.auth import get_user_model

    import engine
    from engine.bots import get_bot
    from games import services
    from games.models import Source

    users = [get_user_model().objects.create_user(name) for name in ("ann", "bob")]
    bot = get_bot("steady")
    rng = random.Random(1)
    for _ in range(count):
        seats = [services.SeatSpec(user_id=user.pk) for user in users]
        result = services.create_game(
            ruleset=engine.get_ruleset("knock-rummy"),
            mode="digital",
            seats=seats,
            owner=users[0],
            source=Source.API,
            idempotency_key=str(uuid.uuid4()),
        )
        game_id, state = result.game.pk, result.state
        while state.status == "playing":
            seat = state.to_move
            command = engine.command_to_dict(bot(engine.view(state, seat), rng))
            state = services.submit_as(
                users[seat],
                game_id,
                command,
                expected_version=state.version,
                idempotency_key=str(uuid.uuid4()),
                source=Source.API,
            ).state


def sizes(cursor: Any) -> dict[str, int]:
    """Bytes of each table (heap), its TOAST and each of its indexes."""
    found = {}
    for table in TABLES:
        cursor.execute(
            "SELECT pg_relation_size(c.oid), COALESCE(pg_total_relation_size(c.reltoastrelid), 0) "
            "FROM pg_class c WHERE c.relname = %s",
            [table],
        )
        heap, toast = cursor.fetchone()
        found[f"{table} (heap)"], found[f"{table} (TOAST)"] = heap, toast
        cursor.execute(
            "SELECT i.relname, pg_relation_size(i.oid) FROM pg_index x "
            "JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid "
            "WHERE t.relname = %s ORDER BY i.relname",
            [table],
        )
        for name, size in cursor.fetchall():
            found[f"  index {name}"] = size
    return found


def column_sizes(cursor: Any, table: str) -> list[tuple[str, float]]:
    cursor.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum > 0 "
        "AND NOT attisdropped ORDER BY attnum",
        [table],
    )
    columns = [name for (name,) in cursor.fetchall()]
    averages = ", ".join(f'avg(pg_column_size("{name}"))' for name in columns)
    cursor.execute(f"SELECT {averages}, avg(pg_column_size(t.*)) FROM {table} t")
    return list(zip([*columns, "(whole row)"], (float(x or 0) for x in cursor.fetchone()), strict=True))


def report(cursor: Any, events: int, games: int, title: str) -> None:
    found = sizes(cursor)
    total = sum(found.values())
    print(
        f"\n{title}: {total / 1024:.0f} KiB in all, {total / events:.0f} B an event,"
        f" {total / games / 1024:.1f} KiB a game"
    )
    print(f"  {'':44}{'KiB':>10}{'B/event':>10}{'KiB/game':>10}")
    for name, size in found.items():
        print(f"  {name:44}{size / 1024:>10.0f}{size / events:>10.1f}{size / games / 1024:>10.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()

    dbname = f"kr_bench_storage_{os.getpid()}"
    admin_sql(f'CREATE DATABASE "{dbname}"')
    use_database(f"{SERVER}/{dbname}")
    sys.path.insert(0, str(ROOT))
    try:
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection, connections

        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        play_games(args.games)
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*), count(DISTINCT game_id) FROM games_gameevent")
            events, games = cursor.fetchone()
            cursor.execute("SELECT count(*) FROM games_outboxmessage")
            (outbox,) = cursor.fetchone()
            print(
                f"{games} games, {events} events ({events / games:.0f} a game), {outbox} outbox rows, "
                f"played in {time.perf_counter() - started:.0f} s"
            )
            cursor.execute("SELECT pg_stat_force_next_flush()")
            cursor.execute(
                "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'games_game'"
            )
            updates, hot = cursor.fetchone()
            print(f"game row updates: {updates}, of which HOT (no index entry, pruned in the page): {hot}")
            report(cursor, events, games, "As written")
        connection.close()
        with connections["default"].cursor() as cursor:
            for table in TABLES:
                cursor.execute(f"VACUUM FULL ANALYZE {table}")
            report(cursor, events, games, "After VACUUM FULL (live rows only)")
            for table in ("games_gameevent", "games_game"):
                print(f"\nMean stored bytes per column of {table} (pg_column_size):")
                for name, size in column_sizes(cursor, table):
                    print(f"  {name:24}{size:>10.1f}")
        connections.close_all()
    finally:
        if not args.keep:
            admin_sql(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
