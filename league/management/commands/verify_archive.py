"""Check a tournament archive from its contents alone: every round's seating recomputed
from its stored input, every game's log replayed, the final standings recomputed."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.archive import verify
from league.management.commands._archive_file import read_archive


class Command(BaseCommand):
    help = (
        "Recompute a tournament archive's seatings and standings from the archive alone; "
        "report every difference (exit status 1 if any)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the archive (JSON), or - for standard input")

    def handle(self, *args: Any, **options: Any) -> None:
        archive = read_archive(options["file"])
        differences = verify(archive)
        for difference in differences:
            self.stdout.write(f"DIFFERENCE {difference}")
        if differences:
            raise CommandError(f"{len(differences)} difference(s): the archive does not verify")
        rounds = len(archive["rounds"])
        games = len(archive["games"])
        self.stdout.write(
            f"OK: {rounds} round(s) seated again identically, {games} game log(s) replayed, "
            "standings identical"
        )
