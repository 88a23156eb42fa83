"""Round robin: the circle method for two-player tables, a searched schedule with its
lower bound for larger tables; each round is a row of one schedule fixed by the seed."""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.seating import Request, SeatingError, make_seating, table_sizes
from league.seating.v1.balanced import pairs
from league.seating.v1.round_robin import berger, lower_bound, schedule_cost, social_golfer
from tests.support.notes import said
from tests.support.seating import entrants, play, random_history, splits


@given(st.integers(2, 17))
def test_berger_every_pair_meets_exactly_once(count: int) -> None:
    rounds = berger(list(range(count)))
    assert len(rounds) == (count if count % 2 else count - 1)
    met = Counter(frozenset(pair) for tables, _ in rounds for pair in tables)
    assert met == Counter(frozenset(p) for p in combinations(range(count), 2))
    for tables, byes in rounds:
        assert sorted([p for t in tables for p in t] + byes) == list(range(count))
    # an odd count: each player sits out exactly once
    assert Counter(p for _, byes in rounds for p in byes) == (
        Counter(range(count)) if count % 2 else Counter()
    )


@given(st.integers(2, 17))
def test_berger_first_dealers_are_balanced(count: int) -> None:
    rounds = berger(list(range(count)))
    dealt = Counter(a for tables, _ in rounds for a, _ in tables)
    games = Counter(p for tables, _ in rounds for t in tables for p in t)
    for player in range(count):
        # half of a player's games, rounded either way, dealing first
        assert abs(2 * dealt[player] - games[player]) <= 1


@pytest.mark.parametrize("count", [6, 7])
def test_two_player_rounds_follow_the_schedule(count: int) -> None:
    cycle = count if count % 2 else count - 1
    played = play("round_robin", count, 2, 2, rounds=2 * cycle, seed="pairs")
    first = [frozenset(t.seats) for s in played[:cycle] for t in s.tables]
    assert Counter(first) == Counter(frozenset(p) for p in combinations(range(1, count + 1), 2))
    # the second cycle repeats the first with the other player dealing first
    for a, b in zip(played[:cycle], played[cycle:], strict=True):
        assert [t.seats[::-1] for t in a.tables] == [t.seats for t in b.tables]
        assert a.byes == b.byes
    assert (
        said(played[cycle].notes, entrants(count))[0]
        == f"round robin: round 1 of {cycle} (cycle 2); every pair meets once a cycle"
    )


def test_the_schedule_depends_on_the_seed_not_the_history() -> None:
    request = Request(entrants(8), 2, 2, 3, "autumn")
    # two earlier rounds seated some other way
    history = random_history(8, 2, 2, 2, seed=3)
    again = make_seating("round_robin", Request(entrants(8), 2, 2, 3, "autumn", history=history))
    assert make_seating("round_robin", request) == again
    seatings = {make_seating("round_robin", Request(entrants(8), 2, 2, 3, f"s{n}")) for n in range(5)}
    assert len(seatings) >= 4


@pytest.mark.parametrize(("count", "size", "rounds"), [(16, 4, 5), (12, 3, 4), (13, 4, 4)])
def test_multi_player_schedule_rows_and_byes_v1(count: int, size: int, rounds: int) -> None:
    played = play("round_robin", count, size, size, rounds=rounds, seed="golf", algorithm=1)
    sizes, per_round = table_sizes(count, size, size)
    had: Counter[int] = Counter()
    for seating in played:
        assert sorted(len(t.seats) for t in seating.tables) == sorted(sizes)
        for player in seating.byes:
            assert had[player] == min(had[p] for p in range(1, count + 1))
            had[player] += 1
        assert len(seating.byes) == per_round
    # every round states the same schedule's cost and bound, and the cost is the real one
    met = Counter(pair for s in played for t in s.tables for pair in pairs(t.seats))
    cost = sum(m * m for m in met.values())
    bound = lower_bound(count, sizes, per_round, rounds)
    statement = said(played[0].notes, entrants(count))[1]
    assert all(s.notes[1] == played[0].notes[1] for s in played)
    found = re.fullmatch(
        r"schedule repeat cost (\d+) \(.*\); lower bound (\d+) \(counting pairs\): (.*)", statement
    )
    assert found is not None
    assert (int(found[1]), int(found[2])) == (cost, bound)
    assert found[3] == ("optimal" if cost == bound else f"{cost - bound} above it")
    assert cost >= bound


def test_sixteen_players_at_tables_of_four_meet_each_other_at_most_once() -> None:
    """The 16-4-5 social golfer instance has a perfect schedule; the search finds one."""
    schedule = social_golfer(list(range(16)), [4, 4, 4, 4], 0, 5, random.Random("golf"))
    met = Counter(pair for row, _ in schedule for group in row for pair in pairs(group))
    assert max(met.values()) == 1
    assert lower_bound(16, [4, 4, 4, 4], 0, 5) == 120


@pytest.mark.parametrize(
    ("count", "sizes", "byes", "rounds", "bound"),
    [(8, [4, 4], 0, 3, 52), (9, [4, 4], 1, 3, 36), (6, [3, 3], 0, 10, 240), (5, [2, 2], 1, 1, 2)],
)
def test_lower_bound_by_counting(count: int, sizes: list[int], byes: int, rounds: int, bound: int) -> None:
    assert lower_bound(count, sizes, byes, rounds) == bound


def test_multi_player_rounds_are_rows_of_one_schedule_v1() -> None:
    full = play("round_robin", 12, 4, 4, rounds=3, seed="rows", algorithm=1)
    alone = make_seating("round_robin", Request(entrants(12), 4, 4, 3, "rows", total_rounds=3, algorithm=1))
    assert alone == full[2]
    other = make_seating("round_robin", Request(entrants(12), 4, 4, 3, "other", total_rounds=3, algorithm=1))
    assert other != alone


@settings(max_examples=15, deadline=None)
@given(st.integers(3, 14), st.integers(2, 4), st.integers(1, 3))
def test_every_row_places_everyone_once(count: int, size: int, rounds: int) -> None:
    for number in range(1, rounds + 1):
        # make_seating validates the row
        make_seating(
            "round_robin", Request(entrants(count), size, size + 1, number, "any", total_rounds=rounds)
        )


def test_rounds_beyond_the_schedule_are_refused() -> None:
    with pytest.raises(SeatingError) as caught:
        make_seating("round_robin", Request(entrants(8), 4, 4, 4, "s", total_rounds=3))
    assert (caught.value.code, caught.value.message) == (
        "beyond_schedule",
        "round 4 is beyond the round robin's 3 rounds",
    )


def test_rounds_come_from_params_and_must_be_whole() -> None:
    seating = make_seating("round_robin", Request(entrants(8), 4, 4, 2, "s", params={"rounds": 2}))
    assert said(seating.notes, entrants(8))[0] == "round robin: round 2 of 2"
    with pytest.raises(SeatingError) as caught:
        make_seating("round_robin", Request(entrants(8), 4, 4, 1, "s", params={"rounds": "two"}))
    assert (caught.value.code, caught.value.message) == (
        "invalid_param",
        "rounds 'two': need a whole number from 1 to 100",
    )


def test_without_a_round_count_the_schedule_is_long_enough_to_meet_everyone() -> None:
    # 9 players at tables of 3 meet 2 new players a round: 4 rounds
    seating = make_seating("round_robin", Request(entrants(9), 3, 3, 1, "s"))
    assert said(seating.notes, entrants(9))[0] == "round robin: round 1 of 4"


def test_two_player_round_robin_needs_two_players() -> None:
    with pytest.raises(SeatingError) as caught:
        make_seating("round_robin", Request(entrants(1), 2, 2, 1, "s"))
    assert caught.value.code == "too_few_players"


def test_eight_players_at_tables_of_four_over_three_rounds_reach_the_optimum() -> None:
    """The counting bound (52) is not reachable here; the schedule's cost equals the least
    of every schedule, found by trying them all (the first row fixed: players are alike)."""
    everyone = list(range(8))
    rows = list(splits(everyone, [4, 4]))
    first = rows[0]
    least = min(
        sum(
            m * m for m in Counter(p for row in (first, b, c) for group in row for p in pairs(group)).values()
        )
        for b in rows
        for c in rows
    )
    schedule = social_golfer(everyone, [4, 4], 0, 3, random.Random("eight"))
    assert least == 60
    assert schedule_cost(schedule) == least
    assert lower_bound(8, [4, 4], 0, 3) == 52


def test_multi_player_first_dealers_take_turns_over_the_schedule() -> None:
    played = play("round_robin", 16, 4, 4, rounds=4, seed="deal")
    dealt: Counter[int] = Counter()
    for seating in played:
        for table in seating.tables:
            # whoever at the table has dealt first least often so far deals first
            assert dealt[table.seats[0]] == min(dealt[p] for p in table.seats)
        dealt.update(t.seats[0] for t in seating.tables)
    assert max(dealt.values()) <= 2
    assert len(dealt) >= 12
