"""The club's people: its players, their logins and the roles of each login, managed by
the club's directors in the browser (``web.people``) — the admin is for engineers.

Writes, each in one transaction; a refusal is a :class:`LeagueError` with a stable code
(the pages word it, ``web.people.words``) and nothing is written:

- :func:`add_player` — a club player (a name another player's reads the same as, case
  and accents aside, is refused);
- :func:`invite` — an invitation to a login (:class:`~league.models.Invitation`): a
  one-time code, shown once, stored only as its digest (:mod:`league.codes`);
  :func:`claim` — a new login (or a signed-in one) takes it: the role, and the player
  record it names; :func:`withdraw`;
- :func:`grant_role` / :func:`revoke_role` — a club always keeps a director;
- :func:`link_login` / :func:`unlink_login` — a login is a player's record (and a
  ``player`` of the club) or not;
- :func:`assign_scorekeeper` — a table's scorekeeper (optional; "My tables" lists it
  first).

Reads of memberships (a login's roles in a club, the clubs it records, the club's
members and recorders) are :mod:`league.access`'s, re-exported here for the pages."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from league import codes
from league.access import recorders
from league.locks import (
    directors_for_update,
    invitation_for_update,
    invitation_row_for_update,
    player_for_update,
)
from league.models import Club, Invitation, Membership, Player, Round, Table, TableScorekeeper
from league.services import LeagueError
from league.services import add_player as add_club_player

Role = Membership.Role
# Roles in the order they are listed; a login is a ``player`` through its player record.
ROLES = (Role.DIRECTOR, Role.SCOREKEEPER, Role.PLAYER)
RECORDER_ROLES = (Role.DIRECTOR, Role.SCOREKEEPER)
# How long an invitation stays open, and its code's length (5 bits a character: 60 bits).
INVITATION_LIFETIME = timedelta(days=7)
INVITATION_CODE_LENGTH = 12


# --- reads --------------------------------------------------------------------------------


def _signed_in(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def player_of(user: Any) -> Player | None:
    """The user's player record (a login is at most one player's), its club joined."""
    if not _signed_in(user):
        return None
    return Player.objects.select_related("club").filter(user_id=user.pk).first()


def invitation_state(invitation: Invitation, now: datetime | None = None) -> str:
    """``open``, ``used``, ``withdrawn`` or ``expired``."""
    if invitation.claimed_at is not None:
        return "used"
    if invitation.withdrawn_at is not None:
        return "withdrawn"
    if invitation.expires_at <= (now or timezone.now()):
        return "expired"
    return "open"


# --- players ------------------------------------------------------------------------------


def add_player(club: Club, name: Any) -> Player:
    """A new club player. ``player_exists`` if the club has one whose name reads the same
    (``league.names.name_key``: "alice" is Alice, "Zoe" is Zoé)."""
    return add_club_player(club, name)


def link_login(player: Player, user: Any) -> Player:
    """Make ``user`` the login of ``player`` (and a player of the club). Linking the same
    pair again changes nothing."""
    with transaction.atomic():
        locked = player_for_update(player.pk)
        if locked.user_id == user.pk:
            return locked
        if locked.user_id is not None:
            raise LeagueError("player_has_login", f"{locked.name} already has a login", 409)
        if Player.objects.filter(user_id=user.pk).exists():
            raise LeagueError("login_has_player", f"{user.get_username()} is already a player's login", 409)
        locked.user = user
        try:
            with transaction.atomic():
                locked.save(update_fields=["user"])
        except IntegrityError:  # another link of this login committed first
            raise LeagueError(
                "login_has_player", f"{user.get_username()} is already a player's login", 409
            ) from None
        Membership.objects.get_or_create(club_id=locked.club_id, user_id=user.pk, role=Role.PLAYER)
        return locked


def unlink_login(player: Player) -> Player:
    """The player keeps their record and results; their login is no longer theirs, nor a
    player of the club (its other roles stay)."""
    with transaction.atomic():
        locked = player_for_update(player.pk)
        if locked.user_id is None:
            return locked
        Membership.objects.filter(club_id=locked.club_id, user_id=locked.user_id, role=Role.PLAYER).delete()
        locked.user = None
        locked.save(update_fields=["user"])
        return locked


# --- roles --------------------------------------------------------------------------------


def _role(value: Any, allowed: tuple[str, ...] = ROLES) -> str:
    if value not in allowed:
        raise LeagueError("invalid_role", f"role must be one of {', '.join(allowed)}")
    return str(value)


def grant_role(club: Club, user: Any, role: Any) -> bool:
    """Make the login a director or scorekeeper of the club (a player is made by linking a
    player record). False when it had the role already."""
    chosen = _role(role, RECORDER_ROLES)
    _, made = Membership.objects.get_or_create(club=club, user_id=user.pk, role=chosen)
    return made


def revoke_role(club: Club, user: Any, role: Any) -> bool:
    """Take a role away; ``player`` also unlinks the login's player record. The club's
    last director stays one (``last_director``): the director rows are locked first, so
    two directors removing each other at once cannot both succeed. False when the login
    did not have the role."""
    chosen = _role(role)
    with transaction.atomic():
        if chosen == Role.DIRECTOR and directors_for_update(club.pk) == [user.pk]:
            raise LeagueError(
                "last_director", "a club keeps at least one director: make someone else one first", 409
            )
        if chosen == Role.PLAYER:
            for record in Player.objects.filter(club=club, user_id=user.pk):
                unlink_login(record)
        deleted, _ = Membership.objects.filter(club=club, user_id=user.pk, role=chosen).delete()
        return bool(deleted)


def login_named(username: Any) -> Any:
    """The login of that username (as typed: case aside), or ``no_such_login``."""
    text = str(username or "").strip()
    # a NUL byte is no username (PostgreSQL's text refuses it outright)
    plausible = 0 < len(text) <= 150 and "\x00" not in text
    user = get_user_model().objects.filter(username__iexact=text).first() if plausible else None
    if user is None:
        raise LeagueError("no_such_login", f"there is no login named {text[:150]!r}", 404)
    return user


# --- invitations --------------------------------------------------------------------------


@dataclass(frozen=True)
class Issued:
    """A new invitation and its code: the only time the code exists outside the invitee's
    hands."""

    invitation: Invitation
    code: str


def invite(club: Club, *, role: Any, player: Player | None, by: Any) -> Issued:
    """An invitation to a login with ``role`` in the club — a ``player`` invitation names
    the player record it claims — open for :data:`INVITATION_LIFETIME`."""
    chosen = _role(role)
    if chosen == Role.PLAYER and player is None:
        raise LeagueError("invitation_needs_player", "a player's invitation names their player record")
    if player is not None:
        if player.club_id != club.pk:
            raise LeagueError("not_found", f"the club has no player {player.pk}", 404)
        if Player.objects.filter(pk=player.pk, user__isnull=False).exists():
            raise LeagueError("player_has_login", f"{player.name} already has a login", 409)
    code = codes.new_code(INVITATION_CODE_LENGTH)
    now = timezone.now()
    invitation = Invitation.objects.create(
        club=club,
        role=chosen,
        player=player,
        code_digest=codes.digest(code),
        created_by=by,
        created_at=now,
        expires_at=now + INVITATION_LIFETIME,
    )
    return Issued(invitation, code)


def _refuse_unless_open(invitation: Invitation) -> None:
    state = invitation_state(invitation)
    if state == "used":
        raise LeagueError("invitation_used", "this invitation has been used already", 409)
    if state == "withdrawn":
        raise LeagueError("invitation_withdrawn", "this invitation was withdrawn", 409)
    if state == "expired":
        raise LeagueError("invitation_expired", "this invitation has expired", 409)


def find_invitation(code: Any, *, for_update: bool = False) -> Invitation:
    """The open invitation of a code as typed or linked, or a refusal saying why not."""
    typed = codes.normalise(str(code or ""))
    if len(typed) != INVITATION_CODE_LENGTH or any(char not in codes.ALPHABET for char in typed):
        raise LeagueError("invitation_unknown", "no invitation has this code", 404)
    digest = codes.digest(typed)
    if for_update:
        invitation = invitation_for_update(digest)
    else:
        invitation = Invitation.objects.select_related("club", "player").filter(code_digest=digest).first()
    if invitation is None:
        raise LeagueError("invitation_unknown", "no invitation has this code", 404)
    _refuse_unless_open(invitation)
    return invitation


def claim(code: Any, user: Any) -> Invitation:
    """``user`` takes the invitation: its role in the club, and its player record. A new
    login is passed unsaved (a form's ``save(commit=False)``) and saved here, in the same
    transaction: if anything is refused, no login is made either. The invitation row is
    locked, so two people using one code at once cannot both take it."""
    with transaction.atomic():
        invitation = find_invitation(code, for_update=True)
        if user.pk is None:
            try:
                with transaction.atomic():
                    user.save()
            except IntegrityError:
                raise LeagueError("username_taken", "that username is taken", 409) from None
        if invitation.player is not None:
            link_login(invitation.player, user)
        Membership.objects.get_or_create(club=invitation.club, user_id=user.pk, role=invitation.role)
        invitation.claimed_by = user
        invitation.claimed_at = timezone.now()
        invitation.save(update_fields=["claimed_by", "claimed_at"])
        return invitation


def withdraw(invitation: Invitation, by: Any) -> Invitation:
    """Close an open invitation: its code no longer works."""
    with transaction.atomic():
        locked = invitation_row_for_update(invitation.pk)
        _refuse_unless_open(locked)
        locked.withdrawn_by = by
        locked.withdrawn_at = timezone.now()
        locked.save(update_fields=["withdrawn_by", "withdrawn_at"])
        return locked


# --- a table's scorekeeper ----------------------------------------------------------------


def assign_scorekeeper(table: Table, user_id: int | None, by: Any) -> TableScorekeeper | None:
    """Assign one of the club's directors or scorekeepers to a table of a round not yet
    complete, or (``None``) nobody."""
    round_ = Round.objects.select_related("tournament").get(pk=table.round_id)
    if round_.status == Round.Status.COMPLETE:
        raise LeagueError("round_complete", f"round {round_.number} is complete", 409)
    with transaction.atomic():
        if user_id is None:
            TableScorekeeper.objects.filter(table=table).delete()
            return None
        if user_id not in {pk for pk, _ in recorders(round_.tournament.club_id)}:
            raise LeagueError(
                "not_a_scorekeeper", "only the club's scorekeepers and directors keep a table's score"
            )
        assigned, _ = TableScorekeeper.objects.update_or_create(
            table=table, defaults={"user_id": user_id, "assigned_by": by, "assigned_at": timezone.now()}
        )
        return assigned
