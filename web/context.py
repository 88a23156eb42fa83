"""Template context every page gets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest

from league import people
from league.access import ClubRole, club_roles_of
from league.models import Tournament

# Desks linked from a director's header; with more open tournaments the club page lists them.
HEADER_DESKS = 3


@dataclass(frozen=True)
class Mine:
    """What the header shows a signed-in person as theirs: their clubs, a director's
    desks, a scorekeeper's "My tables", a player's "My games" and player page."""

    club_roles: list[ClubRole] = field(default_factory=list)
    desks: list[tuple[int, str]] = field(default_factory=list)
    player_id: int | None = None

    @property
    def keeps_scores(self) -> bool:
        return any(people.Role.SCOREKEEPER in role.roles for role in self.club_roles)

    @property
    def plays(self) -> bool:
        return self.player_id is not None or any(people.Role.PLAYER in r.roles for r in self.club_roles)


def _desks(club_roles: list[ClubRole]) -> list[tuple[int, str]]:
    directed = [role.club_id for role in club_roles if role.is_director]
    if not directed:
        return []
    rows = (
        Tournament.objects.filter(club_id__in=directed)
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("-created_at", "-id")
        .values_list("pk", "name")
    )
    return list(rows[:HEADER_DESKS])


def site(request: HttpRequest) -> dict[str, Any]:
    """The signed-in user's clubs and pages, for the navigation (at most three queries,
    only when signed in)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"club_roles": [], "mine": Mine()}
    club_roles = club_roles_of(user)
    player = people.player_of(user)
    mine = Mine(club_roles, _desks(club_roles), player.pk if player is not None else None)
    return {"club_roles": club_roles, "mine": mine}
