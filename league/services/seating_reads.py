"""What a round's seating is computed from, read from the rows: the rounds before it
as the seating sees them, the standings Swiss and knockout seat by, and the whole
:class:`~league.seating.Request`."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from games import selectors as game_selectors
from league import projection
from league.models import Round, Tournament
from league.seating import RECORDS, Entrant, PastRound, PastTable, PlayerId, Request
from league.selectors import round_tables
from league.services.registrations import active_registrations
from league.services.tournaments import smallest_table


def seating_standings(
    tournament: Tournament, before: int
) -> tuple[tuple[PlayerId, ...], dict[PlayerId, Fraction]]:
    """The standings Swiss and knockout seat round ``before`` by: the standings projection
    (``league.projection``, docs/standings.md) over the rounds before it, scored by the
    tournament's scheme and ordered by its tiebreaks, best first, with each player's
    points. Players with no result yet are not listed (the seating ranks them last)."""
    projection.refresh(tournament.pk)
    rows = projection.read_standings(tournament, after_round=before - 1, ratings=False)["rows"]
    order = tuple(int(row["player"]["id"]) for row in rows)
    points = {int(row["player"]["id"]): Fraction(str(row["points"])) for row in rows}
    return order, points


def history_before(tournament: Tournament, number: int) -> tuple[PastRound, ...]:
    """The rounds before ``number`` as the seating reads them: tables as published (bots
    left out), who dealt first (seat 0), byes, and each finished game's finishing order."""
    rounds = list(
        tournament.round_set.filter(number__lt=number).exclude(status=Round.Status.DRAFT).order_by("number")
    )
    tables = round_tables(r.pk for r in rounds)
    results = game_selectors.match_results(
        [t.game_id for ts in tables.values() for t in ts if t.game_id is not None]
    )
    history = []
    for past in rounds:
        played = []
        for table in tables[past.pk]:
            seats = [seat.player_id for seat in table.seats]
            result = results.get(table.game_id) if table.game_id is not None else None
            ranking: tuple[tuple[PlayerId, ...], ...] | None = None
            if result is not None:
                places = [tuple(p for s in place if (p := seats[s]) is not None) for place in result.ranking]
                ranking = tuple(group for group in places if group)
            played.append(PastTable(table.player_ids, 0, ranking))
        history.append(PastRound(past.number, tuple(played), tuple(past.byes)))
    return tuple(history)


def seating_request(tournament: Tournament, number: int) -> Request:
    """Everything round ``number``'s seating depends on, from the rows."""
    active = active_registrations(tournament, number)
    standings: tuple[PlayerId, ...] = ()
    points: dict[PlayerId, Fraction] = {}
    record = RECORDS.get(tournament.seating)
    if record is not None and record.needs_standings:
        standings, points = seating_standings(tournament, number)
    params = dict(tournament.seating_params)
    ids = {r.player_id for r in active}
    schedule = None
    if record is not None and record.keeps_schedule:
        # the schedule the latest earlier round computed, given back to the method
        for generated in (
            tournament.round_set.filter(number__lt=number)
            .order_by("-number")
            .values_list("generated", flat=True)
        ):
            if isinstance(generated, Mapping) and generated.get("schedule") is not None:
                schedule = generated["schedule"]
                break
    return Request(
        players=tuple(Entrant(r.player_id, r.player.name, r.seed_number) for r in active),
        # bots fill the short tables: nobody needs a bye for want of players
        table_min=smallest_table(tournament),
        table_max=tournament.table_max,
        round_number=number,
        seed=tournament.seed,
        history=history_before(tournament, number),
        standings=tuple(p for p in standings if p in ids),
        points={p: v for p, v in points.items() if p in ids},
        total_rounds=tournament.rounds,
        params=params,
        schedule=schedule,
    )
