"""Corrections are data (a code and its parameters) worded in one module,
web/corrections.py, through gettext: every correction event has a code, a title and an
action, and none of them is an event's class name."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from engine import events
from web.corrections import (
    ACTIONS,
    CODES,
    TITLES,
    correction_action,
    correction_change,
    correction_title,
    word_change,
)

NAMES = ["Ann", "Bo", "Cy"]


def test_every_correction_event_has_a_code_a_title_and_an_action() -> None:
    assert set(CODES) <= {name for name in dir(events) if name[0].isupper()}
    assert set(CODES.values()) == set(TITLES) == set(ACTIONS)
    for event in CODES:
        assert correction_title(event) not in CODES and correction_action(event) not in CODES
    assert correction_title("SomethingNew") == "Correction"  # never the class name


@pytest.mark.parametrize(
    ("event", "data", "scored", "change", "words"),
    [
        ("Retracted", {"count": 2}, None, {"code": "moves_retracted", "count": 2}, "2 entries"),
        ("Retracted", {"count": 1}, None, {"code": "moves_retracted", "count": 1}, "1 entry"),
        ("ScoreAdjusted", {"seat": 2, "points": "-5", "reason": "r"}, None,
         {"code": "score_adjusted", "seat": 2, "points": "-5"}, "Cy -5"),
        ("SeatReplaced", {"seat": 0, "name": "Sam", "reason": "r"}, None,
         {"code": "seat_replaced", "seat": 0, "name": "Sam"}, "seat 1 → Sam"),
        ("GameAbandoned", {"reason": "r"}, None, {"code": "game_abandoned"}, ""),
        ("HandCorrected",
         {"hand_number": 1, "knocker": 1, "was_knocker": 1, "was_points": {"0": "4", "1": "-4"}},
         {"points": {"0": "6", "1": "-6"}},
         {"code": "hand_corrected", "hand": 1, "knocker": [1, 1], "points": [[0, "4", "6"], [1, "-4", "-6"]],
          "verified": False},
         "hand 1: Ann +6 instead of +4, Bo -6 instead of -4"),
    ],
)  # fmt: skip
def test_a_correction_as_data_then_words(
    event: str, data: dict[str, Any], scored: dict[str, Any] | None, change: dict[str, Any], words: str
) -> None:
    made = correction_change(event, data, scored)
    assert made == change
    with translation.override("en"):
        assert word_change(made, NAMES) == words
