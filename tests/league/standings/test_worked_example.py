"""Standings worked out by hand for a small tournament with mixed table sizes.

Seven players, two rounds:

- round 1: game 11 at a 4-table (P1 P2 P3 P4 finish 1 2 3 4, game points 30 10 -15 -25)
  and game 12 at a 3-table (P5 P6 P7 finish 1 2 3, points 20 -5 -15);
- round 2: game 21 (P1 P5 P6 finish 2 1 3, points 5 15 -20), game 22 (P2 P3 P7, P2 and
  P3 level on first, points 10 10 -20), and P4 has the bye.

The expected figures below are worked out in the comments, not by the code under test.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

import pytest

from league.standings import random_draw, standings_from_logs
from tests.support.standings_logs import finished_log


def seats(*players: int) -> list[dict[str, Any]]:
    return [{"player": p, "bot": ""} for p in players]


ROUNDS = [
    {
        "number": 1,
        "byes": [],
        "tables": [{"seats": seats(1, 2, 3, 4), "game": 11}, {"seats": seats(5, 6, 7), "game": 12}],
    },
    {
        "number": 2,
        "byes": [4],
        "tables": [{"seats": seats(1, 5, 6), "game": 21}, {"seats": seats(2, 3, 7), "game": 22}],
    },
]
LOGS = {
    11: finished_log([1, 2, 3, 4], [30, 10, -15, -25]),
    12: finished_log([1, 2, 3], [20, -5, -15]),
    21: finished_log([2, 1, 3], [5, 15, -20]),
    22: finished_log([1, 1, 3], [10, 10, -20]),
}
ALL_TIEBREAKS = [
    "points",
    "wins",
    "average_placement",
    "played",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "head_to_head",
    "random",
]


def table(scoring: str, tiebreaks: list[str] | None = None, **more: Any) -> dict[int, dict[str, Any]]:
    settings = {
        "preset": "knock-rummy",
        "scoring": scoring,
        "tiebreaks": tiebreaks or [],
        "seed": "s1",
        **more,
    }
    return {row["player"]: row for row in standings_from_logs(settings, ROUNDS, LOGS)}


def points(rows: dict[int, dict[str, Any]]) -> dict[int, F]:
    return {p: F(row["points"]) for p, row in rows.items()}


def ranks(rows: dict[int, dict[str, Any]]) -> dict[int, int]:
    return {p: row["rank"] for p, row in rows.items()}


def test_points_scheme_sums_game_points_and_a_bye_is_worth_nothing() -> None:
    # P1 30+5, P2 10+10, P3 -15+10, P4 -25 + bye 0, P5 20+15, P6 -5-20, P7 -15-20
    assert points(table("points")) == {1: 35, 2: 20, 3: -5, 4: -25, 5: 35, 6: -25, 7: -35}


def test_placement_scheme_normalises_mixed_table_sizes() -> None:
    # [3,2,1,0] on a 4-table: 3 2 1 0. A 3-table place covers a third of the field:
    # 1st = avg over [0,1/3] = (3/4 + 2/12)*3 = 11/4, 2nd over [1/3,2/3] = 3/2, 3rd 1/4.
    # Two level on first at a 3-table share [0,2/3]: (3/4 + 2/4 + 1/6) * 3/2 = 17/8.
    # The bye is an average game: 3/2.
    expected = {
        1: 3 + F(3, 2),  # 1st of 4, 2nd of 3
        2: 2 + F(17, 8),
        3: 1 + F(17, 8),
        4: 0 + F(3, 2),
        5: F(11, 4) + F(11, 4),
        6: F(3, 2) + F(1, 4),
        7: F(1, 4) + F(1, 4),
    }
    assert points(table("placement")) == expected


def test_placement_with_a_longer_list() -> None:
    # [10,6,3,1,0] (five places): a 4-table place covers a quarter of five steps.
    # 1st: [0,1/4] = 10*(1/5) + 6*(1/20) -> /(1/4) = 8 + 6/5 = 46/5.
    rows = table("placement", placement_points=[10, 6, 3, 1, 0])
    p1_round1 = F(46, 5)
    # P1's 2nd of 3 covers [1/3,2/3]: 6*(2/5-1/3) + 3*(1/5) + 1*(2/3-3/5) = 2/5+3/5+1/15 = 16/15 -> *3 = 16/5
    assert F(rows[1]["points"]) == p1_round1 + F(16, 5)


def test_match_scheme_scores_the_share_of_opponents_beaten() -> None:
    # R1 4-table: 1, 2/3, 1/3, 0; 3-table: 1, 1/2, 0.  R2: P1 beats P6 only: 1/2, P5 1, P6 0;
    # P2 and P3 level (1/2 each) and beat P7: 3/4 each.  The bye: 1/2.
    expected = {1: F(3, 2), 2: F(17, 12), 3: F(13, 12), 4: F(1, 2), 5: F(2), 6: F(1, 2), 7: F(0)}
    assert points(table("match")) == expected


def test_every_tiebreak_value_worked_by_hand() -> None:
    rows = table("points", ALL_TIEBREAKS)
    tb = {p: row["tiebreaks"] for p, row in rows.items()}
    # Totals: P1 35, P2 20, P3 -5, P4 -25, P5 35, P6 -25, P7 -35.
    assert {p: tb[p]["points"] for p in tb} == {
        1: "35",
        2: "20",
        3: "-5",
        4: "-25",
        5: "35",
        6: "-25",
        7: "-35",
    }
    # firsts (level on first counts): P1 R1, P2 and P3 R2, P5 both.
    assert {p: tb[p]["wins"] for p in tb} == {1: 1, 2: 1, 3: 1, 4: 0, 5: 2, 6: 0, 7: 0}
    assert {p: tb[p]["average_placement"] for p in tb} == {
        1: "3/2",
        2: "3/2",
        3: "2",
        4: "4",
        5: "1",
        6: "5/2",
        7: "3",
    }
    assert {p: tb[p]["played"] for p in tb} == {1: 2, 2: 2, 3: 2, 4: 1, 5: 2, 6: 2, 7: 2}
    # Opponents' totals: P1 meets 20 -5 -25 | 35 -25 -> 0/5; P2 35 -5 -25 | -5 -35 -> -35/5;
    # P3 35 20 -25 | 20 -35 -> 15/5; P4 35 20 -5 -> 50/3; P5 -25 -35 | 35 -25 -> -50/4;
    # P6 35 -35 | 35 35 -> 70/4; P7 35 -25 | 20 -5 -> 25/4.
    assert {p: tb[p]["buchholz"] for p in tb} == {
        1: "0",
        2: "-7",
        3: "3",
        4: "50/3",
        5: "-25/2",
        6: "35/2",
        7: "25/4",
    }
    # Without the best and the worst: P1 -25 -5 20; P2 -25 -5 -5; P3 -25 20 20; P4 20;
    # P5 -25 -25; P6 35 35; P7 -5 20.
    assert {p: tb[p]["median_buchholz"] for p in tb} == {
        1: "-10/3",
        2: "-35/3",
        3: "5",
        4: "20",
        5: "-25",
        6: "35",
        7: "15/2",
    }
    # Sonneborn-Berger: P1 beat 20 -5 -25 (=-10), lost to P5, beat P6 (-25): -35.
    # P2: beat P3 -5, P4 -25; level with P3 (1/2 * -5), beat P7 -35: -135/2.
    # P3: beat P4 -25; level with P2 (1/2 * 20), beat P7 -35: -50.  P4: 0.
    # P5: beat -25 -35; beat 35 -25: -50.  P6: beat P7 -35: -35.  P7: 0.
    assert {p: tb[p]["sonneborn_berger"] for p in tb} == {
        1: "-35",
        2: "-135/2",
        3: "-50",
        4: "0",
        5: "-50",
        6: "-35",
        7: "0",
    }
    assert {p: tb[p]["random"] for p in tb} == {p: str(random_draw("s1", p)) for p in tb}


def test_default_tiebreaks_of_knock_rummy_rank_the_points_table() -> None:
    # Defaults: wins, average_placement, buchholz, head_to_head, random.
    # P1 and P5 level on 35: P5 has 2 wins. P4 and P6 level on -25, 0 wins each:
    # average place 4 against 5/2 puts P6 first.
    rows = table("points")
    assert ranks(rows) == {5: 1, 1: 2, 2: 3, 3: 4, 6: 5, 4: 6, 7: 7}
    assert list(rows[5]["tiebreaks"]) == ["wins", "average_placement", "buchholz", "head_to_head", "random"]
    # head_to_head was never needed: the players were apart before it.
    assert rows[5]["tiebreaks"]["head_to_head"] is None


def test_head_to_head_among_the_tied_then_the_seeded_draw() -> None:
    # P5 finished above P1 in round 2: head to head 1 to 0. P4 and P6 never met: 0 and 0,
    # so the seeded draw decides.
    rows = table("points", ["head_to_head", "random"])
    assert (rows[5]["rank"], rows[1]["rank"]) == (1, 2)
    assert (rows[5]["tiebreaks"]["head_to_head"], rows[1]["tiebreaks"]["head_to_head"]) == ("1", "0")
    assert rows[4]["tiebreaks"]["head_to_head"] == rows[6]["tiebreaks"]["head_to_head"] == "0"
    first = 4 if random_draw("s1", 4) > random_draw("s1", 6) else 6
    assert rows[first]["rank"] == 5 and rows[10 - first]["rank"] == 6


def test_the_draw_follows_the_seed() -> None:
    orders = set()
    for seed in ("a", "b", "c", "d", "e", "f"):
        settings = {"preset": "knock-rummy", "scoring": "points", "tiebreaks": ["random"], "seed": seed}
        rows = standings_from_logs(settings, ROUNDS, LOGS)
        orders.add(tuple(r["player"] for r in rows))
        assert rows == standings_from_logs(settings, ROUNDS, LOGS)  # reproducible
    assert len(orders) > 1


@pytest.mark.parametrize(
    ("tiebreak", "order"),
    [
        # match scheme: P4 and P6 are level on 1/2.
        ("wins", None),  # 0 and 0: they stay level
        ("average_placement", [6, 4]),  # 5/2 beats 4
        ("played", [6, 4]),  # 2 games against 1
        # match totals: P1 3/2, P2 17/12, P3 13/12, P4 1/2, P5 2, P6 1/2, P7 0.
        # P4 met P1 P2 P3: (18 + 17 + 13)/12 / 3 = 4/3; P6 met P5 P7 P1 P5: (2+0+3/2+2)/4 = 11/8.
        ("buchholz", [6, 4]),
        # P4 keeps only 17/12; P6 drops 0 and one 2: (3/2 + 2)/2 = 7/4.
        ("median_buchholz", [6, 4]),
        # P4 beat nobody: 0; P6 beat only P7, who has 0: 0. Still level.
        ("sonneborn_berger", None),
    ],
)
def test_each_tiebreak_separates_the_level_match_players(tiebreak: str, order: list[int] | None) -> None:
    rows = table("match", [tiebreak])
    if order is None:
        assert rows[4]["rank"] == rows[6]["rank"] == 5
        assert rows[7]["rank"] == 7
        return
    assert rows[order[0]]["rank"] == 5 and rows[order[1]]["rank"] == 6
