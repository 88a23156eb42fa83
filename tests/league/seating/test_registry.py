"""The method registry: one record per method carrying its facts, checked parameters,
and ``METHODS`` / ``make_seating`` working as before for the callers."""

from __future__ import annotations

import pytest

from league.seating import METHODS, RECORDS, Request, SeatingError, make_seating, method_record
from tests.support.seating import entrants


def test_every_method_has_a_record_and_methods_follows_it() -> None:
    assert set(METHODS) == set(RECORDS) == {"balanced", "swiss", "round_robin", "knockout", "manual"}
    assert all(METHODS[name] is record.seat for name, record in RECORDS.items())
    assert all(name == record.name and record.label for name, record in RECORDS.items())


def test_the_facts_callers_need() -> None:
    assert {n for n, r in RECORDS.items() if r.needs_standings} == {"swiss", "knockout"}
    assert {n for n, r in RECORDS.items() if not r.fixed_rounds} == {"knockout"}
    assert {n for n, r in RECORDS.items() if r.takes_tables} == {"manual"}
    assert {n for n, r in RECORDS.items() if r.keeps_schedule} == {"round_robin"}
    assert {n for n, r in RECORDS.items() if r.eliminates} == {"knockout"}
    assert {p.name for r in RECORDS.values() for p in r.params} == {"swap_budget", "final_size", "rounds"}


def test_parameters_are_checked_against_their_schema() -> None:
    record = method_record("knockout")
    assert record.schema()["properties"]["final_size"] == {
        "type": "integer",
        "minimum": 2,
        "maximum": 8,
        "description": "knockout, multi-player: players at the final table",
    }
    assert record.check_params({"final_size": 4, "rounds": 3}) == {"final_size": 4, "rounds": 3}
    for bad in (9, 1, "4", True):
        with pytest.raises(SeatingError) as error:
            record.check_params({"final_size": bad})
        assert error.value.code == "invalid_param"
    with pytest.raises(SeatingError) as error:
        make_seating("knockout", Request(entrants(6), 3, 4, 1, "s", params={"final_size": 12}))
    assert (error.value.code, error.value.message) == (
        "invalid_param",
        "final_size 12: need a whole number from 2 to 8",
    )


def test_unknown_method_and_algorithm() -> None:
    with pytest.raises(SeatingError) as error:
        method_record("draw")
    assert (error.value.code, error.value.message) == (
        "unknown_method",
        "unknown seating method 'draw' (known: balanced, knockout, manual, round_robin, swiss)",
    )
    with pytest.raises(SeatingError) as error:
        make_seating("balanced", Request(entrants(8), 4, 4, 1, "s", algorithm=3))
    assert error.value.code == "unknown_algorithm"


def test_a_request_keeps_its_algorithm_through_storage() -> None:
    new = Request(entrants(4), 2, 2, 1, "s")
    assert new.to_dict()["algorithm"] == 2
    assert Request.from_dict(new.to_dict()) == new
    old = {key: value for key, value in new.to_dict().items() if key != "algorithm"}
    assert Request.from_dict(old).algorithm == 1
    assert Request.from_dict(old).to_dict() == old
