"""Read-side queries of the league app."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from league.access import sees_drafts
from league.models import Club, Player, RatingEntry, Table, Tournament


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


def ordinals(club_id: int, family: str, player_ids: Iterable[int]) -> dict[int, float]:
    """Each player's current rating ordinal (mu - 3 sigma) in the club's game ``family``
    (``"knock"`` or ``"gin"``, see :func:`league.ratings.family_of`); players not rated
    yet are left out. One query."""
    latest = RatingEntry.objects.filter(club_id=club_id, family=family, player_id=OuterRef("pk")).order_by(
        "-position"
    )
    rows = (
        Player.objects.filter(pk__in=list(player_ids))
        .annotate(ordinal=Subquery(latest.values("ordinal")[:1]))
        .values_list("pk", "ordinal")
    )
    return {pk: ordinal for pk, ordinal in rows if ordinal is not None}


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
