"""A player's rating history as an SVG line chart, drawn on the server.

A pure function of its input (no Django, no JavaScript, no charting library): each
series is a list of points, one per rated game, with the openskill ``mu`` and the
ordinal ``mu - 3 sigma``. The ordinal is drawn as a solid line with a dot per game and
``mu`` as a dashed line above it, so the gap between them shows how sure the rating is.
The chart scales to its container (``viewBox``, width 100 %), so it never widens a
phone's page; its ``<title>`` and ``<desc>`` say in words what it shows.

>>> svg = rating_chart([Series("Knock rummy", (Point("#1", 25.0, 0.0), Point("#2", 27.5, 3.1)))])
>>> svg.startswith('<svg') and 'role="img"' in svg and svg.count('<circle') == 2
True
>>> rating_chart([])
''
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from html import escape

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

WIDTH, HEIGHT = 480, 260
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 14, 52
FONT = 14  # drawn at about 10 px on a 390 px phone, 14 px on a desktop
# A generous average width of a character of the sans-serif text, in font sizes: where
# the next legend entry may start without touching the one before.
TEXT_EM = 0.62
# Colours that keep 4.5:1 contrast on white (WCAG AA for the labels drawn in them).
COLOURS = ("#1f6f4a", "#8a3b12", "#2b4c9b", "#6b2a7a")


@dataclass(frozen=True, slots=True)
class Point:
    """One rated game: a short label (the game, for the tooltip), ``mu`` and the ordinal."""

    label: str
    mu: float
    ordinal: float


@dataclass(frozen=True, slots=True)
class Series:
    name: str
    points: tuple[Point, ...]


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round tick values covering ``[low, high]``, about ``count`` of them.

    >>> nice_ticks(0, 10)
    [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    >>> nice_ticks(3.2, 3.2)
    [2.0, 2.5, 3.0, 3.5, 4.0, 4.5]
    """
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    raw = (high - low) / max(count, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.floor(low / step) * step
    ticks = []
    value = first
    while value < high + step * 1e-6:
        ticks.append(float(round(value, 10)))
        value += step
    if ticks[-1] < high:
        ticks.append(float(round(value, 10)))
    return ticks


def _fmt(value: float) -> str:
    """A rating for people, in the reader's language (``27,5`` in French)."""
    return number_format(value, 1)


def rating_chart(series: Sequence[Series], *, title: str = "") -> str:
    """The SVG markup of the chart, or ``""`` when no series has a point."""
    drawn = [s for s in series if s.points]
    if not drawn:
        return ""
    values = [v for s in drawn for p in s.points for v in (p.mu, p.ordinal)]
    ticks = nice_ticks(min(values), max(values))
    low, high = ticks[0], ticks[-1]
    longest = max(len(s.points) for s in drawn)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + (plot_w * index / (longest - 1) if longest > 1 else plot_w / 2)

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    title = title or _("Rating history")
    summary = "; ".join(
        ngettext(
            "%(name)s: %(count)s game, ordinal from %(first)s to %(last)s",
            "%(name)s: %(count)s games, ordinal from %(first)s to %(last)s",
            len(s.points),
        )
        % {
            "name": s.name,
            "count": len(s.points),
            "first": _fmt(s.points[0].ordinal),
            "last": _fmt(s.points[-1].ordinal),
        }
        for s in drawn
    )
    legend = _("Solid line: ordinal (mu minus 3 sigma); dashed line: mu.")
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" '
        f'aria-labelledby="rating-chart-title rating-chart-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="rating-chart-title">{escape(title)}</title>',
        f'<desc id="rating-chart-desc">{escape(summary)}. {escape(legend)}</desc>',
    ]
    for tick in ticks:
        ty = y(tick)
        parts.append(
            f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}" '
            'stroke="#ddd6c4" stroke-width="1"/>'
            f'<text x="{LEFT - 6}" y="{ty + 5:.1f}" text-anchor="end" font-size="{FONT}" fill="#4a5a52">'
            f"{escape(number_format(Decimal(f'{tick:g}')))}</text>"
        )
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 30}" text-anchor="middle" font-size="{FONT}" '
        f'fill="#4a5a52">{escape(_("games rated, oldest first (%(count)s)") % {"count": longest})}</text>'
    )
    legend_x = LEFT
    for number, s in enumerate(drawn):
        colour = COLOURS[number % len(COLOURS)]
        mu_path = " ".join(f"{x(i):.1f},{y(p.mu):.1f}" for i, p in enumerate(s.points))
        ordinal_path = " ".join(f"{x(i):.1f},{y(p.ordinal):.1f}" for i, p in enumerate(s.points))
        parts.append(
            f'<g class="series" data-series="{escape(s.name)}">'
            f'<polyline points="{mu_path}" fill="none" stroke="{colour}" stroke-width="1.5" '
            'stroke-dasharray="5 4"/>'
            f'<polyline points="{ordinal_path}" fill="none" stroke="{colour}" stroke-width="2.5"/>'
        )
        for i, p in enumerate(s.points):
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(p.ordinal):.1f}" r="3.5" fill="{colour}">'
                f"<title>{escape(s.name)} {escape(p.label)}: "
                + escape(_("ordinal %(ordinal)s, mu %(mu)s") % {"ordinal": _fmt(p.ordinal), "mu": _fmt(p.mu)})
                + "</title>"
                "</circle>"
            )
        parts.append("</g>")
        parts.append(
            f'<rect x="{legend_x}" y="{HEIGHT - 12}" width="12" height="4" fill="{colour}"/>'
            f'<text x="{legend_x + 16}" y="{HEIGHT - 6}" font-size="{FONT}" fill="#1d2a24">'
            f"{escape(s.name)}</text>"
        )
        legend_x += 16 + round(len(s.name) * FONT * TEXT_EM) + 20
    parts.append("</svg>")
    return "".join(parts)
