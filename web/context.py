"""Template context every page gets."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from web.roles import roles_of


def site(request: HttpRequest) -> dict[str, Any]:
    """The signed-in user's club roles, for the navigation (one query, only when signed in)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"club_roles": []}
    return {"club_roles": roles_of(user)}
