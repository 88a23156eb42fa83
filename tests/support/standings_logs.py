"""Synthetic event logs (the stored form) for the pure standings tests and the bench."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import engine
from engine.values import MatchResult, Seat


def started(n: int, preset: str = "knock-rummy") -> dict[str, Any]:
    seats = tuple(Seat(f"P{i}") for i in range(n))
    event = engine.GameStarted(engine.get_ruleset(preset), seats, "physical", 0, Fraction(0))
    return event.to_dict()


def scored(hand: int, points: Sequence[int | Fraction]) -> dict[str, Any]:
    n = len(points)
    best = max(points)
    event = engine.HandScored(
        hand_number=hand,
        outcome="knock_won",
        knocker=0,
        deadwood={s: 0 for s in range(n)},
        points={s: Fraction(p) for s, p in enumerate(points)},
        winners=tuple(s for s, p in enumerate(points) if p == best),
        rum_seats=(),
        verified=False,
    )
    return event.to_dict()


def match_result(places: Sequence[int], points: Sequence[int | Fraction]) -> MatchResult:
    n = len(places)
    ranking = tuple(tuple(s for s in range(n) if places[s] == p) for p in sorted(set(places)))
    return MatchResult(
        ranking=ranking,
        places=tuple(places),
        points=tuple(Fraction(p) for p in points),
        totals=tuple(Fraction(p) for p in points),
        hands_won=tuple(1 if p == 1 else 0 for p in places),
        rums=tuple(0 for _ in places),
        hands_played=1,
        pool=Fraction(0),
        winners=tuple(s for s in range(n) if places[s] == 1),
    )


def finished(places: Sequence[int], points: Sequence[int | Fraction]) -> dict[str, Any]:
    return engine.GameFinished(match_result(places, points)).to_dict()


def plain(kind: str = "HandResultRecorded") -> dict[str, Any]:
    """An event the standings only count (its data is never read)."""
    return {"type": kind, "schema_version": 1, "data": {}}


def finished_log(places: Sequence[int], points: Sequence[int | Fraction]) -> list[dict[str, Any]]:
    """A one-hand game that finished with ``places`` and game ``points``."""
    return [started(len(places)), plain(), scored(1, points), finished(places, points)]


def event(kind: str, **data: Any) -> dict[str, Any]:
    return {"type": kind, "schema_version": 1, "data": data}
