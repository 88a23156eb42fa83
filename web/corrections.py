"""A corrected hand explained.

What a ``HandCorrected`` changed is data — a code and its parameters, read off the
correction (the hand's knocker and points until then) and the hand's new ``HandScored``
— and is worded only when a page shows it, through gettext:

>>> change = hand_change(
...     {"hand_number": 2, "knocker": 0, "was_knocker": 1, "was_points": {"0": "-10", "1": "10"}},
...     {"points": {"1": "-12", "0": "12"}, "verified": False},
... )
>>> change["code"], change["hand"], change["knocker"], change["points"]
('hand_corrected', 2, [1, 0], [[0, '-10', '12'], [1, '10', '-12']])
>>> word_hand_change(change, ["Ann", "Bo"])
'Ann knocked, not Bo — Ann +12 instead of -10, Bo -12 instead of +10'
>>> word_correction(change, ["Ann", "Bo"], table=3, by="dana")
'Hand 2 of table 3 corrected by dana: Ann knocked, not Bo — Ann +12 instead of -10, Bo -12 instead of +10'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from web.words import points_text, seat_name

CODE = "hand_corrected"


def _points(values: Any) -> dict[int, str]:
    if not isinstance(values, Mapping):
        return {}
    return {int(seat): str(points) for seat, points in values.items() if str(seat).isdigit()}


def hand_change(corrected: Mapping[str, Any], scored: Mapping[str, Any] | None) -> dict[str, Any]:
    """The change a correction made, as data: ``{"code", "hand", "knocker": [was, now],
    "points": [[seat, was, now], ...] (the seats whose points changed, a void hand's
    seats at 0), "verified"}`` from the ``HandCorrected`` data and its new
    ``HandScored``'s (None: not at hand — only the knockers are compared)."""
    was = _points(corrected.get("was_points"))
    now = _points((scored or {}).get("points"))
    points = []
    if scored is not None:
        for seat in sorted(set(was) | set(now)):
            before, after = was.get(seat, "0"), now.get(seat, "0")
            if Fraction(before) != Fraction(after):
                points.append([seat, before, after])
    return {
        "code": CODE,
        "hand": corrected.get("hand_number"),
        "knocker": [corrected.get("was_knocker"), corrected.get("knocker")],
        "points": points,
        "verified": bool((scored or {}).get("verified", corrected.get("hands") is not None)),
    }


def word_hand_change(change: Mapping[str, Any], names: Sequence[str]) -> str:
    """What changed, in words: who knocked, then each changed score."""
    was, now = change.get("knocker") or [None, None]
    parts = []
    if was != now:
        if was is not None and now is not None:
            parts.append(
                _("%(now)s knocked, not %(was)s")
                % {"now": seat_name(names, now), "was": seat_name(names, was)}
            )
        elif now is not None:
            parts.append(
                _("%(now)s knocked (it had been recorded as a hand without a knock)")
                % {"now": seat_name(names, now)}
            )
        else:
            parts.append(
                _("nobody knocked: the stock ran out (it had been recorded as %(was)s's knock)")
                % {"was": seat_name(names, was)}
            )
    scores = [
        _("%(name)s %(now)s instead of %(was)s")
        % {"name": seat_name(names, seat), "now": points_text(after), "was": points_text(before)}
        for seat, before, after in change.get("points") or ()
    ]
    if scores:
        parts.append(", ".join(scores))
    elif not parts:
        parts.append(_("the result was entered again, no score changed"))
    return " — ".join(parts)


def word_correction(
    change: Mapping[str, Any], names: Sequence[str], *, table: int | None = None, by: str | None = None
) -> str:
    """The whole sentence of a corrections list: which hand, of which table, by whom, and
    what changed."""
    params = {"hand": change.get("hand"), "table": table, "by": by, "what": word_hand_change(change, names)}
    if table is not None and by:
        return _("Hand %(hand)s of table %(table)s corrected by %(by)s: %(what)s") % params
    if by:
        return _("Hand %(hand)s corrected by %(by)s: %(what)s") % params
    return _("Hand %(hand)s corrected: %(what)s") % params
