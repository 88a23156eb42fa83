"""``manage.py purge_form_posts [--days N]``: forget the form keys (``web.FormPost``)
recorded more than N days ago (default 7); beat does the same daily."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from web import once

MAX_DAYS = 36500


class Command(BaseCommand):
    help = "Delete the used form keys older than N days (default 7)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=once.KEEP_FORM_POSTS.days,
            help=f"keep the keys of the last N days (default {once.KEEP_FORM_POSTS.days}; 0 deletes all)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"]
        if not 0 <= days <= MAX_DAYS:
            raise CommandError(f"--days must be a whole number from 0 to {MAX_DAYS}, not {days}")
        deleted = once.purge(timedelta(days=days))
        self.stdout.write(f"deleted {deleted} form key(s) older than {days} day(s)")
