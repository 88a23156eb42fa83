"""Who may do what on the web pages: roles come from club memberships."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied

from league.models import Membership


@dataclass(frozen=True)
class ClubRole:
    club_id: int
    club_name: str
    club_slug: str
    roles: frozenset[str]

    @property
    def is_director(self) -> bool:
        return Membership.Role.DIRECTOR in self.roles

    @property
    def is_recorder(self) -> bool:
        return bool(self.roles & {Membership.Role.DIRECTOR, Membership.Role.SCOREKEEPER})


def roles_of(user: Any) -> list[ClubRole]:
    """The clubs the user belongs to, with their roles there, by club name."""
    clubs: dict[int, tuple[str, str, set[str]]] = {}
    rows = Membership.objects.filter(user_id=user.pk).values_list(
        "club_id", "club__name", "club__slug", "role"
    )
    for club_id, name, slug, role in rows:
        clubs.setdefault(club_id, (name, slug, set()))[2].add(role)
    return sorted(
        (ClubRole(cid, name, slug, frozenset(roles)) for cid, (name, slug, roles) in clubs.items()),
        key=lambda r: r.club_name,
    )


def has_role(user: Any, club_id: int, *roles: str) -> bool:
    if not user.is_authenticated:
        return False
    return Membership.objects.filter(user_id=user.pk, club_id=club_id, role__in=roles).exists()


def require_director(user: Any, club_id: int) -> None:
    """A 403 page (not a stack trace) for anyone who is not a director of the club."""
    if not has_role(user, club_id, Membership.Role.DIRECTOR):
        raise PermissionDenied("Only the club's directors may open this page.")


def require_recorder(user: Any, club_id: int) -> None:
    if not has_role(user, club_id, Membership.Role.DIRECTOR, Membership.Role.SCOREKEEPER):
        raise PermissionDenied("Only the club's directors and scorekeepers may record its games.")
