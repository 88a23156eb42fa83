"""The seating notes as data: each kind of note a code with its parameters
(:class:`core.messages.Message`), players named by id, never a sentence.

Every method (both algorithm versions), the director's edits and the round's own
notes make their notes here; :mod:`league.wording` turns them into words when shown
(through gettext), with the names the round's seating input gives its players. A
round stores ``{"code", "params"}`` objects, and regenerating or verifying a round
compares codes and parameters, never wording.

>>> deals_first(7, 2).to_dict()
{'code': 'deals_first', 'params': {'player': 7, 'times': 2}}
>>> note_of("an old sentence") == legacy("an old sentence")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from core.messages import Message

# A note stored as a sentence that no pattern recognised (league.seating.legacy_notes):
# shown as it was written.
LEGACY_TEXT = "legacy_text"


def note_of(value: Any) -> Message:
    """A stored note as a message: ``{"code", "params"}``, or an older sentence kept as
    :data:`LEGACY_TEXT`."""
    if isinstance(value, Message):
        return value
    if isinstance(value, str):
        return legacy(value)
    if isinstance(value, Mapping):
        return Message.from_dict(value)
    raise ValueError(f"a note is an object with a code, not {type(value).__name__}")


def legacy(text: str) -> Message:
    return Message(LEGACY_TEXT, {"text": text})


# --- tables ----------------------------------------------------------------------------


def deals_first(player: int, times: int | None = None) -> Message:
    """Seat 0; ``times`` how often the player dealt first before (left out: not said)."""
    return Message("deals_first", {"player": player} if times is None else {"player": player, "times": times})


def repeat_meeting(a: int, b: int, nth: int) -> Message:
    """A pair meeting for the ``nth`` time: the search found no seating without it."""
    return Message("repeat_meeting", {"players": [a, b], "nth": nth})


def repeat_scheduled(a: int, b: int) -> Message:
    """A pair meeting again in a version-1 round robin's schedule."""
    return Message("repeat_scheduled", {"players": [a, b]})


def no_repeats() -> Message:
    return Message("no_repeats")


def pulled_up(player: int, points: Fraction) -> Message:
    return Message("pulled_up", {"player": player, "points": str(points)})


def moved_up(player: int) -> Message:
    return Message("moved_up", {"player": player})


def unavoidable_rematch(a: int, b: int) -> Message:
    return Message("rematch_unavoidable", {"players": [a, b]})


def searched_rematch(a: int, b: int) -> Message:
    return Message("rematch_searched", {"players": [a, b]})


def swapped_rematch(a: int, b: int) -> Message:
    """A version-1 Swiss: no swap between neighbouring tables avoided the meeting."""
    return Message("rematch_no_swap", {"players": [a, b]})


def advanced_from_bye(player: int) -> Message:
    return Message("advanced_from_bye", {"player": player})


def advanced_from_table(player: int, table: int) -> Message:
    return Message("advanced_from_table", {"player": player, "table": table})


# --- rounds ----------------------------------------------------------------------------


def bye(player: int, nth: int) -> Message:
    """A bye, the player's ``nth``: every method that chooses byes says it this way."""
    return Message("bye", {"player": player, "nth": nth})


def event_repeats(so_far: int, bound: int, rounds: int | None) -> Message:
    """The round's summary: repeat meetings in the event so far (a pair meeting for the
    n-th time counts n - 1) and the least the whole event can have (``rounds``: over how
    many rounds; None: the rounds so far)."""
    return Message("event_repeats", {"so_far": so_far, "bound": bound, "rounds": rounds})


def repeat_cost(cost: int, repeats: int) -> Message:
    """A version-1 balanced round's summary."""
    return Message("repeat_cost", {"cost": cost, "repeats": repeats})


def known_design(name: str) -> Message:
    return Message("known_design", {"design": name})


def bound_schedule(name: str, repeats: int) -> Message:
    return Message("bound_schedule", {"design": name, "repeats": repeats})


def schedule_row(number: int, total: int) -> Message:
    return Message("schedule_row", {"round": number, "total": total})


def schedule_made(repeats: int, bound: int) -> Message:
    return Message("schedule_made", {"repeats": repeats, "bound": bound})


def schedule_cost(cost: int, rounds: int, bound: int) -> Message:
    """A version-1 multi-player round robin's schedule."""
    return Message("schedule_cost", {"cost": cost, "rounds": rounds, "bound": bound})


def schedule_bye(player: int) -> Message:
    return Message("schedule_bye", {"player": player})


def cycle_row(number: int, total: int, cycle: int) -> Message:
    """A two-player round robin's row (``cycle`` counts from 1)."""
    return Message("cycle_row", {"round": number, "total": total, "cycle": cycle})


def cycle_bye(player: int) -> Message:
    return Message("cycle_bye", {"player": player})


def rematches(count: int) -> Message:
    return Message("rematches", {"count": count})


def seed_bye(player: int, seed: int) -> Message:
    return Message("seed_bye", {"player": player, "seed": seed})


def bracket_bye(player: int) -> Message:
    return Message("bracket_bye", {"player": player})


def eliminated(player: int) -> Message:
    return Message("eliminated", {"player": player})


def final_table(count: int) -> Message:
    return Message("final_table", {"count": count})


def not_in_final(player: int, rank: int) -> Message:
    return Message("not_in_final", {"player": player, "rank": rank})


# --- the director ----------------------------------------------------------------------


def seated_by_director() -> Message:
    return Message("seated_by_director")


def director_bye(player: int) -> Message:
    return Message("director_bye", {"player": player})


def edited_table() -> Message:
    """A table the director's edit changed (its other notes are then written again)."""
    return Message("edited_table")


def edited_repeat(a: int, b: int, times: int) -> Message:
    """At a table the director edited: the pair met ``times`` times before."""
    return Message("edited_repeat", {"players": [a, b], "times": times})


def edit_swapped(a: int, b: int) -> Message:
    return Message("edit_swapped", {"players": [a, b]})


def edit_moved(player: int, table: int | None) -> Message:
    """``table`` None: to a bye."""
    return Message("edit_moved", {"player": player, "table": table})


def edit_replaced() -> Message:
    return Message("edit_replaced")


# The notes that record a director's edit of the round (the desk says the last one).
EDITS = frozenset({"edit_swapped", "edit_moved", "edit_replaced"})
# The round's notes that belong to a player's bye (an edit keeps them while the bye stays).
BYES = frozenset({"bye", "director_bye", "schedule_bye", "cycle_bye", "seed_bye", "bracket_bye"})


def generated_early(round_number: int, reason: str) -> Message:
    """The round was generated before round ``round_number`` was complete; ``reason``
    is the director's own text."""
    return Message("generated_early", {"round": round_number, "reason": reason})
