"""The tiebreak registry carries everything known about a tiebreak, so the ranking and
the pages read it rather than naming tiebreaks: a new one is one entry in
league.standings.tiebreaks."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from league.standings import REGISTRY, standings_from_logs
from league.standings.tiebreaks import Record, Tiebreak
from tests.league.standings.test_worked_example import LOGS, ROUNDS


def test_every_tiebreak_has_its_words_and_flags() -> None:
    for name, tiebreak in REGISTRY.items():
        assert tiebreak.name == name
        assert tiebreak.abbreviation.strip() and tiebreak.label.strip()
    assert len({t.abbreviation for t in REGISTRY.values()}) == len(REGISTRY)  # one heading each
    assert {n for n, t in REGISTRY.items() if t.uses_tied_group} == {"head_to_head"}
    assert {n for n, t in REGISTRY.items() if not t.shown} == {"random"}
    assert {n for n, t in REGISTRY.items() if t.as_text} == {"random"}


def _tied_size(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> int:
    """How many players were still level when it was applied, less the player's id (so
    that it separates them): a value only the tied group gives."""
    return 100 * len(tied) - player


def _big(records: Mapping[int, Record], player: int, tied: frozenset[int], seed: str) -> int:
    return 2**60 + player


def _rows(tiebreaks: list[str]) -> dict[int, dict[str, object]]:
    settings = {"preset": "knock-rummy", "scoring": "points", "tiebreaks": tiebreaks, "seed": "s1"}
    return {row["player"]: row for row in standings_from_logs(settings, ROUNDS, LOGS)}


def test_a_new_tied_group_tiebreak_needs_only_its_registry_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = Tiebreak("tied_size", _tied_size, True, "TS", "players level", uses_tied_group=True)
    monkeypatch.setitem(REGISTRY, "tied_size", entry)
    rows = _rows(["tied_size"])
    # Points: P1 and P5 level on 35, P4 and P6 on -25; the others apart before it.
    assert rows[1]["tiebreaks"] == {"tied_size": 199} and rows[5]["tiebreaks"] == {"tied_size": 195}
    assert (rows[1]["rank"], rows[5]["rank"]) == (1, 2)
    assert rows[4]["tiebreaks"] == {"tied_size": 196} and rows[6]["tiebreaks"] == {"tied_size": 194}
    # a player apart before it was applied shows no value
    assert rows[2]["tiebreaks"] == {"tied_size": None}


def test_a_tiebreak_written_as_text_says_so_in_its_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(REGISTRY, "big", Tiebreak("big", _big, False, "Big", "a large number", as_text=True))
    monkeypatch.setitem(REGISTRY, "big_number", Tiebreak("big_number", _big, False, "BN", "the same"))
    rows = _rows(["big", "big_number"])
    assert rows[3]["tiebreaks"] == {"big": str(2**60 + 3), "big_number": 2**60 + 3}
