"""Check a tournament archive from its contents alone: every game's log audited (every
move decided again, every hand scored again), every round's seating input and seating
computed again, every table matched with its game, the standings computed again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.archive_check import verify
from league.management.commands._archive_file import read_archive


class Command(BaseCommand):
    help = (
        "Check a tournament archive as a whole from the archive alone; print every problem "
        "(exit status 1 if any)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (JSON), or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        archive = read_archive(options["file"])
        problems = verify(archive)
        for problem in problems:
            self.stdout.write(f"PROBLEM {problem}")
        if problems:
            raise CommandError(f"{len(problems)} problem(s): the archive does not verify")
        self.stdout.write(
            f"OK: {len(archive['rounds'])} round(s) seated again identically, "
            f"{len(archive['games'])} game log(s) audited move by move, standings identical"
        )
