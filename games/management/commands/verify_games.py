"""Replay every stored game; report logs that no longer replay (the engine's checks on
every event, a deal's deck included), bots this server cannot run, and snapshots that
differ."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.errors import EngineError
from games import store
from games.models import Game, GameEvent
from games.seat_checks import check_log_bots


def verify_game(game: Game) -> list[str]:
    """The problems of one game's stream (empty when it is sound)."""
    rows = list(GameEvent.objects.filter(game_id=game.pk).order_by("seq"))
    seqs = [row.seq for row in rows]
    if seqs != list(range(1, len(rows) + 1)):
        return [f"seq is not 1..{len(rows)} without gaps"]
    # The snapshot is written by the write that ends the game (until November 2026 also
    # every 32 versions) and says which version it is at: compare it with the replay at
    # that version.
    snapshot = game.snapshot or None
    at = snapshot.get("version") if isinstance(snapshot, dict) else None
    problems = []
    if snapshot is not None and (not isinstance(at, int) or not 0 < at <= len(rows)):
        problems.append(f"the cached snapshot names version {at!r}, the log has {len(rows)} events")
        snapshot = None
    try:
        head = store.to_engine(rows[:at] if snapshot is not None else ())
        state = store.fold(None, head)
        if snapshot is not None and (state is None or snapshot != json.loads(json.dumps(state.to_dict()))):
            problems.append(f"the cached snapshot at version {at} differs from the replay")
        rest = store.to_engine(rows[at:] if snapshot is not None else rows)
        state = store.fold(state, rest)
    except (EngineError, ValueError, TypeError, KeyError, IndexError) as exc:
        return [*problems, f"the log no longer replays: {exc}"]
    try:
        check_log_bots([*head, *rest])  # the events just replayed, not decoded again
    except EngineError as exc:
        problems.append(f"the log seats a bot this server cannot run: {exc.message}")
    if state is None or state.version != game.version:
        found = state.version if state else 0
        problems.append(f"the log replays to version {found}, the game says {game.version}")
    elif game.status != state.status:
        problems.append(f"status {game.status!r} differs from the replay's {state.status!r}")
    cached = store.state_cache.get(game)
    if state is not None and cached is not None and cached.version == state.version and cached != state:
        problems.append("the in-process cached state differs from the replay")
    return problems


class Command(BaseCommand):
    help = "Replay every game's event log; exit non-zero if any fails to replay or its snapshot differs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_ids", nargs="*", type=int, help="Only these games")

    def handle(self, *args: Any, **options: Any) -> None:
        games = Game.objects.order_by("id")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        checked = failed = 0
        for game in games.iterator():
            checked += 1
            for problem in verify_game(game):
                failed += 1
                self.stdout.write(f"game {game.pk}: {problem}")
        if failed:
            raise CommandError(f"{failed} problem(s) in {checked} game(s)")
        self.stdout.write(self.style.SUCCESS(f"{checked} game(s) replay and match their snapshots"))
