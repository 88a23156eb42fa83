"""Standings figures for people: an exact score (a ``Fraction``, or its text
``"249/5"``) as a decimal of at most :data:`PLACES` places. (Which tiebreaks a person
reads is the tiebreak registry's ``shown``.) The store and the JSON API keep the exact
values and every tiebreak; the pages, the printed sheets and the CSV show these. Pure
Python.

>>> rounded("249/5"), rounded("20/3"), rounded(-12), rounded("1/8")
(Decimal('49.8'), Decimal('6.67'), Decimal('-12'), Decimal('0.13'))
>>> decimal_text("1000"), decimal_text("-7/2"), decimal_text("7/2", point=",")
('1000', '-3.5', '3,5')
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

PLACES = 2
_STEP = Decimal(1).scaleb(-PLACES)


def rounded(value: Fraction | int | str) -> Decimal:
    """``value`` to at most PLACES decimals, half away from zero, without trailing zeros."""
    exact = Fraction(value)
    # exact division first, rounded once: no float ever holds the score
    quotient = Decimal(exact.numerator) / Decimal(exact.denominator)
    decimal = quotient.quantize(_STEP, rounding=ROUND_HALF_UP)
    if decimal == decimal.to_integral_value():
        return decimal.quantize(Decimal(1)) + 0  # never "-0"
    return decimal.normalize()


def decimal_text(value: Fraction | int | str, *, point: str = ".") -> str:
    """:func:`rounded` as text, with ``point`` as its decimal separator (no grouping)."""
    return format(rounded(value), "f").replace(".", point)
