"""The seating methods, one record each with everything known about the method: what
it is called, whether it reads the standings, whether the tournament must fix its
number of rounds, whether it takes the director's tables, its parameters and how they
are checked. Callers outside this package read these records instead of naming a
method (``tests/league/seating/test_registry_only.py`` scans the code for a method's
name written anywhere else).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from league.seating import balanced, knockout, manual, round_robin, swiss
from league.seating.base import Request, Seating, SeatingError


@dataclass(frozen=True)
class Param:
    """A whole-number parameter of a method, ``low``..``high`` inclusive."""

    name: str
    help: str
    low: int
    high: int

    def check(self, value: Any) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or not self.low <= value <= self.high:
            raise SeatingError(
                f"{self.name} {value!r}: need a whole number from {self.low} to {self.high}", "invalid_param"
            )
        return value

    def schema(self) -> dict[str, Any]:
        """The parameter as JSON Schema (for forms and the API's description)."""
        return {"type": "integer", "minimum": self.low, "maximum": self.high, "description": self.help}


@dataclass(frozen=True)
class MethodRecord:
    """A seating method.

    ``label``: its name for people (English, to be translated where shown);
    ``needs_standings``: it seats by results, so the standings are loaded for it;
    ``fixed_rounds``: a one-day tournament must state its number of rounds (False: the
    method ends the event itself, as a knockout's final does);
    ``takes_tables``: the director gives the tables (``tables`` and ``byes``);
    ``keeps_schedule``: the schedule it computes once is stored with a round and given
    back in the next rounds' requests (:attr:`Request.schedule`);
    ``eliminates``: players leave the event (a knockout): a player out is not on a bye.
    """

    name: str
    label: str
    seat: Callable[[Request], Seating]
    needs_standings: bool = False
    fixed_rounds: bool = True
    takes_tables: bool = False
    keeps_schedule: bool = False
    eliminates: bool = False
    params: tuple[Param, ...] = field(default=())

    def check_params(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` checked against this method's own (others belonging to other
        methods are kept as they are: a tournament may switch methods before its first
        round); SeatingError ``invalid_param`` names the first bad one."""
        checked = dict(params)
        for param in self.params:
            if param.name in checked:
                checked[param.name] = param.check(checked[param.name])
        return checked

    def schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {p.name: p.schema() for p in self.params},
            "additionalProperties": False,
        }


def gettext_noop(text: str) -> str:
    """A label for people, as it is: the name marks it for the message catalogue
    (``makemessages`` collects it), and the web layer words it through gettext."""
    return text


RECORDS: dict[str, MethodRecord] = {
    record.name: record
    for record in (
        MethodRecord(
            balanced.METHOD,
            gettext_noop("Balanced (fewest repeat meetings)"),
            balanced.seat,
        ),
        MethodRecord(
            swiss.METHOD,
            gettext_noop("Swiss (by standings)"),
            swiss.seat,
            needs_standings=True,
            params=(Param("swap_budget", "swiss, algorithm 1: swaps tried to avoid repeats", 0, 10**9),),
        ),
        MethodRecord(
            round_robin.METHOD,
            gettext_noop("Round robin (a whole schedule)"),
            round_robin.seat,
            keeps_schedule=True,
            params=(Param("rounds", "round_robin: rounds of the schedule", 1, 100),),
        ),
        MethodRecord(
            knockout.METHOD,
            gettext_noop("Knockout"),
            knockout.seat,
            needs_standings=True,
            fixed_rounds=False,
            eliminates=True,
            params=(Param("final_size", "knockout, multi-player: players at the final table", 2, 8),),
        ),
        MethodRecord(
            manual.METHOD,
            gettext_noop("Manual (the director seats everyone)"),
            manual.seat,
            takes_tables=True,
        ),
    )
}


# The method a new tournament takes unless it says otherwise.
DEFAULT_METHOD = balanced.METHOD


def method_record(name: str) -> MethodRecord:
    """The record of the method ``name``; SeatingError ``unknown_method`` if none."""
    try:
        return RECORDS[name]
    except KeyError:
        known = ", ".join(sorted(RECORDS))
        raise SeatingError(f"unknown seating method {name!r} (known: {known})", "unknown_method") from None
