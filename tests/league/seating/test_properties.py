"""Properties every seating method keeps, checked across the methods (each method's own
file checks what is particular to it: rematch avoidance by brute force for the 2-player
Swiss, the exhaustive optimum for ``balanced``, the bracket for ``knockout``).

- every active player is seated exactly once or has a bye, and nobody else is placed;
- table sizes are within bounds and differ by at most one;
- byes are minimal (as few as the table sizes allow) and rotate: nobody has a second
  bye before every active player has had one;
- each method is deterministic for its seed, also after the request's JSON round trip
  (what a round stores), and the input digest is stable.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.seating import Request, Seating, input_digest, make_seating, table_sizes
from tests.support.seating import entrants, past, random_history

RANDOM_METHODS = ("balanced", "swiss", "round_robin")


def _placed(seating: Seating) -> list[int]:
    return [p for t in seating.tables for p in t.seats] + list(seating.byes)


def _check_valid(seating: Seating, request: Request) -> None:
    ids = sorted(p.id for p in request.players)
    assert sorted(_placed(seating)) == ids  # exactly once each
    sizes = [len(t.seats) for t in seating.tables]
    assert all(request.table_min <= s <= request.table_max for s in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1


@st.composite
def requests(draw: st.DrawFn, method: str) -> Request:
    count = draw(st.integers(0, 18))
    low = draw(st.integers(2, 4))
    high = low + draw(st.integers(0, 2))
    rounds = draw(st.integers(0, 3))
    seed = draw(st.text(min_size=1, max_size=6))
    history = random_history(count, low, high, rounds, draw(st.integers(0, 10_000)))
    return Request(entrants(count), low, high, rounds + 1, seed, history, total_rounds=rounds + 1)


@pytest.mark.parametrize("method", RANDOM_METHODS)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_valid_minimal_and_deterministic(method: str, data: Any) -> None:
    request = data.draw(requests(method))
    if method == "round_robin" and len(request.players) < 2:
        return  # a round robin needs two players (refused with too_few_players)
    seating = make_seating(method, request)
    _check_valid(seating, request)
    _, byes = table_sizes(len(request.players), request.table_min, request.table_max)
    if not (method == "round_robin" and request.table_max == 2):
        assert len(seating.byes) == byes  # minimal
    else:  # the circle method: a bye only for an odd count
        assert len(seating.byes) == len(request.players) % 2
    # deterministic, also from the stored (JSON) form of the request
    stored = Request.from_dict(json.loads(json.dumps(request.to_dict())))
    assert make_seating(method, stored) == seating
    assert input_digest(stored, method) == input_digest(request, method)


@pytest.mark.parametrize(
    ("method", "count", "low", "high"),
    [
        ("balanced", 9, 4, 4),
        ("swiss", 7, 2, 2),
        ("swiss", 11, 3, 3),
        ("round_robin", 7, 2, 2),
        ("round_robin", 10, 4, 4),
    ],
)
def test_byes_rotate(method: str, count: int, low: int, high: int) -> None:
    """Over enough rounds for everyone to sit out twice, nobody's second bye comes
    before everyone's first."""
    per_round = max(table_sizes(count, low, high)[1], count % 2 if high == 2 else 0)
    rounds = 2 * count // per_round
    played: list[Seating] = []
    had: Counter[int] = Counter()
    for number in range(1, rounds + 1):
        request = Request(
            entrants(count),
            low,
            high,
            number,
            "rotate",
            tuple(past(s, n) for n, s in enumerate(played, 1)),
            total_rounds=rounds,
        )
        seating = make_seating(method, request)
        _check_valid(seating, request)
        for player in seating.byes:
            assert had[player] == min(had[p] for p in range(1, count + 1)), (number, player, had)
            had[player] += 1
        played.append(seating)
    assert set(had.values()) == {2}


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 16), st.text(min_size=1, max_size=5))
def test_knockout_first_round_places_everyone_once_and_is_deterministic(count: int, seed: str) -> None:
    request = Request(entrants(count), 2, 2, 1, seed)
    seating = make_seating("knockout", request)
    _check_valid(seating, request)
    # byes fill the bracket up to a power of two, no more
    size = 1 << (count - 1).bit_length()
    assert len(seating.byes) == size - count
    assert make_seating("knockout", Request.from_dict(request.to_dict())) == seating


@settings(max_examples=20, deadline=None)
@given(st.integers(4, 12), st.integers(0, 1000))
def test_manual_seating_is_taken_as_given_and_checked(count: int, draw: int) -> None:
    ids = [p.id for p in entrants(count)]
    sizes, byes = table_sizes(count, 2, 4)
    tables, start = [], byes
    for size in sizes:
        tables.append(ids[start : start + size])
        start += size
    request = Request(entrants(count), 2, 4, 1, "m", params={"tables": tables, "byes": ids[:byes]})
    seating = make_seating("manual", request)
    _check_valid(seating, request)
    assert [list(t.seats) for t in seating.tables] == tables
