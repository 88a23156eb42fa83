"""How games end, scripted quickly through the physical quick path (announced counts)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from engine import (
    AbandonGame,
    AdjustScore,
    DecideReentry,
    IllegalMove,
    RecordHandResult,
    ReplaceSeat,
    Seat,
    get_ruleset,
    view,
)
from tests.support.table import Table, points


def counts(table: Table, knocker: int | None, **by_seat: int) -> None:
    table.do(RecordHandResult(knocker=knocker, deadwood={int(s[1:]): n for s, n in by_seat.items()}))


def test_rami_everyone_out_at_once_and_nobody_reenters() -> None:
    table = Table(get_ruleset("rami"), ["A", "B", "C"], mode="physical", stake=10)
    counts(table, 1, s0=50, s1=30, s2=50)
    counts(table, 2, s0=55, s1=80, s2=60)  # 105, 110, 110: all out at once
    assert table.s.tally.pending == (2, 0, 1)  # from the left of dealer 1
    for seat in (2, 0, 1):
        table.do(DecideReentry(seat, False))
    result = table.s.result
    assert table.s.status == "finished" and result is not None
    # Ruling: the lowest score wins the pool.
    assert result.winners == (0,) and result.ranking == ((0,), (1, 2))
    assert points(result.points) == ["20", "-10", "-10"]


def test_rami_tied_lowest_share_the_pool() -> None:
    table = Table(
        get_ruleset("rami", reentry=False, joker_value=50), ["A", "B", "C"], mode="physical", stake=10
    )
    counts(table, 1, s0=100, s1=100, s2=120)  # jokers at 50: a 7-card hand may hold 150
    result = table.s.result
    assert result is not None and result.winners == (0, 1) and result.places == (1, 1, 3)
    assert points(result.points) == ["5", "5", "-10"]


def test_rami_reentry_with_nobody_still_in_takes_the_ruling_score() -> None:
    table = Table(get_ruleset("rami", joker_value=50), ["A", "B", "C"], mode="physical", stake=10)
    counts(table, 1, s0=100, s1=105, s2=120)
    table.do(DecideReentry(1, True))  # pays 15 of the pool of 30
    table.do(DecideReentry(2, True))  # pays half of the 45 now in the pool
    table.do(DecideReentry(0, False))
    state = table.s
    # Ruling: nobody was still in, so re-entering seats get elimination_score - 1.
    assert points(state.scores) == ["100", "99", "99"] and state.tally.pool == Fraction(135, 2)
    assert points(state.tally.paid) == ["10", "25", "65/2"]
    assert state.status == "awaiting_deal" and state.active_seats == (1, 2)
    counts(table, 1, s1=2, s2=0)  # seat 0 is out: only seats 1 and 2 play
    # Seat 1 reaches 101 and has re-entered once already: seat 2 survives alone.
    result = table.s.result
    assert table.s.status == "finished" and result is not None
    assert points(table.s.scores) == ["100", "101", "89"]
    assert result.winners == (2,) and result.ranking == ((2,), (1,), (0,))
    assert points(result.points) == ["-10", "-25", "35"]
    with pytest.raises(IllegalMove) as error:
        table.do(DecideReentry(1, True))
    assert error.value.code == "game_over"


def test_rami_a_seat_reenters_only_once() -> None:
    table = Table(get_ruleset("rami", joker_value=50), ["A", "B", "C"], mode="physical")
    counts(table, 1, s0=120, s1=0, s2=10)
    table.do(DecideReentry(0, True))  # back in at 10, the highest score still in
    assert points(table.s.scores) == ["10", "-10", "10"]
    counts(table, 2, s0=95, s1=0, s2=0)  # seat 0 is out again: no second re-entry
    assert table.s.status == "awaiting_deal" and table.s.tally.eliminated == (True, False, False)


def test_target_score_highest_wins_and_ties_share() -> None:
    table = Table(
        get_ruleset("knock-rummy", game_end="target_score", hands=None, target_score=30),
        ["A", "B", "C"],
        mode="physical",
    )
    counts(table, 0, s0=0, s1=20, s2=20)  # rum: each pays 20 + 25
    assert points(table.s.scores) == ["90", "-45", "-45"]
    result = table.s.result
    assert result is not None and result.ranking == ((0,), (1, 2)) and result.places == (1, 2, 2)
    assert result.rums == (1, 0, 0)


def test_adjustments_replacements_and_abandonment() -> None:
    table = Table(get_ruleset("knock-rummy", hands=2), ["A", "B"], mode="physical")
    table.do(AdjustScore(1, Fraction(-5), "late arrival"))
    table.do(ReplaceSeat(1, "Robo", "greedy"))
    assert table.s.seats == (Seat("A"), Seat("Robo", "greedy")) and points(table.s.scores) == ["0", "-5"]
    counts(table, 0, s0=3, s1=10)
    counts(table, 1, s0=10, s1=10)  # the knocker ties and steps aside: seat 0 has nothing to collect
    result = table.s.result
    assert result is not None and points(result.points) == ["7", "-12"]  # the penalty counts
    with pytest.raises(IllegalMove) as over:
        table.do(AbandonGame("too late"))
    assert over.value.code == "game_over"
    other = Table(get_ruleset("gin"), ["A", "B"])
    other.do(AbandonGame("players left"))
    assert other.s.status == "abandoned" and other.s.result is None and other.s.to_move is None


def test_state_and_view_are_json_ready() -> None:
    table = Table(get_ruleset("rami", joker_value=50), ["A", "B", "C"], mode="physical", stake=3)
    counts(table, 1, s0=120, s1=0, s2=10)
    for data in (table.s.to_dict(), view(table.s).to_dict(), view(table.s, 0).to_dict()):
        assert json.loads(json.dumps(data)) == data
    snapshot = table.s.to_dict()
    assert snapshot["status"] == "awaiting_reentry" and snapshot["pending_reentry"] == [0]
    assert snapshot["pool"] == "9" and snapshot["results"][0]["verified"] is False
