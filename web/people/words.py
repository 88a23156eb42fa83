"""What the people pages say: role names, an invitation's state, and each refusal of
:mod:`league.people` and :mod:`league.checkin` by its code (the services' own messages
are English defaults; these are the words shown, through gettext)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from config.api_errors import ApiError

ROLE_WORDS: dict[str, Promise] = {
    "director": _("director"),
    "scorekeeper": _("scorekeeper"),
    "player": _("player"),
}

STATE_WORDS: dict[str, Promise] = {
    "open": _("open"),
    "used": _("used"),
    "withdrawn": _("withdrawn"),
    "expired": _("expired"),
}

REFUSALS: dict[str, Promise] = {
    "invalid_role": _("Choose a role offered: director, scorekeeper or player."),
    "invitation_needs_player": _("A player's invitation is for one of the club's players: choose one."),
    "player_has_login": _("That player already has a login: unlink it first if it is the wrong one."),
    "login_has_player": _("That login is already a player's: a login is one player's only."),
    "no_such_login": _("No login has that username. Invite them instead: they make their own."),
    "last_director": _("A club keeps at least one director: make someone else a director first."),
    "player_exists": _("The club already has a player of that name."),
    "invitation_unknown": _(
        "No invitation has this code. Check it, or ask the club's director for a new one."
    ),
    "invitation_used": _("This invitation has been used already: sign in with the login made with it."),
    "invitation_withdrawn": _("This invitation was withdrawn. Ask the club's director for a new one."),
    "invitation_expired": _("This invitation has expired. Ask the club's director for a new one."),
    "username_taken": _("That username is taken: choose another."),
    "round_complete": _("That round is complete: its tables need no scorekeeper now."),
    "not_a_scorekeeper": _("Choose one of the club's scorekeepers or directors."),
    "not_a_club_player": _(
        "Only the club's players with a login check themselves in: ask the director to link your login."
    ),
    "check_in_closed": _("Self check-in is not open for this tournament: ask the director."),
    "wrong_check_in_code": _("That is not the code shown in the room: check it and try again."),
    "not_registered": _(
        "You are not registered for this tournament, and its rounds have begun: ask the director."
    ),
    "registration_closed": _(
        "Your registration cannot be checked in now (dropped or withdrawn): ask the director."
    ),
    "tournament_finished": _("The tournament is closed: nothing can change any more."),
}


def refusal_text(exc: ApiError) -> str:
    """The words of a refusal: ours by its code, else the service's own message."""
    words = REFUSALS.get(exc.error_code)
    return str(words) if words is not None else exc.message
