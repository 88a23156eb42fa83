"""Rebuild the ratings from zero, of one club (by slug or id) or of every club, with a
line of progress per batch of games rated (rewritten in place on a terminal)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import ratings
from league.management.commands._progress import ProgressLine
from league.models import Club


class Command(BaseCommand):
    help = "Rebuild the openskill ratings from the games' event logs, from zero."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("club", nargs="?", help="the club's slug or id (default: every club)")

    def handle(self, *args: Any, **options: Any) -> None:
        club = None
        if options["club"]:
            wanted = options["club"]
            found = Club.objects.filter(slug=wanted).first()
            if found is None and wanted.isdigit():
                found = Club.objects.filter(pk=int(wanted)).first()
            if found is None:
                raise CommandError(f"there is no club {wanted!r}")
            club = found
        started = time.perf_counter()
        line = ProgressLine(self.stdout)

        def progress(slug: str, family: str, games: int) -> None:
            line.report(f"{slug} {family}: {games} games rated, {time.perf_counter() - started:.1f} s")

        counts = ratings.rebuild(club, progress=progress)
        line.done()
        elapsed = time.perf_counter() - started
        for (slug, family), games in counts.items():
            self.stdout.write(f"{slug} {family}: {games} game{'s' if games != 1 else ''} rated")
        self.stdout.write(f"rebuilt in {elapsed:.3f} s")
