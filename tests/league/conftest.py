"""Fixtures of the league API tests: a club with its staff. Plain helpers are in
tests/support/league.py; the fresh state cache is tests/fixtures/state_cache.py."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from league.models import Club, Membership


@pytest.fixture
def staff(make_user: Callable[..., Any]) -> dict[str, Any]:
    """A club and one user in each role: director, scorekeeper, player, outsider (a
    user of no role in the club), and a director of another club."""
    club = Club.objects.create(name="Kings", slug="kings")
    other = Club.objects.create(name="Queens", slug="queens")
    users = {name: make_user(name) for name in ("director", "scorekeeper", "player", "outsider", "foreign")}
    Membership.objects.create(club=club, user=users["director"], role=Membership.Role.DIRECTOR)
    Membership.objects.create(club=club, user=users["scorekeeper"], role=Membership.Role.SCOREKEEPER)
    Membership.objects.create(club=club, user=users["player"], role=Membership.Role.PLAYER)
    Membership.objects.create(club=other, user=users["foreign"], role=Membership.Role.DIRECTOR)
    return {"club": club, "other": other, **users}
