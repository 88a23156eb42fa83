"""Manual seating: the director's tables, checked like any method's."""

from __future__ import annotations

from typing import Any

import pytest

from league.seating import Request, Seating, SeatingError, Table, make_seating
from league.seating import notes as say
from tests.support.notes import said
from tests.support.seating import entrants


def test_the_directors_tables_in_seat_order() -> None:
    request = Request(entrants(7), 3, 3, 1, "s", params={"tables": [[3, 1, 2], [6, 5, 4]], "byes": [7]})
    assert make_seating("manual", request) == Seating(
        "manual",
        (Table((3, 1, 2), (say.deals_first(3),)), Table((6, 5, 4), (say.deals_first(6),))),
        (7,),
        (say.seated_by_director(), say.director_bye(7)),
    )
    seating = make_seating("manual", request)
    assert said(seating.notes, request) == ("seated by the director", "bye: Gus (given by the director)")
    assert said(seating.tables[1].notes, request) == ("Flo deals first",)


def test_byes_are_optional() -> None:
    request = Request(entrants(4), 2, 2, 1, "s", params={"tables": [[1, 2], [3, 4]]})
    assert make_seating("manual", request).byes == ()


@pytest.mark.parametrize(
    ("params", "code", "message"),
    [
        ({}, "invalid_manual_seating", "tables: need a list, got None"),
        ({"tables": [[1, "2"], [3, 4]]}, "invalid_manual_seating", "a table: need player ids, got [1, '2']"),
        ({"tables": [[1, 2], [3, 4]], "byes": 5}, "invalid_manual_seating", "byes: need a list, got 5"),
        (
            {"tables": [[1, True], [3, 4]]},
            "invalid_manual_seating",
            "a table: need player ids, got [1, True]",
        ),
        ({"tables": [[1, 2], [3, 1]]}, "invalid_seating", "seated more than once: Ann"),
        ({"tables": [[1, 2, 3], [4]]}, "invalid_seating", "table sizes [3, 1] are not all within 2-3"),
        ({"tables": [[1, 2]]}, "invalid_seating", "neither seated nor given a bye: Cy, Di"),
        (
            {"tables": [[1, 2], [3, 4]], "byes": [9]},
            "invalid_seating",
            "not an active player of this round: 9",
        ),
    ],
    ids=["no-tables", "not-an-id", "byes-not-a-list", "bool", "twice", "too-small", "missing", "unknown"],
)
def test_bad_tables_are_refused_with_a_code(params: dict[str, Any], code: str, message: str) -> None:
    with pytest.raises(SeatingError) as caught:
        make_seating("manual", Request(entrants(4), 2, 3, 1, "s", params=params))
    assert (caught.value.code, caught.value.message) == (code, message)
