"""Scoring schemes: what a finished table is worth to each of its seats, and a bye.

- ``points``: the game points of the :class:`engine.MatchResult` (settlement money for
  knock rummy, the difference of totals with bonuses for gin, pool shares for knock-rami).
- ``placement``: the ``placement_points`` list, made fair across table sizes by
  *quantile averaging*: the list describes a table of ``k = len(list)`` places; a place
  at an ``n``-player table covers the share ``[(p-1)/n, (p-1+t)/n]`` of the field (``t``
  seats tied on it) and is worth the average of the list over that same share. A
  4-place list ``[3, 2, 1, 0]`` gives a 3-player table ``11/4, 3/2, 1/4``: its first
  place is worth less than a 4-player table's (3), more than its second (2), and every
  table size has the same average (3/2), so no table size is luckier. Ties split the
  places they cover (two seats tied for first at a 4-table get (3+2)/2 each).
- ``match``: 1, ½ or 0 per 2-player game; at a larger table the share of opponents
  beaten, a tie counting a half.

>>> placement_award([3, 2, 1, 0], 3, 1, 1)
Fraction(11, 4)
>>> [str(placement_award([3, 2, 1, 0], 4, p, 1)) for p in (1, 2, 3, 4)]
['3', '2', '1', '0']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from math import lcm

from league import limits
from league.standings.results import StandingsError, TableResult

SCHEMES = ("points", "placement", "match")
DEFAULT_PLACEMENT_POINTS = (3, 2, 1, 0)
ZERO = Fraction(0)


def fraction_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum, over a common denominator (much faster than adding Fractions one
    by one when, as here, the denominators are few and small)."""
    items = [(v.numerator, v.denominator) for v in values]
    if not items:
        return ZERO
    common = lcm(*{d for _, d in items})
    return Fraction(sum(n * (common // d) for n, d in items), common)


def _integral(values: Sequence[Fraction], x: Fraction) -> Fraction:
    """∫₀ˣ of the step function that is ``values[j]`` on ``[j/k, (j+1)/k)``."""
    k = len(values)
    whole = min(int(x * k), k)
    total = sum((values[j] for j in range(whole)), ZERO) / k
    if whole < k:
        total += (x - Fraction(whole, k)) * values[whole]
    return total


def placement_award(placement_points: Sequence[Fraction | int], n: int, place: int, tied: int) -> Fraction:
    """The placement points of ``place`` (1 = first) shared by ``tied`` seats at an
    ``n``-player table."""
    return _placement_award(tuple(Fraction(v) for v in placement_points), n, place, tied)


@lru_cache(maxsize=4096)
def _placement_award(placement_points: tuple[Fraction, ...], n: int, place: int, tied: int) -> Fraction:
    values = list(placement_points) or [Fraction(v) for v in DEFAULT_PLACEMENT_POINTS]
    start, end = Fraction(place - 1, n), Fraction(place - 1 + tied, n)
    return (_integral(values, end) - _integral(values, start)) / (end - start)


def pair_score(mine: int, theirs: int) -> Fraction:
    """1 for finishing above an opponent, ½ level with them, 0 below."""
    return Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else ZERO


def awards(
    scheme: str, result: TableResult, placement_points: Sequence[Fraction | int]
) -> tuple[Fraction, ...]:
    """What each seat of a finished table scores under ``scheme``."""
    assert result.places is not None and result.points is not None
    n = result.seats
    places = result.places
    if scheme == "points":
        return tuple(result.points)
    if scheme == "placement":
        values = tuple(Fraction(v) for v in placement_points)
        return tuple(_placement_award(values, n, p, places.count(p)) for p in places)
    if scheme == "match":
        if n < 2:
            return tuple(ZERO for _ in places)
        return tuple(
            sum((pair_score(places[i], places[j]) for j in range(n) if j != i), ZERO) / (n - 1)
            for i in range(n)
        )
    raise StandingsError("unknown_scoring", f"unknown scoring scheme {scheme!r}; known: {', '.join(SCHEMES)}")


def bye_award(scheme: str, bye_points: str, placement_points: Sequence[Fraction | int]) -> Fraction:
    """A bye's worth: ``bye_points`` when set (within league.limits), else an average
    game — 0 under ``points`` (game points sum to zero), the list's mean under
    ``placement``, ½ under ``match``."""
    if bye_points not in ("", None):
        try:
            return limits.points(bye_points, "bye_points", "invalid_bye_points")
        except limits.OutOfLimits as exc:
            raise StandingsError(exc.code, exc.message) from None
    if scheme == "placement":
        values = [Fraction(v) for v in placement_points] or [Fraction(v) for v in DEFAULT_PLACEMENT_POINTS]
        return sum(values, ZERO) / len(values)
    if scheme == "match":
        return Fraction(1, 2)
    return ZERO
