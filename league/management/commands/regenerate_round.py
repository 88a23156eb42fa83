"""Compute a round's seating again from what the round stored, and compare."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from league.models import Round, Tournament
from league.services import LeagueError, regenerate


class Command(BaseCommand):
    help = (
        "Recompute round ROUND of TOURNAMENT (id or slug) from its stored inputs with its seating "
        "method, and compare with the seating generated then and with its input digest. "
        "With --check, exit non-zero if anything differs."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament", help="tournament id, or slug (unique within its club)")
        parser.add_argument("round", type=int, help="round number")
        parser.add_argument("--check", action="store_true", help="exit with status 1 on any difference")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = _tournament(options["tournament"])
        round_ = Round.objects.filter(tournament=tournament, number=options["round"]).first()
        if round_ is None:
            raise CommandError(f"{tournament.name} has no round {options['round']}")
        try:
            result = regenerate(round_)
        except LeagueError as exc:
            raise CommandError(f"the seating cannot be computed again: {exc.message}") from None
        name = f"{tournament.name}, round {round_.number} ({round_.method}, seed {round_.seed!r})"
        if result.same:
            tables = "; ".join(
                f"table {n}: {', '.join(map(str, t.seats))}" for n, t in enumerate(result.seating.tables, 1)
            )
            self.stdout.write(self.style.SUCCESS(f"{name}: the same seating, digest {round_.input_digest}"))
            self.stdout.write(tables or "no tables")
            return
        self.stdout.write(self.style.ERROR(f"{name}: the seating differs"))
        for difference in result.differences:
            self.stdout.write(f"  {difference}")
        if options["check"]:
            raise CommandError("regenerated seating differs from the stored one", returncode=1)


def _tournament(value: str) -> Tournament:
    if value.isdigit():
        found = Tournament.objects.filter(pk=int(value)).first()
    else:
        matches = list(Tournament.objects.filter(slug=value)[:2])
        if len(matches) > 1:
            raise CommandError(f"several clubs have a tournament {value!r}: give its id")
        found = matches[0] if matches else None
    if found is None:
        raise CommandError(f"there is no tournament {value!r}")
    return found
