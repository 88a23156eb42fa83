"""Read-side queries of the league app."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet

from league.models import Club, ClubGame, Membership, Table

# Club roles that may open and record the club's games.
RECORDER_ROLES = (Membership.Role.SCOREKEEPER, Membership.Role.DIRECTOR)


def clubs_with_player_counts() -> QuerySet[Club]:
    return Club.objects.annotate(player_count=Count("players")).order_by("name")


def is_club_recorder(user_id: int, club_id: int) -> bool:
    """Whether the user is a director or scorekeeper of the club."""
    return Membership.objects.filter(club_id=club_id, user_id=user_id, role__in=RECORDER_ROLES).exists()


def records_club_game(user_id: int, game: Any) -> bool:
    """The recorder check the league registers with games.access: the directors and
    scorekeepers of the club a game is played under may record it."""
    return Membership.objects.filter(
        user_id=user_id, role__in=RECORDER_ROLES, club__club_games__game_id=game.pk
    ).exists()


def club_of_game(game_id: int) -> Club | None:
    link = ClubGame.objects.select_related("club").filter(game_id=game_id).first()
    return link.club if link else None


def table_with_round(table_id: int) -> Table | None:
    """A round's table with its round, tournament and club (for the recorder's page)."""
    return Table.objects.select_related("round__tournament__club").filter(pk=table_id).first()


def table_of_game(game_id: int) -> Table | None:
    """The tournament table a game is played at, if any."""
    return Table.objects.filter(game_id=game_id).first()
