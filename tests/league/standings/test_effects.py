"""Byes, drop-outs, abandoned games, replaced seats, bots, games in play, league
seasons, corrections in a log, and bad settings: each effect documented in
league/standings/compute.py, tested here."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from league.standings import (
    GameFold,
    Settings,
    StandingsError,
    TableResult,
    check_settings,
    standings_from_logs,
    table_result,
)
from tests.support.standings_logs import event, finished, finished_log, plain, scored, started


def seats(*players: int | str) -> list[dict[str, Any]]:
    return [{"player": None, "bot": p} if isinstance(p, str) else {"player": p, "bot": ""} for p in players]


def by_player(settings: dict[str, Any], rounds: list[dict[str, Any]], logs: dict[int, Any]) -> dict[int, Any]:
    return {
        row["player"]: row for row in standings_from_logs({"preset": "knock-rummy", **settings}, rounds, logs)
    }


def test_a_bye_scores_bye_points_when_set_and_is_no_game() -> None:
    rounds = [{"number": 1, "byes": [3], "tables": [{"seats": seats(1, 2), "game": 1}]}]
    logs = {1: finished_log([1, 2], [10, -10])}
    rows = by_player({"scoring": "points", "bye_points": "7/2"}, rounds, logs)
    assert rows[3]["points"] == "7/2" and rows[3]["byes"] == 1 and rows[3]["played"] == 0
    assert by_player({"scoring": "match"}, rounds, logs)[3]["points"] == "1/2"
    assert by_player({"scoring": "match", "bye_points": "1"}, rounds, logs)[3]["points"] == "1"


def test_an_abandoned_game_counts_for_nobody_until_the_abandonment_is_retracted() -> None:
    log = [started(2), plain(), scored(1, [5, -5]), event("GameAbandoned", reason="fire alarm")]
    rounds = [{"number": 1, "byes": [], "tables": [{"seats": seats(1, 2), "game": 1}]}]
    rows = by_player({"scoring": "points", "tiebreaks": ["wins"]}, rounds, {1: log})
    assert [(rows[p]["points"], rows[p]["played"], rows[p]["abandoned"]) for p in (1, 2)] == [("0", 0, 1)] * 2
    assert rows[1]["rank"] == rows[2]["rank"] == 1
    reopened = [*log, event("Retracted", count=1, reason="alarm was a test"), plain(), scored(2, [1, -1])]
    reopened.append(finished([1, 2], [6, -6]))
    rows = by_player({"scoring": "points"}, rounds, {1: reopened})
    assert (rows[1]["points"], rows[1]["abandoned"], rows[1]["played"]) == ("6", 0, 1)


def test_a_replaced_seat_scores_for_the_player_seated_there() -> None:
    log = [started(2), event("SeatReplaced", seat=1, name="Sub", bot=None), plain(), scored(1, [-4, 4])]
    log.append(finished([2, 1], [-4, 4]))
    rounds = [{"number": 1, "byes": [], "tables": [{"seats": seats(1, 2), "game": 1}]}]
    rows = by_player({"scoring": "points"}, rounds, {1: log})
    assert (rows[2]["points"], rows[2]["replaced"], rows[2]["rank"]) == ("4", 1, 1)
    assert rows[1]["replaced"] == 0
    assert table_result(log).replaced == (1,)


def test_bots_are_opponents_for_places_but_have_no_row_and_no_buchholz() -> None:
    rounds = [{"number": 1, "byes": [], "tables": [{"seats": seats(1, "greedy", 2), "game": 1}]}]
    logs = {1: finished_log([2, 1, 3], [0, 9, -9])}
    rows = by_player({"scoring": "match", "tiebreaks": ["buchholz"]}, rounds, logs)
    assert set(rows) == {1, 2}
    assert rows[1]["points"] == "1/2"  # beat player 2, lost to the bot
    assert rows[1]["tiebreaks"]["buchholz"] == "0"  # only player 2 (0 points) counts


def test_games_in_play_and_unopened_tables_count_nothing_yet() -> None:
    rounds = [
        {
            "number": 1,
            "byes": [],
            "tables": [{"seats": seats(1, 2), "game": 1}, {"seats": seats(3, 4), "game": None}],
        }
    ]
    logs = {1: [started(2), plain(), scored(1, [5, -5])]}
    rows = by_player({"scoring": "points"}, rounds, logs)
    assert {p: (rows[p]["points"], rows[p]["played"], rows[p]["in_play"]) for p in rows} == {
        p: ("0", 0, 1) for p in (1, 2, 3, 4)
    }


def test_a_drop_out_keeps_what_they_scored() -> None:
    rounds = [
        {
            "number": 1,
            "byes": [],
            "tables": [{"seats": seats(1, 2), "game": 1}, {"seats": seats(3, 4), "game": 2}],
        },
        {"number": 2, "byes": [], "tables": [{"seats": seats(2, 3, 4), "game": 3}]},  # 1 dropped out
    ]
    logs = {
        1: finished_log([1, 2], [8, -8]),
        2: finished_log([1, 2], [1, -1]),
        3: finished_log([1, 2, 3], [2, 0, -2]),
    }
    rows = by_player({"scoring": "points"}, rounds, logs)
    assert (rows[1]["points"], rows[1]["played"], rows[1]["rank"]) == ("8", 1, 1)


def test_a_league_season_ranks_only_players_with_min_games() -> None:
    nights = [
        {"number": n, "byes": [], "tables": [{"seats": seats(1, 2) if n < 3 else seats(1, 3), "game": n}]}
        for n in (1, 2, 3)
    ]
    logs = {
        1: finished_log([1, 2], [5, -5]),
        2: finished_log([1, 2], [5, -5]),
        3: finished_log([2, 1], [-1, 30]),
    }
    rows = standings_from_logs(
        {"preset": "knock-rummy", "scoring": "points", "kind": "league", "min_games": 2}, nights, logs
    )
    # Player 3 has the most points but one night only: listed last, unranked.
    assert [(r["player"], r["rank"], r["qualified"]) for r in rows] == [
        (1, 1, True),
        (2, 2, True),
        (3, None, False),
    ]
    tournament = standings_from_logs(
        {"preset": "knock-rummy", "scoring": "points", "min_games": 2}, nights, logs
    )
    assert [r["player"] for r in tournament] == [3, 1, 2]  # min_games is for league seasons


def test_the_fold_undoes_what_a_retraction_undoes() -> None:
    log = [started(2), plain(), scored(1, [3, -3]), finished([1, 2], [3, -3])]
    log.append(event("Retracted", count=3, reason="wrong knocker"))
    fold = GameFold()
    steps = [fold.feed(e) for e in log]
    assert steps[-1] is not None and (steps[-1].type, steps[-1].hand, steps[-1].reason) == (
        "Retracted",
        1,
        "wrong knocker",
    )
    assert fold.result().status == "playing" and fold.result().hands == ()
    fold.feed(event("ScoreAdjusted", seat=0, points="-2", reason="slow play"))
    assert fold.result().adjustments == ((0, F(-2), "slow play"),)


def test_a_retraction_of_more_than_is_in_effect_is_an_invalid_log() -> None:
    with pytest.raises(StandingsError) as caught:
        table_result([started(2), plain(), event("Retracted", count=2, reason="x")])
    assert caught.value.code == "invalid_log"


def test_a_table_result_round_trips_through_its_dict() -> None:
    log = [started(3), event("SeatReplaced", seat=2, name="B", bot="greedy"), plain(), scored(1, [1, 2, -3])]
    log += [
        event("ScoreAdjusted", seat=1, points="-1/2", reason="late"),
        finished([2, 1, 3], [1, F(3, 2), -3]),
    ]
    result = table_result(log)
    assert TableResult.from_dict(result.to_dict()) == result
    assert result.places == (2, 1, 3) and result.points == (1, F(3, 2), -3)


def test_a_table_whose_game_has_other_seats_is_refused() -> None:
    rounds = [{"number": 1, "byes": [], "tables": [{"seats": seats(1, 2, 3), "game": 1}]}]
    with pytest.raises(StandingsError) as caught:
        standings_from_logs({"scoring": "points"}, rounds, {1: finished_log([1, 2], [1, -1])})
    assert caught.value.code == "seats_mismatch"


@pytest.mark.parametrize(
    ("settings", "code"),
    [
        ({"scoring": "elo"}, "unknown_scoring"),
        ({"tiebreaks": ["wins", "luck"]}, "unknown_tiebreak"),
        ({"tiebreaks": ["wins", "wins"]}, "duplicate_tiebreak"),
        ({"tiebreaks": "wins"}, "invalid_tiebreaks"),
        ({"placement_points": ["three"]}, "invalid_placement_points"),
        ({"placement_points": [True]}, "invalid_placement_points"),
        ({"placement_points": "3,2"}, "invalid_placement_points"),
        ({"bye_points": "half"}, "invalid_bye_points"),
        ({"min_games": -1}, "invalid_min_games"),
        ({"kind": "ladder"}, "invalid_kind"),
    ],
)
def test_bad_settings_have_stable_codes(settings: dict[str, Any], code: str) -> None:
    with pytest.raises(StandingsError) as caught:
        check_settings({"preset": "knock-rummy", **settings})
    assert caught.value.code == code


def test_default_tiebreaks_per_preset() -> None:
    assert Settings.from_mapping({"preset": "gin-rummy"}).tiebreaks[0] == "sonneborn_berger"
    assert Settings.from_mapping({"preset": "knock-rami"}).tiebreaks[0] == "wins"
    assert Settings.from_mapping({"preset": "gin-rummy", "tiebreaks": ["played"]}).tiebreaks == ("played",)
