"""Load demo data: a club, its players and staff, and an admin login (printed)."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games.models import Game
from league.demo_games import seed_demo_games
from league.demo_tournaments import seed_demo_tournaments
from league.models import Club, Membership, Player, Tournament

DEMO_CLUB = ("Riverside Knock Rummy Club", "riverside")
DEMO_PLAYERS = ("Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiro")
DEMO_STAFF = (("director", Membership.Role.DIRECTOR), ("scorekeeper", Membership.Role.SCOREKEEPER))


class Command(BaseCommand):
    help = "Create (or refresh) the demo club, players and logins; prints the admin password."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--password", help="password for the demo logins (default: a new random one)")

    def handle(self, *args: Any, **options: Any) -> None:
        password = options["password"] or secrets.token_urlsafe(9)
        # People first, in one transaction; the games after it, each in its own, so
        # that their side effects (bot turns) are dispatched as each commits.
        with transaction.atomic():
            club, admin, scorekeeper, players = self._people(password)
        # The tournaments' games first: the single demo games are then the newest.
        director = get_user_model().objects.get(username="director")
        tournaments = seed_demo_tournaments(club=club, director=director, scorekeeper=scorekeeper)
        games = seed_demo_games(club=club, owner=admin, scorekeeper=scorekeeper, players=players)
        self._report(club, games, password)
        self._report_tournaments(tournaments)

    def _people(self, password: str) -> tuple[Club, Any, Any, dict[str, Any]]:
        user_model = get_user_model()
        club, _ = Club.objects.get_or_create(slug=DEMO_CLUB[1], defaults={"name": DEMO_CLUB[0]})

        admin, _ = user_model.objects.get_or_create(username="admin", defaults={"email": "admin@example.org"})
        admin.is_staff = admin.is_superuser = True
        admin.set_password(password)
        admin.save()
        Membership.objects.get_or_create(club=club, user=admin, role=Membership.Role.DIRECTOR)

        for username, role in DEMO_STAFF:
            user, _ = user_model.objects.get_or_create(username=username)
            user.set_password(password)
            user.save()
            Membership.objects.get_or_create(club=club, user=user, role=role)

        players = {}
        for name in DEMO_PLAYERS:
            user, _ = user_model.objects.get_or_create(username=name.lower())
            user.set_password(password)
            user.save()
            players[name] = user
            Player.objects.update_or_create(club=club, name=name, defaults={"user": user})
            Membership.objects.get_or_create(club=club, user=user, role=Membership.Role.PLAYER)

        return club, admin, user_model.objects.get(username="scorekeeper"), players

    def _report_tournaments(self, tournaments: list[Tournament]) -> None:
        for tournament in tournaments:
            rounds = ", ".join(f"{r.number} {r.status}" for r in tournament.round_set.order_by("number"))
            self.stdout.write(
                f"Tournament {tournament.pk}: {tournament.name} ({tournament.preset}, {tournament.seating}, "
                f"{tournament.registrations.count()} players), {tournament.status}; rounds: {rounds} "
                f"— http://127.0.0.1:8000/api/v1/tournaments/{tournament.pk}"
            )

    def _report(self, club: Club, games: list[Game], password: str) -> None:
        self.stdout.write(self.style.SUCCESS(f"Demo club: {club.name} ({club.players.count()} players)"))
        for game in games:
            names = ", ".join(seat["name"] for seat in game.seats)
            self.stdout.write(
                f"Game {game.pk}: {game.mode}, {game.status}, {game.version} events ({names}) "
                f"— http://127.0.0.1:8000/api/v1/games/{game.pk}"
            )
        self.stdout.write(f"Admin login:  admin / {password}   (http://127.0.0.1:8000/admin/)")
        self.stdout.write(
            f"Other logins: director, scorekeeper, {', '.join(n.lower() for n in DEMO_PLAYERS)} / {password}"
        )
