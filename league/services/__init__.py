"""The write side of the league: tournaments, registrations and rounds.

Plain functions, each in a transaction, raising :class:`LeagueError` (a stable code, a
message, an HTTP status) for anything refused; nothing is written then. The seating
itself is computed by the pure package :mod:`league.seating`; these modules load the rows
into its values (:func:`seating_request`), store what it returns, and turn a published
round into games through :mod:`games.services`.

A package split by job, each module's public names re-exported here (callers write
``league.services.X``):

- :mod:`~league.services.tournaments`: settings checked together, create, update, close;
- :mod:`~league.services.registrations`: club players, registrations, who is active;
- :mod:`~league.services.seating_reads`: what a seating is computed from (history,
  standings, the request);
- :mod:`~league.services.rounds`: the next round's blockers, generating it, a draft's
  tables as they stand, a manual round's starting seating;
- :mod:`~league.services.drafts`: editing a draft;
- :mod:`~league.services.publishing`: publishing a draft, one game per table;
- :mod:`~league.services.completion`: a round's and a tournament's completion;
- :mod:`~league.services.regeneration`: a round's seating computed again and compared;
- :mod:`~league.services.checks`: the input checks they share (their refusal is
  :class:`league.errors.LeagueError`).

Who is active in round ``n``: players whose registration is ``checked_in`` and who enter
from round ``n`` or earlier, plus those who ``dropped`` after round ``n`` or later (a
round already played is regenerated with them). ``registered`` players who did not check
in are not seated, in a one-day tournament as in a league season: check-in is how a
director says who is at the tables. ``withdrawn`` players never play.
"""

from league.errors import LeagueError
from league.services.checks import checked_edit_reason
from league.services.completion import check_open_rounds, check_round_complete, game_ended
from league.services.drafts import draft_version, edit_draft
from league.services.publishing import publish_round
from league.services.regeneration import RegenerateResult, regenerate
from league.services.registrations import (
    active_registrations,
    add_player,
    player_name,
    register,
    set_registration_status,
)
from league.services.rounds import (
    Blocker,
    current_seating,
    departs_from_generated,
    generate_round,
    manual_start,
    round_blockers,
)
from league.services.seating_reads import history_before, seating_request, seating_standings
from league.services.tournaments import (
    UPDATABLE,
    TournamentSettings,
    close_tournament,
    create_tournament,
    smallest_table,
    tournament_fields,
    update_tournament,
)

__all__ = [
    "UPDATABLE",
    "Blocker",
    "LeagueError",
    "RegenerateResult",
    "TournamentSettings",
    "active_registrations",
    "add_player",
    "check_open_rounds",
    "check_round_complete",
    "checked_edit_reason",
    "close_tournament",
    "create_tournament",
    "current_seating",
    "departs_from_generated",
    "draft_version",
    "edit_draft",
    "game_ended",
    "generate_round",
    "history_before",
    "manual_start",
    "player_name",
    "publish_round",
    "regenerate",
    "register",
    "round_blockers",
    "seating_request",
    "seating_standings",
    "set_registration_status",
    "smallest_table",
    "tournament_fields",
    "update_tournament",
]
