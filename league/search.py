"""Finding a club's players and tournaments by name, case- and accent-insensitively, on
every database: the text is folded by :func:`league.names.name_key` and compared with
the stored keys (``LIKE`` on an indexed column), never through a database collation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from league import limits
from league.models import Club, Player, Tournament
from league.names import name_key
from league.selectors import visible_tournaments

# The longest search text read (longer is cut): no name is longer.
MAX_QUERY_LENGTH = max(limits.PLAYER_NAME_LENGTH, limits.TOURNAMENT_NAME_LENGTH)
MAX_RESULTS = 50


@dataclass(frozen=True)
class Found:
    """What a search found: at most ``MAX_RESULTS`` of each, by name; ``more`` when some
    were left out."""

    key: str
    players: list[Player]
    tournaments: list[Tournament]
    more: bool = False


def search_club(club: Club, text: str, *, user: Any) -> Found:
    """The club's players and the tournaments ``user`` may see whose names contain
    ``text`` (every word of it, in order, as typed: "zoe lef" finds "Zoé Lefèvre")."""
    key = name_key(str(text)[:MAX_QUERY_LENGTH])
    # No stored name holds a NUL (PostgreSQL's text cannot): such a query finds nothing,
    # and is never sent to the database, which would refuse it.
    if not key or "\x00" in key:
        return Found(key, [], [])
    players = list(
        Player.objects.filter(club=club, name_key__contains=key).order_by("name_key", "pk")[: MAX_RESULTS + 1]
    )
    tournaments = list(
        visible_tournaments(user, club)
        .filter(name_key__contains=key)
        .order_by("-created_at", "-id")[: MAX_RESULTS + 1]
    )
    more = len(players) > MAX_RESULTS or len(tournaments) > MAX_RESULTS
    return Found(key, players[:MAX_RESULTS], tournaments[:MAX_RESULTS], more)
