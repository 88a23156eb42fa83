"""Mark complete every published round whose games have all ended (what the outbox task
does as each game ends; safe to run at any time, any number of times)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from league.services import check_open_rounds


class Command(BaseCommand):
    help = "Mark complete every published round whose games have all finished or been abandoned."

    def handle(self, *args: Any, **options: Any) -> None:
        done = check_open_rounds()
        self.stdout.write(f"{done} published round{'s' if done != 1 else ''} complete")
