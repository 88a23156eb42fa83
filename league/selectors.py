"""Read-side queries of the league app."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet

from core.messages import Message
from games.services import FINAL_STATUSES
from league.access import sees_drafts
from league.models import Club, CurrentRating, Player, RatingEntry, Table, TableSeat, Tournament
from league.seating.notes import note_of


def clubs_with_player_counts() -> QuerySet[Club]:
    return Club.objects.annotate(player_count=Count("players")).order_by("name")


def visible_tournaments(user: Any, club: Club) -> QuerySet[Tournament]:
    """The club's tournaments that ``user`` may see (drafts to its staff only)."""
    tournaments = club.tournaments.all()
    return tournaments if sees_drafts(user, club.pk) else tournaments.exclude(status=Tournament.Status.DRAFT)


# The club's tournaments as counted for everyone (a draft is not public).
PUBLIC_TOURNAMENTS = ~Q(tournaments__status=Tournament.Status.DRAFT)


def table_with_round(table_id: int) -> Table | None:
    """A round's table with its round, tournament and club (for the recorder's page)."""
    return Table.objects.select_related("round__tournament__club").filter(pk=table_id).first()


def table_of_game(game_id: int) -> Table | None:
    """The tournament table a game is played at, if any."""
    return Table.objects.filter(game_id=game_id).first()


@dataclass(frozen=True, slots=True)
class RoundSeat:
    """One seat of a round's table: a club player (``player_id``, ``name``, ``user_id``
    when they have a login) or a bot seat (``bot``, the others empty)."""

    position: int
    player_id: int | None
    name: str
    user_id: int | None
    bot: str


@dataclass(frozen=True, slots=True)
class RoundTable:
    """A round's table as every reader needs it: its seats in order and its game's id,
    status and version (None before the round is published)."""

    pk: int
    round_id: int
    number: int
    notes: tuple[Message, ...]
    game_id: int | None
    game_status: str | None
    game_version: int | None
    seats: tuple[RoundSeat, ...]

    @property
    def player_ids(self) -> tuple[int, ...]:
        """The players seated, in seat order (bot seats left out)."""
        return tuple(seat.player_id for seat in self.seats if seat.player_id is not None)


def round_tables(round_ids: Iterable[int]) -> dict[int, list[RoundTable]]:
    """The tables of each round in ``round_ids`` (a round's, or a tournament's rounds'),
    by round id, in table order, with their seats, players and games: two queries
    whatever the number of rounds, tables and seats (none for no round). The one reader
    of rounds' tables: the public pages, the desk, the API and the services use it."""
    ids = list(round_ids)
    found: dict[int, list[RoundTable]] = {pk: [] for pk in ids}
    if not ids:
        return found
    seats: dict[int, list[RoundSeat]] = {}
    for row in (
        TableSeat.objects.filter(table__round_id__in=ids)
        .order_by("table_id", "position")
        .values_list("table_id", "position", "player_id", "player__name", "player__user_id", "bot")
    ):
        table_id, position, player_id, name, user_id, bot = row
        seats.setdefault(table_id, []).append(RoundSeat(position, player_id, name or "", user_id, bot))
    for pk, round_id, number, notes, game_id, status, version in (
        Table.objects.filter(round_id__in=ids)
        .order_by("round_id", "number")
        .values_list("pk", "round_id", "number", "notes", "game_id", "game__status", "game__version")
    ):
        found[round_id].append(
            RoundTable(
                pk,
                round_id,
                number,
                tuple(map(note_of, notes)),
                game_id,
                status,
                version,
                tuple(seats.get(pk, ())),
            )
        )
    return found


def ordinals(club_id: int, family: str, player_ids: Iterable[int]) -> dict[int, float]:
    """Each player's current rating ordinal (mu - 3 sigma) in the club's game ``family``
    (``"knock"`` or ``"gin"``, see :func:`league.ratings.family_of`); players not rated
    yet are left out. One query (of :class:`~league.models.CurrentRating`, kept by the
    ratings projection)."""
    rows = CurrentRating.objects.filter(club_id=club_id, family=family, player_id__in=list(player_ids))
    return dict(rows.values_list("player_id", "ordinal"))


def player_ratings(player: Player) -> list[dict[str, Any]]:
    """A player's ratings per game family: the current mu, sigma and ordinal (None before
    the first rated game), the number of rated games, and the history after each game."""
    entries = RatingEntry.objects.filter(player=player).order_by("position", "id")
    history: dict[str, list[dict[str, Any]]] = {family: [] for family in RatingEntry.Family.values}
    for entry in entries.values("family", "game_id", "position", "place", "mu", "sigma", "ordinal"):
        history.setdefault(entry["family"], []).append(
            {
                "game": entry["game_id"],
                "position": entry["position"],
                "place": entry["place"],
                "mu": entry["mu"],
                "sigma": entry["sigma"],
                "ordinal": entry["ordinal"],
            }
        )
    families = []
    for family, rows in history.items():
        last = rows[-1] if rows else None
        current = {key: last[key] for key in ("mu", "sigma", "ordinal")} if last else None
        families.append({"family": family, "current": current, "games": len(rows), "history": rows})
    return families


def games_over(tables: QuerySet[Table]) -> bool:
    """Whether every one of ``tables`` has a game and it has finished or been abandoned:
    one query (a round is complete once its tables' games are; the standings refresh
    asks it of the rounds whose games it read end)."""
    return not tables.exclude(game__status__in=FINAL_STATUSES).exists()
