"""A table's result, read from its game's event log.

The input is the log as the games app stores and exports it: a list of dicts, each
``{"type", "schema_version", "data"}`` (the export's extra keys — ``seq``, ``source``,
``actor``, ``recorded_at`` — are ignored). Only the events that bear on the result
are decoded (through :func:`engine.event_from_dict`, which upgrades old payloads);
the others are only counted, because ``Retracted`` undoes "the latest ``count``
events still in effect", whatever they are.

>>> log = [{"type": "GameStarted", "schema_version": 1, "data": {"seats": [{"name": "A"}, {"name": "B"}]}}]
>>> fold = GameFold()
>>> for event in log:
...     fold.feed(event)
>>> fold.result().status
'playing'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

import engine
from core import DomainError

PLAYING = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"
# A table whose game is over, either way: its result is final until a correction.
SETTLED = frozenset({FINISHED, ABANDONED})

# The events that change a table's result; the projection stores a version of the
# result at each of them (and queues a refresh for them through the outbox).
TRIGGERS = (
    "HandScored",
    "GameFinished",
    "Retracted",
    "ScoreAdjusted",
    "GameAbandoned",
    "SeatReplaced",
    "HandCorrected",
)
CORRECTIONS = ("Retracted", "ScoreAdjusted", "HandCorrected")
_DECODED = frozenset(
    ("HandScored", "GameFinished", "ScoreAdjusted", "GameAbandoned", "SeatReplaced", "HandCorrected")
)
# The events whose data the fold reads; of the others it only needs the type.
READ_TYPES = _DECODED | {"GameStarted", "Retracted"}


class StandingsError(DomainError):
    """Settings or input the standings cannot use; ``code`` is stable. A code that
    concerns one setting names it as the error's ``field`` (:attr:`FIELD_OF_CODE`)."""

    FIELD_OF_CODE: ClassVar[Mapping[str, str]] = {
        "unknown_scoring": "scoring",
        "invalid_placement_points": "placement_points",
        "unknown_tiebreak": "tiebreaks",
        "duplicate_tiebreak": "tiebreaks",
        "invalid_tiebreaks": "tiebreaks",
        "invalid_bye_points": "bye_points",
        "invalid_min_games": "min_games",
        "invalid_kind": "kind",
    }

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code, message, field=self.FIELD_OF_CODE.get(code))


@dataclass(frozen=True, slots=True)
class TableResult:
    """What a game yields for the standings.

    ``status`` is ``playing``, ``finished`` or ``abandoned``. ``places`` (1 = first,
    ties share a place, as in :class:`engine.MatchResult`) and ``points`` (the
    MatchResult's game points) are set only once the game is finished. ``hands`` are
    the hand scores in effect, ``(hand_number, points per seat)`` (a corrected hand's
    new score in place of its old one); ``adjustments`` the
    director's score adjustments in effect; ``replaced`` the seats taken over by a
    substitute or a bot."""

    seats: int
    status: str
    places: tuple[int, ...] | None
    points: tuple[Fraction, ...] | None
    hands: tuple[tuple[int, tuple[Fraction, ...]], ...]
    adjustments: tuple[tuple[int, Fraction, str], ...]
    replaced: tuple[int, ...]

    @property
    def counts(self) -> bool:
        return self.status == FINISHED

    def to_dict(self, *, summary: bool = False) -> dict[str, Any]:
        """The JSON form; ``summary`` leaves out the hand scores and adjustments (what
        the standings never read, and the projection does not store)."""
        data: dict[str, Any] = {
            "seats": self.seats,
            "status": self.status,
            "places": None if self.places is None else list(self.places),
            "points": None if self.points is None else [str(p) for p in self.points],
            "replaced": list(self.replaced),
        }
        if not summary:
            data["hands"] = [[number, [str(p) for p in points]] for number, points in self.hands]
            data["adjustments"] = [[seat, str(points), reason] for seat, points, reason in self.adjustments]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableResult:
        places = data.get("places")
        points = data.get("points")
        return cls(
            seats=int(data["seats"]),
            status=str(data["status"]),
            places=None if places is None else tuple(int(p) for p in places),
            points=None if points is None else tuple(_fraction(p) for p in points),
            hands=tuple(
                (int(number), tuple(_fraction(p) for p in values)) for number, values in data.get("hands", ())
            ),
            adjustments=tuple(
                (int(seat), _fraction(points), str(reason))
                for seat, points, reason in data.get("adjustments", ())
            ),
            replaced=tuple(int(s) for s in data.get("replaced", ())),
        )


def _fraction(text: Any) -> Fraction:
    """``Fraction(text)``, faster for the whole numbers most points are."""
    if type(text) is str and text.lstrip("-").isdigit():
        return Fraction(int(text))
    return Fraction(text)


EMPTY = TableResult(0, PLAYING, None, None, (), (), ())


@dataclass(frozen=True, slots=True)
class Step:
    """What one trigger event did: its type, the hand it concerns and its reason."""

    type: str
    hand: int | None
    reason: str


class GameFold:
    """Feeds a game's events one at a time; :meth:`result` is the table's result so far.

    The fold keeps a stack of the events in effect, as the engine does: every event but
    ``GameStarted`` and ``Retracted`` pushes, ``Retracted(count)`` pops ``count``."""

    __slots__ = ("_stack", "seats")

    def __init__(self) -> None:
        self.seats = 0
        self._stack: list[tuple[str, Any] | None] = []

    def feed(self, stored: Mapping[str, Any]) -> Step | None:
        """Take one event; for a trigger event, say what it did."""
        kind = stored.get("type")
        if kind == "GameStarted":
            data = stored.get("data") or {}
            self.seats = len(data.get("seats") or ())
            return None
        if kind == "Retracted":
            data = stored.get("data") or {}
            count = data.get("count")
            if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= len(self._stack):
                raise StandingsError(
                    "invalid_log", f"Retracted undoes {count!r} event(s) of {len(self._stack)}"
                )
            undone = self._stack[-count:]
            del self._stack[-count:]
            hands = [int(e[1].hand_number) for e in undone if e is not None and e[0] == "HandScored"]
            hand = max(hands) if hands else self._last_hand()
            return Step("Retracted", hand, str(data.get("reason", "")))
        if kind in _DECODED:
            try:
                event = engine.event_from_dict(
                    {
                        "type": kind,
                        "schema_version": stored.get("schema_version", 1),
                        "data": stored.get("data"),
                    }
                )
            except engine.InvalidEvent as exc:
                raise StandingsError("invalid_log", str(exc)) from exc
            self._stack.append((str(kind), event))
            if isinstance(event, engine.HandScored):
                return Step("HandScored", event.hand_number, "")
            if isinstance(event, engine.HandCorrected):
                return Step("HandCorrected", event.hand_number, event.reason)
            reason = getattr(event, "reason", "")
            return Step(str(kind), self._last_hand(), str(reason))
        self._stack.append(None)
        return None

    def _last_hand(self) -> int | None:
        for entry in reversed(self._stack):
            if entry is not None and entry[0] == "HandScored":
                return int(entry[1].hand_number)
        return None

    def result(self) -> TableResult:
        status = PLAYING
        match: engine.MatchResult | None = None
        hands: list[tuple[int, tuple[Fraction, ...]]] = []
        at: dict[int, int] = {}  # hand number -> its index in hands
        adjustments: list[tuple[int, Fraction, str]] = []
        replaced: list[int] = []
        n = self.seats
        for entry in self._stack:
            if entry is None:
                continue
            kind, event = entry
            if kind == "HandScored":
                scored = (event.hand_number, tuple(event.points.get(s, Fraction(0)) for s in range(n)))
                if event.hand_number in at:  # a corrected hand's new score
                    hands[at[event.hand_number]] = scored
                else:
                    at[event.hand_number] = len(hands)
                    hands.append(scored)
            elif kind == "HandCorrected":
                # as in the engine, the result is open again until the GameFinished that may follow
                status, match = PLAYING, None
            elif kind == "ScoreAdjusted":
                adjustments.append((event.seat, event.points, event.reason))
                if status == FINISHED:  # a finished game adjusted: its GameFinished follows
                    status, match = PLAYING, None
            elif kind == "SeatReplaced":
                if event.seat not in replaced:
                    replaced.append(event.seat)
            elif kind == "GameAbandoned":
                status = ABANDONED
            elif kind == "GameFinished":
                status = FINISHED
                match = event.result
        return TableResult(
            seats=n,
            status=status,
            places=match.places if match is not None else None,
            points=match.points if match is not None else None,
            hands=tuple(hands),
            adjustments=tuple(adjustments),
            replaced=tuple(sorted(replaced)),
        )


def table_result(events: Iterable[Mapping[str, Any]]) -> TableResult:
    """The result of a game whose whole log (stored or exported form) is ``events``."""
    fold = GameFold()
    for event in events:
        fold.feed(event)
    return fold.result()
