"""Load demo data: a club, its players and staff, games and tournaments; prints the
pages to open first and the logins with their roles."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games.models import Game
from league import services
from league.codes import grouped
from league.demo_games import seed_demo_games
from league.demo_people import INVITED, seed_demo_people
from league.demo_tournaments import seed_demo_tournaments
from league.models import Club, Membership, Player, Round, Table, Tournament
from league.seating import swiss as swiss_method

DEMO_CLUB = ("Riverside Knock Rummy Club", "riverside")
DEMO_PLAYERS = ("Alice", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiro")
DEMO_STAFF = (("director", Membership.Role.DIRECTOR), ("scorekeeper", Membership.Role.SCOREKEEPER))


class Command(BaseCommand):
    help = "Create (or refresh) the demo club, players and logins; prints the admin password."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--password", help="password for the demo logins (default: a new random one)")
        parser.add_argument(
            "--base-url",
            default="http://127.0.0.1:8000",
            help="where the site is served, for the printed links (default http://127.0.0.1:8000)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        password = options["password"] or secrets.token_urlsafe(9)
        # Embedded, the outbox's tasks run in this process: their one line each is noise
        # in front of the summary a new user reads.
        logging.getLogger("celery.app.trace").setLevel(logging.WARNING)
        logging.getLogger("kombu.connection").setLevel(logging.ERROR)  # the in-memory broker has no host
        # People first, in one transaction; the games after it, each in its own, so
        # that their side effects (bot turns) are dispatched as each commits.
        with transaction.atomic():
            club, admin, scorekeeper, players = self._people(password)
        # The tournaments' games first: the single demo games are then the newest.
        director = get_user_model().objects.get(username="director")
        tournaments = seed_demo_tournaments(club=club, director=director, scorekeeper=scorekeeper)
        games = seed_demo_games(club=club, owner=admin, scorekeeper=scorekeeper, players=players)
        swiss = next(t for t in tournaments if t.seating == swiss_method.METHOD)
        code = seed_demo_people(club=club, director=director, scorekeeper=scorekeeper, swiss=swiss)
        base = options["base_url"].rstrip("/")
        self._report(club, tournaments, games, password, base)
        self._own_pages(club, code, base)

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
            player, _ = services.club_player(club, name)
            if player.user_id != user.pk:
                player.user = user
                player.save(update_fields=["user"])
            Membership.objects.get_or_create(club=club, user=user, role=Membership.Role.PLAYER)

        return club, admin, user_model.objects.get(username="scorekeeper"), players

    def _own_pages(self, club: Club, code: str | None, base: str) -> None:
        """Where each person finds what is theirs, and the open invitation's link."""
        line = self.stdout.write
        line("Everyone's own pages (from the header once signed in):")
        line(f"  the club's people, logins, roles:  {base}/clubs/{club.slug}/people/  (director)")
        line(f"  My tables (one assigned):          {base}/mine/tables  (scorekeeper)")
        line(f"  Alice's seat in the Swiss:         {base}/mine/games  (alice) — also on her home page")
        if code is not None:
            label = f"{INVITED}'s invitation to a login:"
            line(f"  {label:<34} {base}/join/{code}  (or type {grouped(code)} at /join/)")

    def _report(
        self, club: Club, tournaments: list[Tournament], games: list[Game], password: str, base: str
    ) -> None:
        """The pages a new user should open first, then the logins and what each may do."""
        line = self.stdout.write
        line(self.style.SUCCESS(f"Demo club: {club.name} ({club.players.count()} players)"))
        line(f"Open {base}/ (the home page), then:")
        for tournament in tournaments:
            rounds = ", ".join(f"{r.number} {r.status}" for r in tournament.round_set.order_by("number"))
            line(f"  {tournament.name} ({tournament.preset}, {tournament.seating}; rounds: {rounds})")
            line(f"    standings, tables, corrections:  {base}/tournaments/{tournament.pk}/")
            line(f"    the director's desk:             {base}/tournaments/{tournament.pk}/desk  (director)")
            if tournament.status == Tournament.Status.FINISHED:
                line("    closed: its final standings stay, and the club page lists its winner")
            else:
                line(f"    the projector view:              {base}/tournaments/{tournament.pk}/projector")
                pairings = f"{base}/tournaments/{tournament.pk}/print/pairings"
                line(f"    print the pairings:              {pairings}")
            live = live_table(tournament)
            if live is not None:
                line(
                    f"    record a live table:             {base}/tables/{live.pk}/record  "
                    f"(scorekeeper; round {live.round.number}, table {live.number})"
                )
        for game in games:
            names = ", ".join(seat["name"] for seat in game.seats)
            line(f"  Game {game.pk} ({game.mode}, {game.status}: {names}):  {base}/games/{game.pk}/")
            if game.mode == "digital" and game.status == "playing":
                line(f"    play Alice's turn:               {base}/games/{game.pk}/play  (alice)")
        line(f"  The club's results and search:    {base}/clubs/{club.slug}/")
        alice = Player.objects.filter(club=club, name="Alice").first()
        if alice is not None:
            line(f"  A player's results and rating:    {base}/players/{alice.pk}/")
        line("  In French: the Language switch at the foot of any page, or a browser set to French")
        line(f"Logins (password for all: {password}):")
        line(f"  admin / {password}  — site administrator and club director ({base}/admin/)")
        line("  director     — club director: tournaments, the desk, rounds, corrections")
        line("  scorekeeper  — records the physical tables' hands")
        line(f"  {', '.join(n.lower() for n in DEMO_PLAYERS)}  — players (their own games and seats)")


def live_table(tournament: Tournament) -> Table | None:
    """A physical table of a published round still being played (for the record page)."""
    return (
        Table.objects.filter(
            round__tournament=tournament,
            round__status=Round.Status.PUBLISHED,
            game__isnull=False,
            game__mode="physical",
        )
        .exclude(game__status__in=("finished", "abandoned"))
        .select_related("round")
        .order_by("round__number", "number")
        .first()
    )
