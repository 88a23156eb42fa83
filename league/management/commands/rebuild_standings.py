"""``manage.py rebuild_standings [TOURNAMENT]``: the standings projection rebuilt from
zero from the games' event logs — one tournament, or every one with games."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import projection
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
        for tournament_id in ids:
            done = projection.rebuild(tournament_id)
            self.stdout.write(
                f"tournament {tournament_id}: {done.games_read} game(s) read, "
                f"{done.versions} result version(s), current to position {done.position}"
            )
