"""Self check-in (optional): a director opens it on the desk, the room sees its short
code (and its QR code), and each player with a login checks in from their phone.

A player who typed the right code is checked in — registered first if the tournament
has no round yet (a late arrival after that is the director's call). Closing it, or a
new code, makes the old code stop working. Refusals are :class:`LeagueError`s with
stable codes; nothing is written then."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from league import codes
from league.locks import tournament_for_update
from league.models import Player, Registration, SelfCheckIn, Tournament
from league.services import LeagueError, register, set_registration_status

CODE_LENGTH = 6  # typed from a screen across the room: 30 bits, and only while it is open


def open_code(tournament: Tournament) -> str | None:
    """The tournament's check-in code while self check-in is open, else None."""
    return SelfCheckIn.objects.filter(tournament=tournament).values_list("code", flat=True).first()


def open_self_check_in(tournament: Tournament, by: Any) -> str:
    """Open self check-in with a new code (a code already open is replaced)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise LeagueError("tournament_finished", "the tournament is finished; nothing can change", 409)
    code = codes.new_code(CODE_LENGTH)
    SelfCheckIn.objects.update_or_create(
        tournament=tournament, defaults={"code": code, "opened_by": by, "opened_at": timezone.now()}
    )
    return code


def close_self_check_in(tournament: Tournament) -> bool:
    """Close it; False when it was not open."""
    deleted, _ = SelfCheckIn.objects.filter(tournament=tournament).delete()
    return bool(deleted)


def check_in_self(tournament: Tournament, player: Player | None, code: Any) -> Registration:
    """Check ``player`` (the signed-in login's record) in with the room's ``code``."""
    if player is None or player.club_id != tournament.club_id:
        raise LeagueError(
            "not_a_club_player", "only the club's players with a login check themselves in", 403
        )
    with transaction.atomic():
        tournament_for_update(tournament.pk)
        shown = open_code(tournament)
        if shown is None:
            raise LeagueError("check_in_closed", "self check-in is not open for this tournament", 409)
        if codes.normalise(str(code or "")) != shown:
            raise LeagueError("wrong_check_in_code", "that is not the code shown in the room")
        registration = (
            Registration.objects.select_related("player", "tournament")
            .filter(tournament=tournament, player=player)
            .first()
        )
        if registration is None:
            if tournament.round_set.exists():
                raise LeagueError("not_registered", "you are not registered: ask the director", 409)
            registration = register(tournament, player=player)
        if registration.status == Registration.Status.CHECKED_IN:
            return registration
        if registration.status != Registration.Status.REGISTERED:
            raise LeagueError(
                "registration_closed", f"your registration is {registration.status}: ask the director", 409
            )
        return set_registration_status(registration, Registration.Status.CHECKED_IN)
