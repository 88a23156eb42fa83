"""Write a tournament's archive (what GET /api/v1/tournaments/{id}/archive returns)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.archive import build_archive
from league.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament's archive as JSON (to a file, or standard output)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", type=int, help="the tournament's id")
        parser.add_argument("-o", "--output", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.select_related("club").filter(pk=options["tournament"]).first()
        if tournament is None:
            raise CommandError(f"there is no tournament {options['tournament']}")
        text = json.dumps(build_archive(tournament), indent=1, ensure_ascii=False)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            self.stdout.write(f"wrote {options['output']}")
        else:
            self.stdout.write(text)
