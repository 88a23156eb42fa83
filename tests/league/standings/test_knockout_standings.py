"""A knockout's standings: a player knocked out is out, not on a bye.

Six players seeded 1-6 in a two-player knockout: round 1 gives seeds 1 and 2 a bye
(the bracket of 8) and seats 4-5 and 3-6; round 2 the four left; round 3 the final.
The lower seed loses every game. Byes are worth 1 point (``bye_points``), a win 1,
a loss 0 (the placement scheme with points 1, 0).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest

from league.seating import Entrant, PastRound, PastTable, Request, Seating, make_seating
from league.standings import standings_from_logs
from tests.support.standings_logs import finished_log

SETTINGS = {
    "preset": "knock-rummy",
    "scoring": "placement",
    "placement_points": [1, 0],
    "bye_points": "1",
    "tiebreaks": ["wins"],
    "seed": "cup",
}


def play_knockout(algorithm: int) -> tuple[list[dict[str, Any]], dict[int, list[dict[str, Any]]]]:
    """Three rounds seated by the knockout, the better seed winning each table, as the
    standings read them: rounds (method, byes, tables with games) and game logs."""
    players = tuple(Entrant(n, f"S{n}", seed=n) for n in range(1, 7))
    history: list[PastRound] = []
    rounds: list[dict[str, Any]] = []
    logs: dict[int, list[dict[str, Any]]] = {}
    for number in range(1, 4):
        request = Request(players, 2, 2, number, "cup", tuple(history), algorithm=algorithm)
        seating: Seating = make_seating("knockout", request)
        tables, past = [], []
        for k, table in enumerate(seating.tables):
            game = 10 * number + k
            winner = min(table.seats)
            places = [1 if p == winner else 2 for p in table.seats]
            logs[game] = finished_log(places, [10 if p == winner else -10 for p in table.seats])
            tables.append({"seats": [{"player": p, "bot": ""} for p in table.seats], "game": game})
            past.append(PastTable(table.seats, 0, ((winner,), (max(table.seats),))))
        rounds.append({"number": number, "method": "knockout", "byes": list(seating.byes), "tables": tables})
        history.append(PastRound(number, tuple(past), seating.byes))
    return rounds, logs


def test_six_player_knockout_standings_after_round_three() -> None:
    rounds, logs = play_knockout(algorithm=2)
    # the seating lists only real byes: seeds 1 and 2 in round 1, nobody after
    assert [r["byes"] for r in rounds] == [[1, 2], [], []]
    rows = {row["player"]: row for row in standings_from_logs(SETTINGS, rounds, logs)}
    # seed 1: bye, beat 4, beat 2 in the final; seed 2: bye, beat 3, lost the final;
    # 3 and 4 won in round 1 and lost in round 2; 5 and 6 lost in round 1
    assert {p: Fraction(row["points"]) for p, row in rows.items()} == {1: 3, 2: 2, 3: 1, 4: 1, 5: 0, 6: 0}
    assert {p: row["byes"] for p, row in rows.items()} == {1: 1, 2: 1, 3: 0, 4: 0, 5: 0, 6: 0}
    assert {p: row["played"] for p, row in rows.items()} == {1: 2, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1}
    assert rows[1]["rank"] == 1 and rows[2]["rank"] == 2


def test_rounds_seated_before_the_fix_score_the_same() -> None:
    """Algorithm 1 listed the knocked-out players among the byes; the standings know
    they were out (the round's method eliminates) and give them nothing."""
    old_rounds, logs = play_knockout(algorithm=1)
    assert [sorted(r["byes"]) for r in old_rounds] == [[1, 2], [5, 6], [3, 4, 5, 6]]
    new_rounds, _ = play_knockout(algorithm=2)
    assert standings_from_logs(SETTINGS, old_rounds, logs) == standings_from_logs(SETTINGS, new_rounds, logs)


@pytest.mark.parametrize("method", ["balanced", "swiss", None])
def test_a_bye_outside_a_knockout_still_scores(method: str | None) -> None:
    rounds, logs = play_knockout(algorithm=1)
    other = [dataclasses.replace(_Round(**r), method=method).as_dict() for r in rounds]
    rows = {row["player"]: row for row in standings_from_logs(SETTINGS, other, logs)}
    assert rows[5]["byes"] == 2
    assert rows[3]["byes"] == 1


@dataclasses.dataclass(frozen=True)
class _Round:
    number: int
    method: str | None
    byes: list[int]
    tables: list[dict[str, Any]]

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)
