"""Knockout seating, without a database: bracket placement and byes by seed, winners
advancing in bracket order, drop-outs, the multi-player final table."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.seating import Entrant, PastRound, PastTable, Request, Seating, SeatingError, make_seating
from league.seating.knockout import bracket_positions
from tests.support.notes import said


def seeded(count: int) -> tuple[Entrant, ...]:
    # registered in reverse seed order, so the seed (not the order) must decide
    return tuple(Entrant(100 + s, f"S{s}", seed=s) for s in range(count, 0, -1))


def request_for(players: tuple[Entrant, ...], history: tuple[PastRound, ...] = ()) -> Request:
    return Request(players, 2, 2, len(history) + 1, "cup", history=history)


def played(seating: Seating, number: int, winners: random.Random | dict[int, int]) -> PastRound:
    """The round as played: each table's winner from ``winners`` (id -> beats anyone)
    or a seeded coin."""
    tables = []
    for table in seating.tables:
        a, b = table.seats
        if isinstance(winners, dict):
            win = a if winners.get(a, 0) >= winners.get(b, 0) else b
        else:
            win = winners.choice((a, b))
        tables.append(PastTable(table.seats, 0, ((win,), (b if win == a else a,))))
    return PastRound(number, tuple(tables), seating.byes)


def test_bracket_positions() -> None:
    assert bracket_positions(2) == [1, 2]
    assert bracket_positions(4) == [1, 4, 2, 3]
    assert bracket_positions(16)[:4] == [1, 16, 8, 9]


def test_first_round_of_sixteen() -> None:
    players = seeded(16)
    seating = make_seating("knockout", request_for(players))
    seeds = [sorted(p - 100 for p in t.seats) for t in seating.tables]
    assert seeds == [[1, 16], [8, 9], [4, 13], [5, 12], [2, 15], [7, 10], [3, 14], [6, 11]]
    assert seating.byes == ()


def test_byes_to_top_seeds_with_notes() -> None:
    seating = make_seating("knockout", request_for(seeded(6)))
    assert seating.byes == (101, 102)
    assert said(seating.notes, seeded(6)) == ("bye: S1 (top seed)", "bye: S2 (seed 2)")
    assert [sorted(p - 100 for p in t.seats) for t in seating.tables] == [[4, 5], [3, 6]]


@settings(max_examples=60, deadline=None)
@given(st.integers(5, 16), st.integers(0, 10_000))
def test_bracket_properties(count: int, coin: int) -> None:
    players = seeded(count)
    rng = random.Random(coin)
    history: tuple[PastRound, ...] = ()
    seating = make_seating("knockout", request_for(players))
    size = 1 << (count - 1).bit_length()
    # byes go to the top seeds, exactly as many as make the field a power of two
    assert sorted(p - 100 for p in seating.byes) == list(range(1, size - count + 1))
    met_top_two = None
    rounds = 0
    alive = {p.id for p in players}
    while True:
        rounds += 1
        for table in seating.tables:
            if set(table.seats) == {101, 102}:
                met_top_two = rounds
        # the top two seeds always win, everyone else by coin: they must reach the final
        past = played(seating, rounds, {101: 2, 102: 1} if rng.random() < 0.5 else rng)
        history += (past,)
        alive = {t.ranking[0][0] for t in past.tables if t.ranking} | set(past.byes)
        if len(alive) == 1:
            break
        active = tuple(p for p in players if p.id in alive)
        seating = make_seating("knockout", request_for(active, history))
        assert len(seating.byes) == 0
    assert rounds == (size - 1).bit_length()
    if met_top_two is not None:
        assert met_top_two == rounds, "the top two seeds met before the final"
    finished = request_for(tuple(p for p in players if p.id in alive), history)
    with pytest.raises(SeatingError) as error:
        make_seating("knockout", finished)
    assert error.value.code == "knockout_finished"


def test_top_two_meet_in_the_final_when_they_win() -> None:
    players = seeded(11)
    strength = {p.id: 20 - (p.seed or 0) for p in players}
    history: tuple[PastRound, ...] = ()
    active = players
    while True:
        seating = make_seating("knockout", request_for(active, history))
        if not seating.byes and len(seating.tables) == 1:
            assert set(seating.tables[0].seats) == {101, 102}
            assert said(seating.tables[0].notes, players) == (
                "S1 advances from table 1",
                "S2 advances from table 2",
            )
            break
        past = played(seating, len(history) + 1, strength)
        history += (past,)
        alive = {t.ranking[0][0] for t in past.tables if t.ranking} | set(past.byes)
        active = tuple(p for p in players if p.id in alive)


def test_later_round_keeps_bracket_order_and_notes() -> None:
    players = seeded(5)  # size 8: seeds 1, 2, 3 have byes; 4 v 5
    first = make_seating("knockout", request_for(players))
    assert first.byes == (101, 102, 103)
    past = played(first, 1, {105: 9})  # seed 5 upsets seed 4
    seating = make_seating("knockout", request_for(tuple(p for p in players if p.id != 104), (past,)))
    assert [set(t.seats) for t in seating.tables] == [{101, 105}, {102, 103}]
    assert "S5 advances from table 1" in said(seating.tables[0].notes, players)
    assert "S1 advances from a bye" in said(seating.tables[0].notes, players)


def test_incomplete_round_is_an_error() -> None:
    players = seeded(4)
    first = make_seating("knockout", request_for(players))
    past = PastRound(1, tuple(PastTable(t.seats) for t in first.tables))
    with pytest.raises(SeatingError) as error:
        make_seating("knockout", request_for(players[:2], (past,)))
    assert error.value.code == "round_not_complete"
    assert "table 1 has no result yet" in error.value.message


def test_drop_out_gives_the_opponent_a_bye_and_losers_sit_out() -> None:
    players = seeded(4)
    first = make_seating("knockout", request_for(players))
    past = played(first, 1, {101: 9, 102: 9})
    # seed 2 withdraws; seed 4 (eliminated) is still passed in as active
    active = tuple(p for p in players if p.id in (101, 104))
    seating = make_seating("knockout", request_for(active, (past,)))
    assert seating.tables == ()
    # a knocked-out player is out, not on a bye (algorithm 1 listed them among the byes)
    assert seating.byes == (101,)
    assert seating.out == (104,)
    assert "out: S4 is no longer in the bracket" in said(seating.notes, players)
    old = make_seating("knockout", dataclasses.replace(request_for(active, (past,)), algorithm=1))
    assert (old.byes, old.out) == ((101, 104), ())


def test_first_dealer_alternates() -> None:
    players = seeded(4)
    # round 1: seed 1 dealt first, seed 2 did not (seat 1 of its table dealt)
    past = PastRound(
        1,
        (
            PastTable((101, 104), 0, ((101,), (104,))),
            PastTable((102, 103), 1, ((102,), (103,))),
        ),
    )
    seating = make_seating("knockout", request_for(players[2:], (past,)))
    assert seating.tables[0].seats == (102, 101)


def test_multi_player_final_table() -> None:
    players = tuple(Entrant(n, f"P{n}") for n in range(1, 9))
    standings = (3, 1, 2, 5, 4, 6, 7, 8)
    request = Request(players, 3, 5, 4, "cup", standings=standings, params={"final_size": 4})
    seating = make_seating("knockout", request)
    assert set(seating.tables[0].seats) == {3, 1, 2, 5}
    assert seating.tables[0].seats[0] == 3
    assert seating.byes == ()
    assert seating.out == (4, 6, 7, 8)
    assert said(seating.notes, players)[0] == "final table: the top 4 of the standings"
    assert "out: P4 (rank 5, not in the final)" in said(seating.notes, players)
    default = make_seating("knockout", Request(players, 3, 5, 4, "cup", standings=standings))
    assert len(default.tables[0].seats) == 5


def test_multi_player_final_size_out_of_bounds() -> None:
    players = tuple(Entrant(n, f"P{n}") for n in range(1, 9))
    request = Request(players, 3, 5, 4, "cup", params={"final_size": 6})
    with pytest.raises(SeatingError) as error:
        make_seating("knockout", request)
    assert error.value.code == "invalid_table_size"


def test_too_few_players_and_foreign_history() -> None:
    with pytest.raises(SeatingError) as error:
        make_seating("knockout", request_for(seeded(1)))
    assert error.value.code == "too_few_players"
    # round 1 of six players seated as three tables: not a knockout bracket (needs 2 byes)
    players = seeded(6)
    past = PastRound(1, (PastTable((101, 102), 0, ((101,), (102,))),) * 3)
    with pytest.raises(SeatingError) as error:
        make_seating("knockout", request_for(players, (past,)))
    assert error.value.code == "bracket_mismatch"


def test_final_of_two_then_finished() -> None:
    players = seeded(2)
    final = make_seating("knockout", request_for(players))
    assert [set(t.seats) for t in final.tables] == [{101, 102}]
    past = played(final, 1, {102: 9})
    with pytest.raises(SeatingError) as error:
        make_seating("knockout", request_for(players[:1], (past,)))
    assert error.value.code == "knockout_finished"
    assert "S2 won the final" in error.value.message
