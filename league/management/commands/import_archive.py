"""Load a tournament archive into this instance under new ids."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.archive import ArchiveError
from league.archive_import import import_archive
from league.management.commands._archive_file import read_archive


class Command(BaseCommand):
    help = (
        "Load a tournament archive as a new tournament once it checks out as a whole (as "
        "verify_archive checks it): the club by slug (created if missing), players by name, "
        "games through the games import, then rounds, tables and seats."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (JSON), or - for standard input")
        parser.add_argument("--owner", help="username owning the imported games (default: none)")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = None
        if options["owner"]:
            owner = get_user_model().objects.filter(username=options["owner"]).first()
            if owner is None:
                raise CommandError(f"there is no user {options['owner']!r}")
        try:
            tournament = import_archive(read_archive(options["file"]), owner=owner)
        except ArchiveError as exc:
            for problem in exc.problems:
                self.stderr.write(f"PROBLEM {problem}")
            raise CommandError(f"{exc.message} ({exc.code}); nothing was imported") from None
        self.stdout.write(
            f"imported tournament {tournament.pk} ({tournament.club.slug}/{tournament.slug}): "
            f"{tournament.round_set.count()} round(s), "
            f"{sum(r.tables.exclude(game=None).count() for r in tournament.round_set.all())} game(s)"
        )
