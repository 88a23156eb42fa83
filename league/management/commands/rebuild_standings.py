"""``manage.py rebuild_standings [TOURNAMENT]``: the standings projection rebuilt from
zero from the games' event logs — one tournament, or every one with games — with a line
of progress per batch of games read (rewritten in place on a terminal)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import projection
from league.management.commands._progress import ProgressLine
from league.models import Tournament


class Command(BaseCommand):
    help = "Rebuild the standings of a tournament (or of all) from zero from the event logs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "tournament", nargs="?", type=int, help="tournament id (default: every tournament)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        ids: list[int]
        if options["tournament"] is not None:
            if not Tournament.objects.filter(pk=options["tournament"]).exists():
                raise CommandError(f"there is no tournament {options['tournament']}")
            ids = [options["tournament"]]
        else:
            ids = list(Tournament.objects.order_by("pk").values_list("pk", flat=True))
        line = ProgressLine(self.stdout)
        for tournament_id in ids:

            def progress(games: int, tournament_id: int = tournament_id) -> None:
                line.report(f"tournament {tournament_id}: {games} game(s) read")

            done = projection.rebuild(tournament_id, progress=progress)
            line.done()
            self.stdout.write(
                f"tournament {tournament_id}: {done.games_read} game(s) read, "
                f"{done.versions} result version(s), current to position {done.position}"
            )
