"""Template context every page gets."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from league.access import club_roles_of


def site(request: HttpRequest) -> dict[str, Any]:
    """The signed-in user's club roles, for the navigation (one query, only when signed in)."""
    return {"club_roles": club_roles_of(getattr(request, "user", None))}
