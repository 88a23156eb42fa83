"""Club players and tournament registrations: register, change a registration's
status, and who is active in a round."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from league import limits
from league.errors import LeagueError
from league.locks import registration_for_update
from league.models import Club, Player, Registration, TableSeat, Tournament
from league.services.checks import _name, _open_for_changes, _whole


def player_name(value: Any) -> str:
    """A club player's name as every write takes it (and the archive import)."""
    return _name(value, "name", limits.PLAYER_NAME_LENGTH)


def add_player(club: Club, name: Any, user: Any = None) -> Player:
    """A new club player (``player_exists`` if the club has one of that name)."""
    clean = player_name(name)
    try:
        with transaction.atomic():
            return Player.objects.create(club=club, name=clean, user=user)
    except IntegrityError:
        raise LeagueError("player_exists", f"the club already has a player named {clean!r}", 409) from None


def register(
    tournament: Tournament,
    *,
    player: Player | None = None,
    name: str | None = None,
    from_round: int | None = None,
    seed_number: int | None = None,
) -> Registration:
    """Register a club player, or one made from ``name`` (an existing club player of that
    name is reused). A late entrant plays from ``from_round``: by default the next
    round not yet generated."""
    _open_for_changes(tournament)
    if (player is None) == (name is None):
        raise LeagueError("invalid_request", 'give either "player" (an id) or "name"')
    with transaction.atomic():
        if player is None:
            clean = player_name(name)
            player, _ = Player.objects.get_or_create(club=tournament.club, name=clean)
        elif player.club_id != tournament.club_id:
            raise LeagueError("not_found", f"the club has no player {player.pk}", 404)
        next_round = _last_round_number(tournament) + 1
        start = next_round if from_round is None else _whole(from_round, "from_round", *limits.ROUNDS)
        if start < next_round:
            raise LeagueError(
                "invalid_request",
                f"round {next_round - 1} already exists: a late entrant starts at {next_round}",
                field="from_round",
            )
        if seed_number is not None:
            seed_number = _whole(seed_number, "seed_number", *limits.SEED_NUMBERS)
        try:
            with transaction.atomic():
                return Registration.objects.create(
                    tournament=tournament, player=player, from_round=start, seed_number=seed_number
                )
        except IntegrityError:
            raise LeagueError(
                "already_registered", f"{player.name} is already registered for this tournament", 409
            ) from None


def set_registration_status(
    registration: Registration,
    status: Any,
    *,
    dropped_after: int | None = None,
    seed_number: int | None = None,
    from_round: int | None = None,
) -> Registration:
    """Move a registration to ``registered``, ``checked_in``, ``dropped`` (after round
    ``dropped_after``, by default the last round generated) or ``withdrawn`` (never
    played). Also sets the knockout seed number and a late entrant's first round."""
    tournament = registration.tournament
    _open_for_changes(tournament)
    if status not in Registration.Status.values:
        raise LeagueError(
            "invalid_request",
            f"status must be one of {', '.join(Registration.Status.values)}",
            field="status",
        )
    last = _last_round_number(tournament)
    with transaction.atomic():
        registration = registration_for_update(registration.pk)
        if status == Registration.Status.DROPPED:
            after = last
            if dropped_after is not None:
                after = _whole(dropped_after, "dropped_after", *limits.DROPPED_AFTER)
            if after < last:
                raise LeagueError(
                    "invalid_request",
                    f"round {last} exists: a player drops after round {last} at the earliest",
                    field="dropped_after",
                )
            registration.dropped_after = after
        else:
            registration.dropped_after = None
        if status == Registration.Status.WITHDRAWN and _has_played(registration):
            raise LeagueError(
                "already_played",
                f"{registration.player.name} has been seated already: drop them instead",
                409,
            )
        if seed_number is not None:
            registration.seed_number = _whole(seed_number, "seed_number", *limits.SEED_NUMBERS)
        if from_round is not None:
            start = _whole(from_round, "from_round", *limits.ROUNDS)
            if start <= last and start != registration.from_round:
                raise LeagueError(
                    "invalid_request",
                    f"round {last} already exists: from_round must be above it",
                    field="from_round",
                )
            registration.from_round = start
        registration.status = status
        registration.save()
        return registration


def _has_played(registration: Registration) -> bool:
    return TableSeat.objects.filter(
        player_id=registration.player_id, table__round__tournament_id=registration.tournament_id
    ).exists()


def _last_round_number(tournament: Tournament) -> int:
    last = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    return last or 0


def active_registrations(tournament: Tournament, number: int) -> list[Registration]:
    """The registrations seated (or given a bye) in round ``number``, in registration order."""
    rows = tournament.registrations.select_related("player").filter(from_round__lte=number).order_by("id")
    return [
        r
        for r in rows
        if r.status == Registration.Status.CHECKED_IN
        or (r.status == Registration.Status.DROPPED and (r.dropped_after or 0) >= number)
    ]
