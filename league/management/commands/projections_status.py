"""``manage.py projections_status``: which standings and ratings projections are behind
their games' logs, and which failed to refresh and with what error code (the message and
traceback are in the worker's log, with the tournament or club named). Exits with status
1 when a projection is failing, so a monitor can run it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league import projection, ratings
from league.models import Club, RatingProjection, StandingsState, Tournament


def _failure(code: str, at: Any) -> str:
    return f"failing since {at.isoformat(timespec='seconds') if at else '?'} ({code})" if code else ""


class Command(BaseCommand):
    help = "List the standings and ratings projections that are behind or failing."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true", help="list the current ones too")

    def handle(self, *args: Any, **options: Any) -> None:
        listed = failing = 0
        failures = {
            pk: (code, at)
            for pk, code, at in StandingsState.objects.values_list("tournament_id", "error_code", "failed_at")
        }
        with_games = Tournament.objects.filter(round_set__tables__game__isnull=False).distinct()
        for tournament_id, name in with_games.order_by("pk").values_list("pk", "name"):
            code, at = failures.get(tournament_id, ("", None))
            late = projection.stale(tournament_id)
            failing += bool(code)
            if late or code or options["all"]:
                listed += 1
                words = ", ".join(w for w in ("behind" if late else "current", _failure(code, at)) if w)
                self.stdout.write(f"standings of tournament {tournament_id} ({name}): {words}")
        rated = {
            (club, family): (code, at)
            for club, family, code, at in RatingProjection.objects.values_list(
                "club_id", "family", "error_code", "failed_at"
            )
        }
        for club_id, slug in Club.objects.order_by("pk").values_list("pk", "slug"):
            for family in ratings.FAMILIES:
                code, at = rated.get((club_id, family), ("", None))
                late = ratings.behind(club_id, family)
                failing += bool(code)
                if late or code or options["all"]:
                    listed += 1
                    words = ", ".join(w for w in ("behind" if late else "current", _failure(code, at)) if w)
                    self.stdout.write(f"{family} ratings of club {club_id} ({slug}): {words}")
        if not listed:
            self.stdout.write("every projection is current")
        if failing:
            raise CommandError(f"{failing} projection(s) failing: see the worker's log for the errors")
