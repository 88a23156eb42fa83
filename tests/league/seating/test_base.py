"""The shared core of the seating package: table sizes, byes, meetings, the repeat
cost, validation and the registry. No database."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from league.seating import (
    METHODS,
    PastRound,
    PastTable,
    Request,
    Seating,
    SeatingError,
    Table,
    base,
    designs,
    input_digest,
    lookahead,
    make_seating,
    table_sizes,
    validate,
)
from league.seating import notes as say
from league.seating.base import choose_byes, meetings, repeat_cost
from league.seating.v1 import round_robin as v1_round_robin
from tests.support.notes import said
from tests.support.seating import entrants


@pytest.mark.parametrize(
    ("players", "low", "high", "expected"),
    [
        (11, 3, 4, ([4, 4, 3], 0)),
        (7, 4, 5, ([5], 2)),
        (12, 4, 4, ([4, 4, 4], 0)),
        (9, 2, 2, ([2, 2, 2, 2], 1)),
        (2, 3, 4, ([], 2)),
        (0, 2, 4, ([], 0)),
    ],
    ids=["11-at-3-4", "7-at-4-5-byes", "12-at-4", "9-pairs", "too-few", "nobody"],
)
def test_table_sizes_examples(players: int, low: int, high: int, expected: tuple[list[int], int]) -> None:
    assert table_sizes(players, low, high) == expected


@given(st.integers(0, 80), st.integers(2, 8), st.integers(0, 4))
def test_table_sizes_seat_as_many_as_possible_within_bounds(players: int, low: int, spread: int) -> None:
    high = low + spread
    sizes, byes = table_sizes(players, low, high)
    assert sum(sizes) + byes == players
    assert all(low <= s <= high for s in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)
    # no headcount above the seated one splits into tables of low..high differing by one
    for seated in range(sum(sizes) + 1, players + 1):
        for count in range(1, seated // low + 1):
            small, extra = divmod(seated, count)
            assert not (low <= small and small + (extra > 0) <= high), (seated, count)


def test_table_sizes_refuse_impossible_bounds() -> None:
    with pytest.raises(SeatingError) as caught:
        table_sizes(10, 5, 4)
    assert caught.value.code == "invalid_table_size"
    assert caught.value.message == "table sizes 5-4: need 2 <= min <= max"


def test_choose_byes_takes_those_with_fewest_byes_first() -> None:
    history = (PastRound(1, (PastTable((1, 2, 3)),), byes=(4, 5)),)
    request = Request(entrants(5), 3, 3, 2, "s", history)
    chosen, notes = choose_byes(request, 2)
    assert not {4, 5} & set(chosen)
    assert said(notes, request) == tuple(f"bye: {request.name(p)} (first bye)" for p in chosen)


def test_choose_byes_from_an_order_takes_the_last() -> None:
    request = Request(entrants(5), 3, 3, 1, "s")
    assert choose_byes(request, 2, order=[3, 1, 5, 2, 4])[0] == [4, 2]
    assert choose_byes(request, 0) == ([], [])


def test_meetings_and_repeat_cost() -> None:
    history = (PastRound(1, (PastTable((3, 1, 2)), PastTable((4, 5)))), PastRound(2, (PastTable((2, 1)),)))
    met = meetings(history)
    assert met == Counter({(1, 2): 2, (1, 3): 1, (2, 3): 1, (4, 5): 1})
    # (1, 2) meets a third time: 9 + 1 + 1 + 1, and (3, 4) a first time
    assert repeat_cost([(1, 2), (3, 4)], met) == 9 + 1 + 1 + 1 + 1
    assert repeat_cost([], met) == 4 + 1 + 1 + 1


@pytest.mark.parametrize(
    ("tables", "byes", "message"),
    [
        ([(1, 2), (2, 3)], [4], "seated more than once: Bo"),
        ([(1, 2), (3, 9)], [4], "not an active player of this round: 9"),
        ([(1, 2)], [4], "neither seated nor given a bye: Cy"),
        ([(1, 2, 3, 4)], [], "table sizes [4] are not all within 2-3"),
    ],
    ids=["twice", "unknown", "missing", "too-big"],
)
def test_validate_names_what_is_wrong(tables: list[tuple[int, ...]], byes: list[int], message: str) -> None:
    request = Request(entrants(4), 2, 3, 1, "s")
    seating = Seating("manual", tuple(Table(t) for t in tables), tuple(byes))
    with pytest.raises(SeatingError) as caught:
        validate(seating, request)
    assert (caught.value.code, caught.value.message) == ("invalid_seating", message)


def test_validate_refuses_sizes_differing_by_two() -> None:
    request = Request(entrants(7), 2, 5, 1, "s")
    with pytest.raises(SeatingError, match=r"table sizes \[5, 2\] differ by more than one"):
        validate(Seating("manual", (Table((1, 2, 3, 4, 5)), Table((6, 7)))), request)


def test_seating_round_trips_through_a_dict() -> None:
    seating = Seating("balanced", (Table((2, 1), (say.no_repeats(),)), Table((3, 4))), (5,), (say.bye(5, 1),))
    stored = seating.to_dict()
    assert stored["notes"] == [{"code": "bye", "params": {"player": 5, "nth": 1}}]
    assert Seating.from_dict(json.loads(json.dumps(stored))) == seating
    # a note stored as a sentence, before notes were codes, reads as legacy text
    old = Seating.from_dict({**stored, "notes": ["bye: Ed (first bye)"]})
    assert old.notes == (say.legacy("bye: Ed (first bye)"),)


def test_input_digest_changes_with_every_input() -> None:
    request = Request(entrants(4), 2, 2, 1, "s", points={1: Fraction(1, 2)})
    same = Request(entrants(4), 2, 2, 1, "s", points={1: Fraction(1, 2)})
    assert input_digest(request, "balanced") == input_digest(same, "balanced")
    others = [
        input_digest(request, "swiss"),
        input_digest(Request(entrants(4), 2, 2, 1, "t", points={1: Fraction(1, 2)}), "balanced"),
        input_digest(Request(entrants(4), 2, 2, 2, "s", points={1: Fraction(1, 2)}), "balanced"),
        input_digest(Request(entrants(4), 2, 2, 1, "s", points={1: Fraction(1, 3)}), "balanced"),
    ]
    assert len({input_digest(request, "balanced"), *others}) == 5


def test_make_seating_refuses_an_unknown_method() -> None:
    with pytest.raises(SeatingError) as caught:
        make_seating("alphabetical", Request(entrants(4), 2, 2, 1, "s"))
    assert caught.value.code == "unknown_method"
    assert caught.value.message.startswith("unknown seating method 'alphabetical' (known: ")
    assert {"balanced", "manual", "round_robin"} <= set(METHODS)


def test_importing_seating_imports_no_framework() -> None:
    code = (
        "import sys, league.seating; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'celery', 'rest_framework')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("module", [base, v1_round_robin, designs, lookahead], ids=lambda m: m.__name__)
def test_docstring_examples(module: ModuleType) -> None:
    # the suite's doctest collection covers engine/ only; the seating examples run here
    failed, tried = doctest.testmod(module)
    assert failed == 0
    assert tried >= 2


def test_a_request_survives_its_json_form_and_keeps_its_digest() -> None:
    import json
    from fractions import Fraction

    from league.seating.base import Entrant, PastRound, PastTable, Request, input_digest

    request = Request(
        players=(Entrant(1, "Ann", 2), Entrant(2, "Bo"), Entrant(3, "Cy")),
        table_min=2,
        table_max=3,
        round_number=2,
        seed="s33d",
        history=(PastRound(1, (PastTable((1, 2), 1, ((2,), (1,))),), (3,)),),
        standings=(2, 1, 3),
        points={2: Fraction(3, 2), 1: Fraction(0)},
        total_rounds=4,
        params={"budget": 10},
    )
    again = Request.from_dict(json.loads(json.dumps(request.to_dict())))
    assert again == request
    assert input_digest(again, "swiss") == input_digest(request, "swiss")
    assert input_digest(again, "swiss") != input_digest(again, "balanced")
