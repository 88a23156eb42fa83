"""Corrections explained: the one place a correction becomes words.

A correction in a game's log (``Retracted``, ``ScoreAdjusted``, ``SeatReplaced``,
``GameAbandoned``, ``HandCorrected``) is read as data — a code (:data:`CODES`) and its
parameters, :func:`correction_change` — and worded only when a page shows it, through
gettext: its title on the public corrections list (:func:`correction_title`), what the
desk says was done (:func:`correction_action`) and what it changed
(:func:`word_change`). No page shows an event's class name.

What a ``HandCorrected`` changed is read off the correction (the hand's knocker and
points until then) and the hand's new ``HandScored``:

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
>>> word_change(correction_change("ScoreAdjusted", {"seat": 1, "points": "-5"}), ["Ann", "Bo"])
'Bo -5'
>>> correction_title("Retracted"), correction_action("SeatReplaced")
('Moves retracted', 'replaced a seat')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from web.words import points_text, seat_name

CODE = "hand_corrected"
# Each correction event's code: what is stored and passed, never shown.
CODES = {
    "Retracted": "moves_retracted",
    "ScoreAdjusted": "score_adjusted",
    "SeatReplaced": "seat_replaced",
    "GameAbandoned": "game_abandoned",
    "HandCorrected": CODE,
}
# A correction as the public corrections list heads it.
TITLES = {
    "moves_retracted": gettext_lazy("Moves retracted"),
    "score_adjusted": gettext_lazy("Score adjusted"),
    "seat_replaced": gettext_lazy("Seat replaced"),
    "game_abandoned": gettext_lazy("Game abandoned"),
    CODE: gettext_lazy("Hand corrected"),
}
# What the person who made it did, as the desk's list of a table's corrections says it.
ACTIONS = {
    "moves_retracted": gettext_lazy("undid the last entry"),
    "score_adjusted": gettext_lazy("adjusted a score"),
    "seat_replaced": gettext_lazy("replaced a seat"),
    "game_abandoned": gettext_lazy("abandoned the game"),
    CODE: gettext_lazy("corrected a hand"),
}


def correction_title(event_type: str) -> str:
    """The title of a correction (by its event's type); one not known: "Correction"."""
    return str(TITLES.get(CODES.get(event_type, ""), _("Correction")))


def correction_action(event_type: str) -> str:
    return str(ACTIONS.get(CODES.get(event_type, ""), _("made a correction")))


def correction_change(
    event_type: str, data: Mapping[str, Any], scored: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A correction's change as data: ``{"code", ...its parameters}``; ``scored`` the
    ``HandScored`` data that follows a ``HandCorrected`` (see :func:`hand_change`)."""
    code = CODES.get(event_type, "correction")
    if code == CODE:
        return hand_change(data, scored)
    if code == "moves_retracted":
        return {"code": code, "count": data.get("count", 1)}
    if code == "score_adjusted":
        return {"code": code, "seat": data.get("seat"), "points": data.get("points")}
    if code == "seat_replaced":
        return {"code": code, "seat": data.get("seat"), "name": data.get("name", "")}
    return {"code": code}


def word_change(change: Mapping[str, Any], names: Sequence[str]) -> str:
    """What a correction changed, in words ('' when the title says it all)."""
    code = change.get("code")
    if code == CODE:
        return _("hand %(hand)s: %(what)s") % {
            "hand": change.get("hand"),
            "what": word_hand_change(change, names),
        }
    if code == "moves_retracted":
        count = change.get("count", 1)
        return ngettext("%(count)d entry", "%(count)d entries", count) % {"count": count}
    if code == "score_adjusted" and change.get("points") is not None:
        return _("%(name)s %(points)s") % {
            "name": seat_name(names, change.get("seat")),
            "points": points_text(change["points"]),
        }
    if code == "seat_replaced":
        seat = change.get("seat")
        return _("seat %(number)s → %(name)s") % {
            "number": seat + 1 if isinstance(seat, int) else "?",
            "name": change.get("name", ""),
        }
    return ""


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
