"""Players' standings records as the projection stores them, and a result's effect on
them: what lets a refresh rewrite only the records of the table whose result changed.

A record (:class:`league.standings.tiebreaks.Record`) is a sum over the player's tables
and byes (:func:`league.standings.records` adds one table at a time), so a table's
result moving from ``old`` to ``new`` changes its players' records by the record of that
table alone with ``new`` minus the same with ``old``. That holds in every round that
eliminates nobody; the projection builds a knockout's records whole (a knockout's byes
depend on earlier tables' results). A record holds sums, not games: its size follows
the opponents met, whatever the length of the season.

>>> from fractions import Fraction
>>> record = Record(7, Fraction(3, 2), played=1, wins=1, place_sum=1, meetings={8: (1, Fraction(1))})
>>> record_from_dict(7, record_to_dict(record)) == record
True
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from core.lru import StampedCache
from league.standings import Settings, TableResult, records
from league.standings.results import _fraction
from league.standings.tiebreaks import Record

# Tournaments whose records a process keeps: the live ones (a 64-player league season's
# records, every player having met every other, take about 0.4 MB).
RECORDS_CACHE_SIZE = 16


def record_to_dict(record: Record) -> dict[str, Any]:
    """The JSON form of a record (meetings as ``[opponent, count, score]``, by opponent)."""
    return {
        "points": str(record.points),
        "byes": record.byes,
        "abandoned": record.abandoned,
        "replaced": record.replaced,
        "in_play": record.in_play,
        "played": record.played,
        "wins": record.wins,
        "place_sum": record.place_sum,
        "meetings": [[o, count, str(score)] for o, (count, score) in sorted(record.meetings.items())],
    }


# Meeting scores are sums of halves: few distinct texts, parsed once each.
_score = functools.lru_cache(maxsize=4096)(_fraction)


def record_from_dict(player: int, data: Mapping[str, Any]) -> Record:
    return Record(
        player=player,
        points=_fraction(data["points"]),
        byes=int(data["byes"]),
        abandoned=int(data["abandoned"]),
        replaced=int(data["replaced"]),
        in_play=int(data["in_play"]),
        played=int(data["played"]),
        wins=int(data["wins"]),
        place_sum=int(data["place_sum"]),
        meetings={int(o): (int(count), _score(score)) for o, count, score in data["meetings"]},
    )


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
    touched: set[int] = set()
    for player in set(before) | set(after):
        # a moved copy: the records in ``current`` may be shared (see RecordsCache)
        record = current[player] = current[player].copy() if player in current else Record(player)
        record.move(before.get(player) or Record(player), after.get(player) or Record(player))
        touched.add(player)
    return touched


class RecordsCache:
    """Every player's record of the tournaments refreshed lately, per process, as the
    last committed refresh left them: what lets the next refresh after one result skip
    reading and parsing every stored record. Keyed by tournament and checked against the
    ``refreshed_at`` of its state row, which every write of the records saves (under the
    row's lock, in the same transaction). Disposable: a miss reads the stored records.
    Only committed records go in (the projection puts them from ``transaction.on_commit``);
    :meth:`get` hands out a mapping of its own, and the records in it are never changed
    in place (:func:`apply_change` moves copies)."""

    def __init__(self, size: int = RECORDS_CACHE_SIZE) -> None:
        self._records = StampedCache[dict[int, Record]](size)

    def get(self, tournament_id: int, refreshed_at: datetime) -> dict[int, Record] | None:
        records = self._records.get(tournament_id, refreshed_at)
        return dict(records) if records is not None else None

    def put(self, tournament_id: int, refreshed_at: datetime, records: Mapping[int, Record]) -> None:
        self._records.put(tournament_id, refreshed_at, dict(records))

    def clear(self) -> None:
        self._records.clear()


records_cache = RecordsCache()
