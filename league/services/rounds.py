"""Rounds: why the next one cannot be generated (its blockers), generating it as a
draft, and the draft's tables as they stand."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from core.messages import Message
from league.errors import LeagueError
from league.limits import REASON_LENGTH
from league.locks import round_for_update, tournament_for_update
from league.models import Round, Table, TableSeat, Tournament
from league.seating import (
    PlayerId,
    Seating,
    SeatingError,
    input_digest,
    make_seating,
    method_record,
    table_sizes,
)
from league.seating import Table as SeatingTable
from league.seating import notes as say
from league.seating.notes import note_of
from league.selectors import RoundTable, round_tables
from league.services.checks import _open_for_changes, _seating_error, _text
from league.services.completion import _complete_if_done, _round_done
from league.services.registrations import active_registrations
from league.services.seating_reads import seating_request
from league.services.tournaments import smallest_table


@dataclass(frozen=True)
class Blocker:
    """A reason the next round cannot be generated now.

    ``code`` and ``message`` are the API's error (``status`` its HTTP status);
    ``advice`` says the same to a director at the desk, with what to do about it.
    ``overridable``: generating anyway is allowed with a reason (``force_reason``).
    ``enforced``: :func:`generate_round` refuses; a blocker that is not (too few players
    checked in to fill a table) is one the desk refuses while the API seats the round
    as byes only. ``params``: the numbers its words need, so a page words it in the
    reader's language (``web.refusals``)."""

    code: str
    message: str
    advice: str
    overridable: bool = False
    enforced: bool = True
    status: int = 409
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def round_blockers(tournament: Tournament, rounds: Sequence[Round] | None = None) -> list[Blocker]:
    """Why the next round of ``tournament`` cannot be generated now, in the order
    :func:`generate_round` checks: the tournament is finished; every fixed round is
    generated; the last round is a draft; the last round is still being played
    (overridable); too few players are checked in to fill a table (not enforced).
    Empty: it can. Reads only; ``rounds`` are the tournament's rounds in order when the
    caller has them (read otherwise)."""
    if rounds is None:
        last = tournament.round_set.order_by("-number").first()
    else:
        last = rounds[-1] if rounds else None
    number = (last.number if last else 0) + 1
    if tournament.status == Tournament.Status.FINISHED:
        return [
            Blocker(
                "tournament_finished",
                "the tournament is finished; nothing can change",
                "The tournament is closed.",
            )
        ]
    if tournament.rounds is not None and number > tournament.rounds:
        return [
            Blocker(
                "no_more_rounds",
                f"the tournament has {tournament.rounds} rounds; all are generated",
                f"All {tournament.rounds} rounds have been generated.",
                params={"rounds": tournament.rounds},
            )
        ]
    if last is not None and last.status == Round.Status.DRAFT:
        return [
            Blocker(
                "round_in_draft",
                f"round {last.number} is still a draft: publish it first",
                f"Round {last.number} is still a draft: publish it first.",
                params={"round": last.number},
            )
        ]
    blockers = []
    if last is not None and not _round_done(last):
        blockers.append(
            Blocker(
                "round_not_complete",
                f"round {last.number} is not complete yet; "
                f"to generate round {number} anyway, give force_reason",
                f"Round {last.number} is still being played. Round {number} can be generated once every "
                f"table of round {last.number} is complete — or now, if you say why.",
                overridable=True,
                params={"round": last.number, "next": number},
            )
        )
    active = len(active_registrations(tournament, number))
    needed = smallest_table(tournament)
    if active < needed:
        checked = "player is" if active == 1 else "players are"
        blockers.append(
            Blocker(
                "too_few_players",
                f"only {active} {checked} checked in for round {number}; a table needs at least {needed}",
                f"Only {active} {checked} checked in for round {number}; a table needs at least {needed}. "
                "Check players in at the registration desk.",
                enforced=False,
                params={"active": active, "round": number, "needed": needed},
            )
        )
    return blockers


def generate_round(
    tournament: Tournament, by: Any, *, force_reason: str = "", manual: Mapping[str, Any] | None = None
) -> Round:
    """The next round as a draft, seated by the tournament's method. Refused for the
    enforced :func:`round_blockers`: once the tournament is finished, beyond ``rounds``,
    while the previous round is a draft, or (unless ``force_reason`` says why, which is
    recorded in the notes) not complete. A ``manual`` tournament takes the director's
    ``{"tables": [[ids]], "byes": [ids]}``."""
    _open_for_changes(tournament)
    with transaction.atomic():
        tournament = tournament_for_update(tournament.pk)
        last = tournament.round_set.order_by("-number").first()
        number = (last.number if last else 0) + 1
        if last is not None and last.status == Round.Status.PUBLISHED:
            # its games may have ended without the task having run yet: check now
            last = round_for_update(last.pk)
            _complete_if_done(last)
        notes: list[Message] = []
        reason = _text(force_reason or "", "force_reason", REASON_LENGTH, reason=True)
        for blocker in round_blockers(tournament, [] if last is None else [last]):
            if not blocker.enforced:
                continue
            if blocker.overridable and reason:
                assert last is not None
                notes.append(say.generated_early(last.number, reason))
                continue
            raise LeagueError(blocker.code, blocker.message, blocker.status, params=blocker.params)
        request = seating_request(tournament, number)
        takes_tables = method_record(tournament.seating).takes_tables
        if manual is not None and not takes_tables:
            raise LeagueError(
                "invalid_request",
                f"tables are given for a manual seating; this tournament is {tournament.seating}",
            )
        if takes_tables:
            if not isinstance(manual, Mapping):
                raise LeagueError(
                    "invalid_manual_seating", 'a manual round needs "tables" (lists of player ids) and "byes"'
                )
            request = dataclasses.replace(request, params={**request.params, **manual})
        try:
            seating = make_seating(tournament.seating, request)
        except SeatingError as exc:
            raise _seating_error(exc) from None
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            method=tournament.seating,
            params=dict(request.params),
            seed=tournament.seed,
            input_digest=input_digest(request, tournament.seating),
            request=request.to_dict(),
            generated=seating.to_dict(),
            byes=list(seating.byes),
            notes=[n.to_dict() for n in (*seating.notes, *notes)],
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        _write_tables(round_, [(t.seats, list(t.notes)) for t in seating.tables])
        return round_


def _write_tables(round_: Round, tables: Sequence[tuple[Sequence[PlayerId], Sequence[Message]]]) -> None:
    """The round's tables written again: two inserts, whatever their number."""
    round_.tables.all().delete()
    rows = Table.objects.bulk_create(
        Table(round=round_, number=number, notes=[n.to_dict() for n in notes])
        for number, (_, notes) in enumerate(tables, start=1)
    )
    TableSeat.objects.bulk_create(
        TableSeat(table=row, position=position, player_id=player)
        for row, (seats, _) in zip(rows, tables, strict=True)
        for position, player in enumerate(seats)
    )


def current_seating(round_: Round, tables: Sequence[RoundTable] | None = None) -> Seating:
    """The round's tables as they stand (after any edits), players only; ``tables`` are
    the round's tables when the caller has read them (:func:`league.selectors.round_tables`)."""
    if tables is None:
        tables = round_tables([round_.pk])[round_.pk]
    seated = tuple(SeatingTable(t.player_ids, t.notes) for t in tables)
    return Seating(round_.method, seated, tuple(round_.byes), tuple(map(note_of, round_.notes)))


def departs_from_generated(round_: Round, tables: Sequence[RoundTable] | None = None) -> bool:
    """Whether the round's tables or byes differ from what its method generated
    (``tables``: as for :func:`current_seating`)."""
    generated = Seating.from_dict(round_.generated)
    current = current_seating(round_, tables)
    return [t.seats for t in generated.tables] != [t.seats for t in current.tables] or sorted(
        generated.byes
    ) != sorted(current.byes)


def manual_start(tournament: Tournament) -> dict[str, Any] | None:
    """A manual tournament's starting seating for its next round (None for any other
    method, which seats by itself): the checked-in players in registration order, at
    tables of the tournament's sizes, the rest sitting out; the director then swaps and
    moves them in the draft before publishing. What :func:`generate_round` takes as
    ``manual``."""
    if not method_record(tournament.seating).takes_tables:
        return None
    number = tournament.round_set.count() + 1
    active = [r.player_id for r in active_registrations(tournament, number)]
    sizes, _ = table_sizes(len(active), smallest_table(tournament), tournament.table_max)
    tables, start = [], 0
    for size in sizes:
        tables.append(active[start : start + size])
        start += size
    return {"tables": tables, "byes": active[start:]}
