"""Events: what happened at a table, in the past tense. A game is its list of events.

Every event is a frozen dataclass with a ``TYPE`` and a ``SCHEMA_VERSION``; its
stored form is ``{"type": ..., "schema_version": ..., "data": {...}}`` (see
:func:`engine.event_to_dict` / :func:`engine.event_from_dict`, which upgrades old
payloads through the upcasters in :mod:`engine.upcasting`).

>>> from engine.cards import Card
>>> e = CardDiscarded(seat=1, card=Card.parse("QS"))
>>> e.to_dict()
{'type': 'CardDiscarded', 'schema_version': 1, 'data': {'seat': 1, 'card': 'QS'}}
>>> CardDiscarded.from_data(e.to_dict()["data"]) == e
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from engine import codec as c
from engine.cards import Card
from engine.codec import Name, Reason, SeatIndex
from engine.errors import EngineError
from engine.rules import FEWEST_LAYOFFS, RuleSet
from engine.values import MatchResult, Seat


class InvalidEvent(EngineError):
    """A stored event that cannot be read: unknown type, newer schema, bad data."""

    default_code = "invalid_event"


class Event:
    """Base of all events. Subclasses declare ``TYPE``, ``SCHEMA_VERSION`` and their
    dataclass fields; ``FIELDS``, the codec of each field in order, is read off the
    fields' annotations when the class is registered (:func:`engine.codec.codecs_of`)."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    SCHEMA_VERSION: ClassVar[int] = 1
    FIELDS: ClassVar[dict[str, c.Codec]] = {}

    def to_data(self) -> dict[str, Any]:
        return {name: codec.encode(getattr(self, name)) for name, codec in self.FIELDS.items()}

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.TYPE, "schema_version": self.SCHEMA_VERSION, "data": self.to_data()}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Any:
        """Rebuild from a current-version payload; missing or bad fields raise InvalidEvent."""
        if type(data) is not dict and not isinstance(data, Mapping):
            raise InvalidEvent(f"{cls.TYPE}: data must be an object, not {c.short(data)}")
        if data.keys() != cls.FIELDS.keys():  # exactly the declared fields (no sets made)
            unknown = set(data) - set(cls.FIELDS)
            if unknown:
                listed = c.listed(unknown)
                raise InvalidEvent(f"{cls.TYPE}: unknown field(s) {listed}")
        values = {}
        for name, codec in cls.FIELDS.items():
            if name not in data:
                raise InvalidEvent(f"{cls.TYPE}: missing field {name!r}")
            try:
                values[name] = codec.decode(data[name])
            except (TypeError, ValueError, KeyError) as exc:
                raise InvalidEvent(f"{cls.TYPE}: bad {name!r}: {exc}") from exc
        return cls(**values)


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """Seats, mode, rules and stake. How the game ends is in the rule set
    (``game_end``, ``hands``, ``target_score``). ``knock_arrangement`` is how the engine
    chooses a gin knocker's melds among equally good arrangements (one of
    :data:`engine.rules.KNOCK_ARRANGEMENTS`): a new game's is ``fewest_layoffs``; v1
    payloads, written before the field, are read as ``first_best``, the rule they were
    scored by (:mod:`engine.upcasting`)."""

    TYPE: ClassVar[str] = "GameStarted"
    SCHEMA_VERSION: ClassVar[int] = 2
    ruleset: RuleSet
    seats: tuple[Seat, ...]
    mode: str
    first_dealer: SeatIndex
    stake: Fraction
    knock_arrangement: str = FEWEST_LAYOFFS


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A deal. Digital: ``deck`` is the whole deck order used (dealt one at a time from
    the dealer's left, then the upcard, the rest the stock, top first). Physical:
    ``upcard`` and any ``hands`` the scorekeeper knows."""

    TYPE: ClassVar[str] = "HandDealt"
    hand_number: int
    dealer: SeatIndex
    deck: tuple[Card, ...] | None
    upcard: Card | None
    hands: dict[SeatIndex, tuple[Card, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UpcardPassed(Event):
    """A player declined gin's first upcard."""

    TYPE: ClassVar[str] = "UpcardPassed"
    seat: SeatIndex


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """A card taken from the ``stock`` or the ``discard`` pile; ``card`` None when the
    public does not know it (a physical stock draw)."""

    TYPE: ClassVar[str] = "CardDrawn"
    seat: SeatIndex
    source: str
    card: Card | None


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    TYPE: ClassVar[str] = "CardDiscarded"
    seat: SeatIndex
    card: Card


@dataclass(frozen=True, slots=True)
class Knocked(Event):
    """A knock: ``card`` is the face-down discard (None when unknown, physical), or
    ``lay_down`` for a hoyle rum laid down without discarding."""

    TYPE: ClassVar[str] = "Knocked"
    seat: SeatIndex
    card: Card | None
    lay_down: bool = False


@dataclass(frozen=True, slots=True)
class StockRestocked(Event):
    """The empty stock replaced by the discard pile: ``turn_over`` (unshuffled) or
    ``reshuffle`` with ``order`` the new stock, top first (None when unknown)."""

    TYPE: ClassVar[str] = "StockRestocked"
    seat: SeatIndex
    method: str
    order: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class DrawDeclined(Event):
    """The stock is empty and the player to draw did not take the discard: play ends."""

    TYPE: ClassVar[str] = "DrawDeclined"
    seat: SeatIndex


@dataclass(frozen=True, slots=True)
class HandRevealed(Event):
    """Physical showdown: one seat's hand, with the arrangement it declared if any."""

    TYPE: ClassVar[str] = "HandRevealed"
    seat: SeatIndex
    cards: tuple[Card, ...]
    melds: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class HandResultRecorded(Event):
    """Physical quick path: who knocked (None: the stock ran out) and either the final
    ``hands`` (verified, scored by the engine) or only announced ``deadwood`` counts
    (unverified)."""

    TYPE: ClassVar[str] = "HandResultRecorded"
    hand_number: int
    dealer: SeatIndex
    knocker: SeatIndex | None
    hands: dict[SeatIndex, tuple[Card, ...]] | None
    deadwood: dict[SeatIndex, int] | None

    @property
    def verified(self) -> bool:
        return self.hands is not None


@dataclass(frozen=True, slots=True)
class HandScored(Event):
    """A hand's result. ``points`` is what each seat adds to its score (settlement:
    its net payment; knock-rami: its deadwood or -10; gin: points scored); ``outcome``
    is :func:`engine.scoring.score_showdown`'s, or ``void``. ``detail`` holds the
    revealed hands and arrangements (public once scored)."""

    TYPE: ClassVar[str] = "HandScored"
    hand_number: int
    outcome: str
    knocker: SeatIndex | None
    deadwood: dict[SeatIndex, int]
    points: dict[SeatIndex, Fraction]
    winners: tuple[SeatIndex, ...]
    rum_seats: tuple[SeatIndex, ...]
    verified: bool
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReentryDecided(Event):
    """Knock-rami: an eliminated seat re-enters (paying ``paid`` into the pool, its
    score set to ``score``) or stays out."""

    TYPE: ClassVar[str] = "ReentryDecided"
    seat: SeatIndex
    reenter: bool
    paid: Fraction
    score: Fraction


@dataclass(frozen=True, slots=True)
class ScoreAdjusted(Event):
    """A director's penalty (negative) or correction, with the reason."""

    TYPE: ClassVar[str] = "ScoreAdjusted"
    seat: SeatIndex
    points: Fraction
    reason: Reason


@dataclass(frozen=True, slots=True)
class HandCorrected(Event):
    """A director's correction of an earlier hand of a physical game: its result is now
    ``knocker`` (None: the stock ran out) with every seat's final ``hands`` (verified) or
    announced ``deadwood`` (unverified), for ``reason``. ``was_knocker`` and ``was_points``
    are what the hand said until then. The hand's new ``HandScored`` follows, and the game
    is scored again from that hand on (a ``GameFinished`` follows if it is over)."""

    TYPE: ClassVar[str] = "HandCorrected"
    hand_number: int
    knocker: SeatIndex | None
    hands: dict[SeatIndex, tuple[Card, ...]] | None
    deadwood: dict[SeatIndex, int] | None
    reason: Reason
    was_knocker: SeatIndex | None
    was_points: dict[SeatIndex, Fraction]


@dataclass(frozen=True, slots=True)
class SeatReplaced(Event):
    """A substitute (``bot`` None) or a bot takes over a seat."""

    TYPE: ClassVar[str] = "SeatReplaced"
    seat: SeatIndex
    name: Name
    bot: Name | None


@dataclass(frozen=True, slots=True)
class Retracted(Event):
    """Undoes the latest ``count`` events still in effect; they stay in the log."""

    TYPE: ClassVar[str] = "Retracted"
    count: int
    reason: Reason


@dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    TYPE: ClassVar[str] = "GameAbandoned"
    reason: Reason


@dataclass(frozen=True, slots=True)
class GameFinished(Event):
    """The game is over; ``result`` is what the league turns into standings."""

    TYPE: ClassVar[str] = "GameFinished"
    result: MatchResult


def _registered(*classes: type[Event]) -> dict[str, type[Event]]:
    for cls in classes:
        cls.FIELDS = c.codecs_of(cls)
    return {cls.TYPE: cls for cls in classes}


EVENT_TYPES: dict[str, type[Event]] = _registered(
    GameStarted,
    HandDealt,
    UpcardPassed,
    CardDrawn,
    CardDiscarded,
    Knocked,
    StockRestocked,
    DrawDeclined,
    HandRevealed,
    HandResultRecorded,
    HandScored,
    ReentryDecided,
    ScoreAdjusted,
    SeatReplaced,
    Retracted,
    GameAbandoned,
    GameFinished,
    HandCorrected,
)
