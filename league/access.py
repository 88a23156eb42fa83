"""Who may do what in the league — the one reader of club memberships.

A user's roles in a club (director, scorekeeper, player) are its ``Membership`` rows;
nothing else reads them. The API, the pages and :mod:`games.access` (through
:func:`records_club_game`, which the league registers as a recorder check) ask here:

- a club's *directors* manage its players, tournaments and rounds, and correct games;
- its *directors and scorekeepers* (its recorders) record its games and see its drafts
  (tournaments in draft, draft rounds) — to anyone else a draft does not exist.

``access_<thing>_by_<key>(user, …)`` fetches a thing the user may see, or refuses;
``require_<role>(user, club_id)`` refuses unless the user has the role. A refusal is a
:class:`core.DomainError`: ``not_found``, ``not_authenticated`` (kind unauthenticated) or
``permission_denied`` (kind forbidden, ``params["role"]`` naming the role it needs); the
API answers it with a status (``api.errors``), a page in words (``web.refusals``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core import DomainError, Kind
from league import limits
from league.models import Club, ClubGame, Membership, Player, Registration, Round, Tournament

DIRECTOR = Membership.Role.DIRECTOR
# Club roles that may open and record the club's games, and see its drafts.
RECORDER_ROLES = (Membership.Role.SCOREKEEPER, Membership.Role.DIRECTOR)
# A login's roles in the order pages list them.
MEMBER_ROLES = (Membership.Role.DIRECTOR, Membership.Role.SCOREKEEPER, Membership.Role.PLAYER)
# Round numbers above this are not looked up (the column could not hold them).
MAX_ROUND = 32767


@dataclass(frozen=True)
class ClubRole:
    club_id: int
    club_name: str
    club_slug: str
    roles: frozenset[str]

    @property
    def is_director(self) -> bool:
        return DIRECTOR in self.roles

    @property
    def is_recorder(self) -> bool:
        return bool(self.roles & set(RECORDER_ROLES))


def _signed_in(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def club_roles_of(user: Any) -> list[ClubRole]:
    """The clubs the user belongs to, with their roles there, by club name (one query)."""
    if not _signed_in(user):
        return []
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


def has_club_role(user: Any, club_id: int, roles: tuple[str, ...]) -> bool:
    if not _signed_in(user):
        return False
    return Membership.objects.filter(user_id=user.pk, club_id=club_id, role__in=roles).exists()


def is_director(user: Any, club_id: int) -> bool:
    return has_club_role(user, club_id, (DIRECTOR,))


def is_recorder(user: Any, club_id: int) -> bool:
    """Whether the user is a director or scorekeeper of the club."""
    return has_club_role(user, club_id, RECORDER_ROLES)


def sees_drafts(user: Any, club_id: int) -> bool:
    """Whether ``user`` may see the club's drafts — tournaments in draft and draft rounds
    with their seating: its directors and scorekeepers. To anyone else a draft does not
    exist (a 404, absent from every list, the club page and the archive)."""
    return is_recorder(user, club_id)


def records_club_game(user_id: int, game: Any) -> bool:
    """The recorder check the league registers with games.access: the directors and
    scorekeepers of the club a game is played under may record it."""
    return Membership.objects.filter(
        user_id=user_id, role__in=RECORDER_ROLES, club__club_games__game_id=game.pk
    ).exists()


# --- refusals -----------------------------------------------------------------------------


def directs_club_game(user_id: int, game: Any) -> bool | None:
    """The director check the league registers with games.access: whether the user directs
    a club the game is played under (None when no club holds the game)."""
    clubs = list(ClubGame.objects.filter(game_id=game.pk).values_list("club_id", flat=True))
    if not clubs:
        return None
    directors = Membership.objects.filter(role=Membership.Role.DIRECTOR, club_id__in=clubs)
    return directors.filter(user_id=user_id).exists()


def require_signed_in(user: Any) -> None:
    if not _signed_in(user):
        raise DomainError("not_authenticated", "sign in (session or token) first", kind=Kind.UNAUTHENTICATED)


def require_director(user: Any, club_id: int) -> None:
    """Refuse anyone but a director of the club (not signed in: ``not_authenticated``)."""
    require_signed_in(user)
    if not is_director(user, club_id):
        raise DomainError(
            "permission_denied",
            "only the club's directors manage its players and tournaments",
            kind=Kind.FORBIDDEN,
            params={"role": "director"},
        )


def require_recorder(user: Any, club_id: int) -> None:
    """Refuse anyone but a director or scorekeeper of the club."""
    require_signed_in(user)
    if not is_recorder(user, club_id):
        raise DomainError(
            "permission_denied",
            "only the club's directors and scorekeepers open its games",
            kind=Kind.FORBIDDEN,
            params={"role": "recorder"},
        )


def _not_found(message: str, **params: Any) -> DomainError:
    return DomainError("not_found", message, kind=Kind.NOT_FOUND, params=params)


# --- fetching what the user may see -------------------------------------------------------


def access_club_by_id(user: Any, club_id: int) -> Club:
    """Clubs are public: the club, or ``not_found``."""
    club = Club.objects.filter(pk=club_id).first() if club_id <= limits.MAX_ID else None
    if club is None:
        raise _not_found(f"there is no club {club_id}", club=club_id)
    return club


def access_tournament_by_id(user: Any, tournament_id: int) -> Tournament:
    """The tournament (its club joined), or ``not_found`` — also for a tournament in
    draft, to those who may not see the club's drafts."""
    tournament = (
        Tournament.objects.select_related("club").filter(pk=tournament_id).first()
        if tournament_id <= limits.MAX_ID
        else None
    )
    if tournament is None or (
        tournament.status == Tournament.Status.DRAFT and not sees_drafts(user, tournament.club_id)
    ):
        raise _not_found(f"there is no tournament {tournament_id}", tournament=tournament_id)
    return tournament


def access_round_by_number(user: Any, tournament: Tournament, number: int) -> Round:
    """Round ``number`` of ``tournament``, or ``not_found`` (a draft round too, to those
    who may not see the club's drafts)."""
    round_ = (
        Round.objects.filter(tournament=tournament, number=number).first() if number <= MAX_ROUND else None
    )
    if round_ is None or (round_.status == Round.Status.DRAFT and not sees_drafts(user, tournament.club_id)):
        raise _not_found(f"tournament {tournament.pk} has no round {number}", round=number)
    return round_


def access_club_player_by_id(user: Any, club_id: int, player_id: int) -> Player:
    """A player of the club, or ``not_found``."""
    player = (
        Player.objects.filter(pk=player_id, club_id=club_id).first() if player_id <= limits.MAX_ID else None
    )
    if player is None:
        raise _not_found(f"the club has no player {player_id}", player=player_id)
    return player


def access_player_by_id(user: Any, player_id: int) -> Player:
    """Any club's player (players are public), its club joined, or ``not_found``."""
    player = (
        Player.objects.select_related("club").filter(pk=player_id).first()
        if player_id <= limits.MAX_ID
        else None
    )
    if player is None:
        raise _not_found(f"there is no player {player_id}", player=player_id)
    return player


def access_registration_by_player(user: Any, tournament: Tournament, player_id: int) -> Registration:
    """The player's registration for ``tournament`` (player and tournament joined), or
    ``not_found``."""
    registration = (
        Registration.objects.select_related("player", "tournament")
        .filter(tournament=tournament, player_id=player_id)
        .first()
        if player_id <= limits.MAX_ID
        else None
    )
    if registration is None:
        raise _not_found(f"player {player_id} is not registered for this tournament", player=player_id)
    return registration


# --- the club's people (the people page, "My tables") ---------------------------------------


def roles_in(user: Any, club_id: int) -> frozenset[str]:
    """The user's roles in the club (none when signed out)."""
    if not _signed_in(user):
        return frozenset()
    return frozenset(
        Membership.objects.filter(user_id=user.pk, club_id=club_id).values_list("role", flat=True)
    )


def recorder_club_ids(user: Any) -> list[int]:
    """The clubs whose games the user records: those where they direct or keep scores."""
    if not _signed_in(user):
        return []
    rows = Membership.objects.filter(user_id=user.pk, role__in=RECORDER_ROLES)
    return sorted(set(rows.values_list("club_id", flat=True)))


@dataclass(frozen=True)
class Member:
    """A login of the club: its roles there (in :data:`MEMBER_ROLES` order) and its player record."""

    user_id: int
    username: str
    roles: tuple[str, ...]
    player_id: int | None
    player_name: str

    def has(self, role: str) -> bool:
        return role in self.roles


def members(club: Club) -> list[Member]:
    """Every login with a role in the club or a player record of it, by username (two
    queries)."""
    found: dict[int, tuple[str, set[str]]] = {}
    for user_id, username, role in Membership.objects.filter(club=club).values_list(
        "user_id", "user__username", "role"
    ):
        found.setdefault(user_id, (username, set()))[1].add(role)
    records: dict[int, tuple[int, str]] = {}
    for pk, name, user_id, username in Player.objects.filter(club=club, user__isnull=False).values_list(
        "pk", "name", "user_id", "user__username"
    ):
        records[user_id] = (pk, name)
        found.setdefault(user_id, (username, set()))
    return sorted(
        (
            Member(
                user_id=user_id,
                username=username,
                roles=tuple(role for role in MEMBER_ROLES if role in held),
                player_id=records[user_id][0] if user_id in records else None,
                player_name=records[user_id][1] if user_id in records else "",
            )
            for user_id, (username, held) in found.items()
        ),
        key=lambda m: m.username.casefold(),
    )


def recorders(club_id: int) -> list[tuple[int, str]]:
    """The club's directors and scorekeepers, ``(user id, username)`` by username."""
    rows = Membership.objects.filter(club_id=club_id, role__in=RECORDER_ROLES).values_list(
        "user_id", "user__username"
    )
    return sorted(set(rows), key=lambda row: row[1].casefold())
