"""The notes of the look-ahead methods (algorithm 2), each kind written by one function,
so that turning a kind into a code with parameters, worded when shown, is one edit.

The notes of the version-1 algorithms (``league.seating.v1``) are left as they were:
stored rounds compare their notes verbatim when they are computed again.
"""

from __future__ import annotations

from fractions import Fraction


def deals_first(name: str, times: int | None = None) -> str:
    if times is None:
        return f"{name} deals first"
    return f"{name} deals first (dealt first {times} time{'s' if times != 1 else ''} before)"


def repeat_meeting(a: str, b: str, nth: int) -> str:
    return f"repeat meeting {a} and {b} ({ordinal(nth)} time): the search found no seating without it"


def no_repeats() -> str:
    return "no repeat meetings"


def event_repeats(so_far: int, bound: int, rounds: int | None) -> str:
    """The round's summary: repeat meetings in the event so far (a pair meeting for the
    n-th time counts n - 1) and the least the whole event can have."""
    span = f"over {rounds} round{'s' if rounds != 1 else ''}" if rounds else "for the rounds so far"
    return (
        f"{so_far} repeat meeting{'s' if so_far != 1 else ''} so far, this round included; "
        f"lower bound {bound} {span}"
    )


def known_design(name: str) -> str:
    return f"seated from a known design, {name}: nobody meets anyone twice"


def bound_schedule(name: str, repeats: int) -> str:
    return f"seated from {name}: {repeats} repeat meetings over the event, the fewest possible"


def schedule_row(number: int, total: int) -> str:
    return f"round robin: round {number} of {total}"


def schedule_made(repeats: int, bound: int) -> str:
    gap = "optimal" if repeats <= bound else f"{repeats - bound} above it"
    return f"schedule made this round: {repeats} repeat meetings over the event; lower bound {bound}: {gap}"


def schedule_bye(name: str) -> str:
    return f"bye: {name} (the schedule's bye this round)"


def pulled_up(name: str, points: Fraction) -> str:
    return f"{name} pulled up from the {points}-point group"


def moved_up(name: str) -> str:
    return f"{name} moved up a table to avoid a repeat meeting"


def unavoidable_rematch(a: str, b: str) -> str:
    return f"repeat meeting {a}-{b} was unavoidable"


def searched_rematch(a: str, b: str) -> str:
    return f"repeat meeting {a}-{b}: the search found no seating without it"


def rematches(count: int) -> str:
    return f"{count} repeat meeting(s): no pairing without them exists"


def bracket_bye(name: str) -> str:
    return f"bye: {name} (no opponent left in this part of the bracket)"


def eliminated(name: str) -> str:
    return f"out: {name} is no longer in the bracket"


def not_in_final(name: str, rank: int) -> str:
    return f"out: {name} (rank {rank}, not in the final)"


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"
