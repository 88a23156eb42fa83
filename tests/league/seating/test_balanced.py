"""Balanced random seating: everyone placed once, fair byes, deterministic for its seed,
and on small instances exactly as few repeat meetings as the best possible split."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.seating import PastRound, PastTable, Request, make_seating, table_sizes
from league.seating.base import meetings, repeat_cost
from league.seating.v1.balanced import seat_order
from tests.support.notes import said
from tests.support.seating import entrants, least_repeat_cost, play, random_history


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 30), st.integers(2, 5), st.integers(0, 2), st.integers(0, 3), st.text(max_size=5))
def test_everyone_sits_once_or_has_a_bye(count: int, low: int, spread: int, rounds: int, seed: str) -> None:
    high = low + spread
    request = Request(
        entrants(count), low, high, rounds + 1, seed, random_history(count, low, high, rounds, 7)
    )
    seating = make_seating("balanced", request)  # validates: once each, sizes in bounds, within one
    sizes, byes = table_sizes(count, low, high)
    assert sorted(len(t.seats) for t in seating.tables) == sorted(sizes)
    assert len(seating.byes) == byes
    assert sorted([p for t in seating.tables for p in t.seats] + list(seating.byes)) == list(
        range(1, count + 1)
    )


@pytest.mark.parametrize(("count", "low", "high"), [(7, 4, 5), (10, 3, 3), (13, 4, 4)])
def test_byes_rotate_before_anyone_has_a_second(count: int, low: int, high: int) -> None:
    per_round = table_sizes(count, low, high)[1]
    played = play("balanced", count, low, high, rounds=2 * count // per_round, seed="byes")
    had: Counter[int] = Counter()
    for seating in played:
        assert len(seating.byes) == per_round
        for player in seating.byes:
            # a second bye only once every player has had a first
            assert had[player] == min(had[p] for p in range(1, count + 1))
            had[player] += 1
    assert set(had.values()) == {2}


def test_the_same_request_gives_the_same_seating_and_another_seed_another() -> None:
    history = random_history(20, 4, 4, 3, seed=1)
    request = Request(entrants(20), 4, 4, 4, "spring", history)
    first = make_seating("balanced", request)
    assert make_seating("balanced", request) == first
    others = {make_seating("balanced", Request(entrants(20), 4, 4, 4, f"s{n}", history)) for n in range(5)}
    assert len(others - {first}) >= 4


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from([(8, 4, 4), (9, 3, 3), (10, 3, 4), (8, 3, 5)]),
    st.integers(2, 3),
    st.integers(0, 10_000),
    st.text(max_size=4),
)
def test_repeat_cost_equals_the_exhaustive_optimum_margin_zero(
    shape: tuple[int, int, int], rounds: int, history_seed: int, seed: str
) -> None:
    """Margin 0: on 8-10 players with 2-3 random earlier rounds, ``balanced`` finds a
    split with exactly the least repeat cost of all splits (tried one by one here)."""
    count, low, high = shape
    request = Request(
        entrants(count), low, high, rounds + 1, seed, random_history(count, low, high, rounds, history_seed)
    )
    seating = make_seating("balanced", request)
    met = meetings(request.history)
    sizes = table_sizes(count, low, high)[0]
    assert repeat_cost([t.seats for t in seating.tables], met) == least_repeat_cost(
        range(1, count + 1), sizes, met
    )


def test_twelve_players_at_three_tables_of_four_reach_the_optimum() -> None:
    """Margin 0 on 12 players at tables of 4 after 3 random rounds (5,775 splits)."""
    for history_seed in range(3):
        request = Request(entrants(12), 4, 4, 4, "twelve", random_history(12, 4, 4, 3, history_seed))
        seating = make_seating("balanced", request)
        met = meetings(request.history)
        assert repeat_cost([t.seats for t in seating.tables], met) == least_repeat_cost(
            range(1, 13), [4, 4, 4], met
        )


def test_a_repeat_is_noted_when_it_cannot_be_avoided_v1() -> None:
    # four players at one table of four: they all met before (the notes of algorithm 1,
    # which a round stored before look-ahead seating must give again)
    history = (PastRound(1, (PastTable((1, 2, 3, 4)),)),)
    seating = make_seating("balanced", Request(entrants(4), 4, 4, 2, "s", history, algorithm=1))
    (table,) = seating.tables
    repeats = [n for n in said(table.notes, entrants(4)) if n.startswith("repeat meeting")]
    assert len(repeats) == 6
    assert "repeat meeting Ann and Bo (2nd time): the search found no seating without it" in repeats
    assert said(seating.notes, entrants(4))[-1] == (
        "repeat cost 24 (sum over pairs of times met, squared, this round included); "
        "6 repeat meetings this round"
    )


def test_no_repeat_is_noted_when_there_is_none_v1() -> None:
    seating = make_seating("balanced", Request(entrants(8), 4, 4, 1, "s", algorithm=1))
    assert all("no repeat meetings" in said(t.notes, entrants(8)) for t in seating.tables)
    assert said(seating.notes, entrants(8)) == (
        "repeat cost 12 (sum over pairs of times met, squared, this round included); "
        "0 repeat meetings this round",
    )


def test_first_dealer_is_who_has_dealt_first_least() -> None:
    # Ann dealt first twice, Bo once, Cy and Di never; Cy sat second after the dealer, Di third
    history = (
        PastRound(1, (PastTable((1, 2, 3, 4), first_dealer=0),)),
        PastRound(2, (PastTable((4, 1, 2, 3), first_dealer=1),)),
        PastRound(3, (PastTable((2, 3, 4, 1), first_dealer=0),)),
    )
    seating = make_seating("balanced", Request(entrants(4), 4, 4, 4, "s", history))
    seats = seating.tables[0].seats
    assert seats[0] in (3, 4)
    assert said(seating.tables[0].notes, entrants(4))[0] in {
        "Cy deals first (dealt first 0 times before)",
        "Di deals first (dealt first 0 times before)",
    }


@given(st.integers(0, 1000))
def test_seat_order_spreads_positions(seed: int) -> None:
    positions = {1: Counter({1: 3}), 2: Counter({2: 3}), 3: Counter({3: 3})}
    order = seat_order([1, 2, 3, 4], Counter({1: 1, 2: 1, 3: 1}), positions, random.Random(seed))
    # 4 has never dealt first; each other player avoids the position they always had
    assert order[0] == 4
    assert all(positions[p][i] == 0 for i, p in enumerate(order) if p != 4)


def test_players_deal_first_in_turn_over_rounds() -> None:
    played = play("balanced", 8, 4, 4, rounds=4, seed="dealers")
    dealt = Counter(t.seats[0] for s in played for t in s.tables)
    assert sorted(dealt.values()) == [1] * 8
