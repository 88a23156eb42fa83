"""Rebuild the ratings from zero, of one club (by slug or id) or of every club."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import ratings
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
        counts = ratings.rebuild(club)
        elapsed = time.perf_counter() - started
        for (slug, family), games in counts.items():
            self.stdout.write(f"{slug} {family}: {games} game{'s' if games != 1 else ''} rated")
        self.stdout.write(f"rebuilt in {elapsed:.3f} s")
