"""Seating notes stored as sentences, before notes were codes (issue 25), read back as
codes: the migration that converts a database's notes and the upcast of a version-1
archive both use :func:`recognise`.

The patterns are the sentences as the code wrote them then; they are history and never
change. A sentence is taken as a code only when the code, worded in English now, gives
that very sentence back; anything else (a name the round does not know, two players
of one name, a sentence no pattern knows) is kept as :data:`LEGACY_TEXT` and shown as
written.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from core.messages import Message
from league.seating.notes import LEGACY_TEXT, legacy, note_of
from league.wording import english

P, A, B = "(?P<player>{n})", "(?P<a>{n})", "(?P<b>{n})"
NTH = {"first": 1, "second": 2, "third": 3}


def _int(value: str | None) -> int | None:
    return None if value is None else int(value)


def _one(code: str, **extra: Callable[[dict[str, str]], Any]) -> Callable[[dict[str, Any]], Message]:
    def make(groups: dict[str, Any]) -> Message:
        params: dict[str, Any] = {}
        if "player" in groups:
            params["player"] = groups["player"]
        if "a" in groups:
            params["players"] = [groups["a"], groups["b"]]
        params.update({key: read(groups) for key, read in extra.items()})
        return Message(code, params)

    return make


def _number(key: str) -> Callable[[dict[str, str]], int | None]:
    return lambda g: _int(g.get(key))


# (pattern, what it becomes); the first pattern that matches the whole sentence wins.
PATTERNS: tuple[tuple[str, Callable[[dict[str, Any]], Message]], ...] = (
    (
        P + r" deals first \(dealt first (?P<times>\d+) times? before\)",
        _one("deals_first", times=_number("times")),
    ),
    (P + r" deals first", _one("deals_first")),
    (
        r"repeat meeting " + A + " and " + B + r" \((?P<nth>\d+)(?:st|nd|rd|th) time\): "
        r"the search found no seating without it",
        _one("repeat_meeting", nth=_number("nth")),
    ),
    (r"repeat meeting " + A + " and " + B, _one("repeat_scheduled")),
    (r"no repeat meetings", _one("no_repeats")),
    (
        P + r" pulled up from the (?P<points>-?\d+(?:/\d+)?)-point group",
        _one("pulled_up", points=lambda g: g["points"]),
    ),
    (P + r" moved up a table to avoid a repeat meeting", _one("moved_up")),
    (r"repeat meeting " + A + "-" + B + " was unavoidable", _one("rematch_unavoidable")),
    (r"repeat meeting " + A + "-" + B + ": the search found no seating without it", _one("rematch_searched")),
    (
        r"repeat meeting " + A + "-" + B + ": no swap between neighbouring tables avoided it",
        _one("rematch_no_swap"),
    ),
    (P + r" advances from a bye", _one("advanced_from_bye")),
    (P + r" advances from table (?P<table>\d+)", _one("advanced_from_table", table=_number("table"))),
    (
        r"bye: " + P + r" \((?P<nth>first|second|third|\d+th) bye\)",
        _one("bye", nth=lambda g: NTH.get(g["nth"]) or int(g["nth"][:-2])),
    ),
    (
        r"(?P<so_far>\d+) repeat meetings? so far, this round included; lower bound (?P<bound>\d+) "
        r"(?:over (?P<rounds>\d+) rounds?|for the rounds so far)",
        _one("event_repeats", so_far=_number("so_far"), bound=_number("bound"), rounds=_number("rounds")),
    ),
    (
        r"repeat cost (?P<cost>\d+) \(sum over pairs of times met, squared, this round included\); "
        r"(?P<repeats>\d+) repeat meetings? this round",
        _one("repeat_cost", cost=_number("cost"), repeats=_number("repeats")),
    ),
    (
        r"seated from a known design, (?P<design>.+): nobody meets anyone twice",
        _one("known_design", design=lambda g: g["design"]),
    ),
    (
        r"seated from (?P<design>.+): (?P<repeats>\d+) repeat meetings over the event, the fewest possible",
        _one("bound_schedule", design=lambda g: g["design"], repeats=_number("repeats")),
    ),
    (
        r"round robin: round (?P<round>\d+) of (?P<total>\d+)",
        _one("schedule_row", round=_number("round"), total=_number("total")),
    ),
    (
        r"schedule made this round: (?P<repeats>\d+) repeat meetings over the event; "
        r"lower bound (?P<bound>\d+): (?:optimal|\d+ above it)",
        _one("schedule_made", repeats=_number("repeats"), bound=_number("bound")),
    ),
    (
        r"schedule repeat cost (?P<cost>\d+) \(sum over pairs of times met, squared, over (?P<rounds>\d+) "
        r"rounds\); lower bound (?P<bound>\d+) \(counting pairs\): (?:optimal|-?\d+ above it)",
        _one("schedule_cost", cost=_number("cost"), rounds=_number("rounds"), bound=_number("bound")),
    ),
    (r"bye: " + P + r" \(the schedule's bye this round\)", _one("schedule_bye")),
    (
        r"round robin: round (?P<round>\d+) of (?P<total>\d+)(?: \(cycle (?P<cycle>\d+)\))?; "
        r"every pair meets once a cycle",
        _one(
            "cycle_row", round=_number("round"), total=_number("total"), cycle=lambda g: _int(g["cycle"]) or 1
        ),
    ),
    (r"bye: " + P + r" \(the round robin's bye this round\)", _one("cycle_bye")),
    (
        r"(?P<count>\d+) repeat meeting\(s\): no pairing without them exists",
        _one("rematches", count=_number("count")),
    ),
    (
        r"bye: " + P + r" \((?:top seed|seed (?P<seed>\d+))\)",
        _one("seed_bye", seed=lambda g: _int(g["seed"]) or 1),
    ),
    (r"bye: " + P + r" \(no opponent left in this part of the bracket\)", _one("bracket_bye")),
    (r"out: " + P + r" is no longer in the bracket", _one("eliminated")),
    (r"final table: the top (?P<count>\d+) of the standings", _one("final_table", count=_number("count"))),
    (r"out: " + P + r" \(rank (?P<rank>\d+), not in the final\)", _one("not_in_final", rank=_number("rank"))),
    (r"seated by the director", _one("seated_by_director")),
    (r"bye: " + P + r" \(given by the director\)", _one("director_bye")),
    (r"edited by the director", _one("edited_table")),
    (
        r"repeat meeting " + A + "\N{EN DASH}" + B + r" \(met (?P<times>\d+) times?\)",
        _one("edited_repeat", times=_number("times")),
    ),
    (r"edited: swapped " + A + " and " + B, _one("edit_swapped")),
    (r"edited: moved " + P + " to a bye", _one("edit_moved", table=lambda g: None)),
    (r"edited: moved " + P + r" to table (?P<table>\d+)", _one("edit_moved", table=_number("table"))),
    (r"edited: seating replaced by the director", _one("edit_replaced")),
    (
        r"generated before round (?P<round>\d+) was complete: (?P<reason>.*)",
        _one("generated_early", round=_number("round"), reason=lambda g: g["reason"]),
    ),
)


class Recogniser:
    """The sentences of one round, whose seating input names its players ``names``."""

    def __init__(self, names: Mapping[int, str]) -> None:
        self.names = dict(names)
        by_name: dict[str, list[int]] = {}
        for player, name in self.names.items():
            by_name.setdefault(name, []).append(player)
        # a name two players share cannot say which one is meant
        self.ids = {name: ids[0] for name, ids in by_name.items() if len(ids) == 1}
        alternatives = "|".join(re.escape(n) for n in sorted(self.ids, key=len, reverse=True)) or r"(?!)"
        self.patterns = [
            (re.compile(pattern.replace("{n}", alternatives), re.DOTALL), make) for pattern, make in PATTERNS
        ]

    def note(self, value: Any) -> Message:
        """A stored note as a code: a sentence recognised, anything else as it is."""
        if not isinstance(value, str):
            return note_of(value)
        for pattern, make in self.patterns:
            found = pattern.fullmatch(value)
            if found is None:
                continue
            groups: dict[str, Any] = {k: v for k, v in found.groupdict().items()}
            for key in ("player", "a", "b"):
                if groups.get(key) is not None:
                    groups[key] = self.ids[groups[key]]
            message = make(groups)
            if english([message], self.names) == [value]:
                return message
        return legacy(value)

    def notes(self, values: Iterable[Any]) -> list[dict[str, Any]]:
        return [self.note(value).to_dict() for value in values]


def recognise(text: str, names: Mapping[int, str]) -> Message:
    """``text`` as a code, given the names of the round's players.

    >>> recognise("Ann deals first", {3: "Ann"}).to_dict()
    {'code': 'deals_first', 'params': {'player': 3}}
    >>> recognise("a sentence of long ago", {}).code
    'legacy_text'
    """
    return Recogniser(names).note(text)


__all__ = ["LEGACY_TEXT", "PATTERNS", "Recogniser", "recognise"]
