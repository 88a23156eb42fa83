"""Players' standings records as the projection stores them, and a result's effect on
them: what lets a refresh rewrite only the records of the table whose result changed.

A record (:class:`league.standings.tiebreaks.Record`) is a sum over the player's tables
and byes (:func:`league.standings.records` adds one table at a time), so a table's
result moving from ``old`` to ``new`` changes its players' records by the record of that
table alone with ``new`` minus the same with ``old``. That holds in every round that
eliminates nobody; the projection builds a knockout's records whole (a knockout's byes
depend on earlier tables' results).

>>> from fractions import Fraction
>>> from league.standings.tiebreaks import PlayedGame, Record
>>> record = Record(7, Fraction(3, 2), [PlayedGame(1, 12, Fraction(3, 2), 1, 2, ((8, 2),))], byes=0)
>>> record_from_dict(7, record_to_dict(record)) == record
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from league.standings import Settings, TableResult, records
from league.standings.results import _fraction
from league.standings.tiebreaks import PlayedGame, Record


def record_to_dict(record: Record) -> dict[str, Any]:
    """The JSON form of a record (games as compact lists, in round order)."""
    return {
        "points": str(record.points),
        "byes": record.byes,
        "abandoned": record.abandoned,
        "replaced": record.replaced,
        "in_play": record.in_play,
        "games": [
            [g.round, g.game, str(g.award), g.place, g.seats, [[o, p] for o, p in g.opponents]]
            for g in record.games
        ],
    }


def record_from_dict(player: int, data: Mapping[str, Any]) -> Record:
    return Record(
        player=player,
        points=_fraction(data["points"]),
        games=[
            PlayedGame(
                int(number),
                None if game is None else int(game),
                _fraction(award),
                int(place),
                int(seats),
                tuple((None if o is None else int(o), int(p)) for o, p in opponents),
            )
            for number, game, award, place, seats, opponents in data["games"]
        ],
        byes=int(data["byes"]),
        abandoned=int(data["abandoned"]),
        replaced=int(data["replaced"]),
        in_play=int(data["in_play"]),
    )


def in_order(record: Record) -> Record:
    """The record with its games in round order (the order a rebuild gives them)."""
    record.games.sort(key=lambda g: (g.round, g.game or 0))
    return record


def table_records(
    settings: Settings, number: int, method: str, table: Mapping[str, Any], result: TableResult | None
) -> dict[int, Record]:
    """What one table adds to its players' records with ``result`` (None: no result
    read yet, the game is in play)."""
    game = table.get("game")
    results = {int(game): result} if game is not None and result is not None else {}
    shaped = {"number": number, "method": method, "byes": [], "tables": [table]}
    return records(settings, [shaped], results)


def apply_change(
    current: dict[int, Record],
    settings: Settings,
    number: int,
    method: str,
    table: Mapping[str, Any],
    old: TableResult | None,
    new: TableResult,
) -> set[int]:
    """Move the records in ``current`` from the table's ``old`` result to ``new``, in
    place (a player without a record gets one); the players whose records changed."""
    before = table_records(settings, number, method, table, old)
    after = table_records(settings, number, method, table, new)
    game = table.get("game")
    touched: set[int] = set()
    for player in set(before) | set(after):
        was, now = before.get(player) or Record(player), after.get(player) or Record(player)
        record = current.get(player)
        if record is None:
            record = current[player] = Record(player)
        record.points += now.points - was.points
        record.abandoned += now.abandoned - was.abandoned
        record.replaced += now.replaced - was.replaced
        record.in_play += now.in_play - was.in_play
        record.games = [g for g in record.games if g.game != game] + now.games
        in_order(record)
        touched.add(player)
    return touched
