"""A round's completion: complete once every table's game is over, and the
tournament finished with its last round (or its knockout's final)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from league.locks import round_for_update, tournament_for_update
from league.models import Round, Table, Tournament
from league.seating import SeatingError, make_seating, method_record
from league.selectors import games_over
from league.services.seating_reads import seating_request


def _round_done(round_: Round) -> bool:
    """Complete, or published with every table's game over (the completion task may not
    have run yet: :func:`generate_round` completes it first)."""
    if round_.status == Round.Status.COMPLETE:
        return True
    return round_.status == Round.Status.PUBLISHED and games_over(round_.tables.all())


def check_round_complete(round_: Round) -> bool:
    """Mark a published round complete when every table's game has finished or been
    abandoned; the last fixed round's completion finishes the tournament. Idempotent
    (safe from a task delivered twice, from beat, from a director's request). Returns
    whether the round is complete."""
    with transaction.atomic():
        tournament_for_update(round_.tournament_id)  # league.locks: the tournament first
        return _complete_if_done(round_for_update(round_.pk))


def _complete_if_done(round_: Round) -> bool:
    if round_.status == Round.Status.COMPLETE:
        return True
    if round_.status != Round.Status.PUBLISHED or not games_over(round_.tables.all()):
        return False
    round_.status = Round.Status.COMPLETE
    round_.completed_at = timezone.now()
    round_.save(update_fields=["status", "completed_at"])
    tournament = round_.tournament
    last_fixed = tournament.rounds is not None and round_.number >= tournament.rounds
    # a method without fixed rounds ends the event itself (a knockout's final)
    open_ended = not method_record(tournament.seating).fixed_rounds
    if last_fixed or (open_ended and _knockout_over(round_)):
        Tournament.objects.filter(pk=tournament.pk).exclude(status=Tournament.Status.FINISHED).update(
            status=Tournament.Status.FINISHED
        )
    return True


def _knockout_over(round_: Round) -> bool:
    """Whether a 2-player knockout has played its final: seating the next round says so."""
    tournament = round_.tournament
    if tournament.table_max != 2:
        return False
    try:
        make_seating(tournament.seating, seating_request(tournament, round_.number + 1))
    except SeatingError as exc:
        return exc.code == "knockout_finished"
    return False


def game_ended(game_id: int) -> bool:
    """React to a game that finished or was abandoned: check its table's round. Called
    by the outbox task; a game that is not a league table is ignored."""
    table = Table.objects.filter(game_id=game_id).select_related("round").first()
    if table is None:
        return False
    return check_round_complete(table.round)


def check_open_rounds() -> int:
    """Check every published round (for beat, or by hand): how many became complete."""
    done = 0
    for round_ in Round.objects.filter(status=Round.Status.PUBLISHED):
        if check_round_complete(round_):
            done += 1
    return done
