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
from engine.errors import EngineError
from engine.rules import InvalidRuleSet, RuleSet
from engine.values import MatchResult, Seat


class InvalidEvent(EngineError):
    """A stored event that cannot be read: unknown type, newer schema, bad data."""

    default_code = "invalid_event"


class Event:
    """Base of all events. Subclasses declare ``TYPE``, ``SCHEMA_VERSION`` and ``FIELDS``
    (the codec of each field, in order)."""

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
            raise InvalidEvent(f"{cls.TYPE}: data must be an object, not {data!r}")
        if data.keys() != cls.FIELDS.keys():  # exactly the declared fields (no sets made)
            unknown = set(data) - set(cls.FIELDS)
            if unknown:
                raise InvalidEvent(f"{cls.TYPE}: unknown field(s) {', '.join(sorted(unknown))}")
        values = {}
        for name, codec in cls.FIELDS.items():
            if name not in data:
                raise InvalidEvent(f"{cls.TYPE}: missing field {name!r}")
            try:
                values[name] = codec.decode(data[name])
            except (TypeError, ValueError, KeyError, InvalidRuleSet) as exc:
                raise InvalidEvent(f"{cls.TYPE}: bad {name!r}: {exc}") from exc
        return cls(**values)


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """Seats, mode, rules and stake. How the game ends is in the rule set
    (``game_end``, ``hands``, ``target_score``)."""

    TYPE: ClassVar[str] = "GameStarted"
    FIELDS: ClassVar[dict[str, c.Codec]] = {
        "ruleset": c.RULESET,
        "seats": c.SEATS,
        "mode": c.STR,
        "first_dealer": c.INT,
        "stake": c.FRACTION,
    }
    ruleset: RuleSet
    seats: tuple[Seat, ...]
    mode: str
    first_dealer: int
    stake: Fraction


@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A deal. Digital: ``deck`` is the whole deck order used (dealt one at a time from
    the dealer's left, then the upcard, the rest the stock, top first). Physical:
    ``upcard`` and any ``hands`` the scorekeeper knows."""

    TYPE: ClassVar[str] = "HandDealt"
    FIELDS: ClassVar[dict[str, c.Codec]] = {
        "hand_number": c.INT,
        "dealer": c.INT,
        "deck": c.OPT_CARDS,
        "upcard": c.OPT_CARD,
        "hands": c.HANDS,
    }
    hand_number: int
    dealer: int
    deck: tuple[Card, ...] | None
    upcard: Card | None
    hands: dict[int, tuple[Card, ...]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class UpcardPassed(Event):
    """A player declined gin's first upcard."""

    TYPE: ClassVar[str] = "UpcardPassed"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT}
    seat: int


@dataclass(frozen=True, slots=True)
class CardDrawn(Event):
    """A card taken from the ``stock`` or the ``discard`` pile; ``card`` None when the
    public does not know it (a physical stock draw)."""

    TYPE: ClassVar[str] = "CardDrawn"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT, "source": c.STR, "card": c.OPT_CARD}
    seat: int
    source: str
    card: Card | None


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    TYPE: ClassVar[str] = "CardDiscarded"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT, "card": c.CARD}
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Knocked(Event):
    """A knock: ``card`` is the face-down discard (None when unknown, physical), or
    ``lay_down`` for a hoyle rum laid down without discarding."""

    TYPE: ClassVar[str] = "Knocked"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT, "card": c.OPT_CARD, "lay_down": c.BOOL}
    seat: int
    card: Card | None
    lay_down: bool = False


@dataclass(frozen=True, slots=True)
class StockRestocked(Event):
    """The empty stock replaced by the discard pile: ``turn_over`` (unshuffled) or
    ``reshuffle`` with ``order`` the new stock, top first (None when unknown)."""

    TYPE: ClassVar[str] = "StockRestocked"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT, "method": c.STR, "order": c.OPT_CARDS}
    seat: int
    method: str
    order: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class DrawDeclined(Event):
    """The stock is empty and the player to draw did not take the discard: play ends."""

    TYPE: ClassVar[str] = "DrawDeclined"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT}
    seat: int


@dataclass(frozen=True, slots=True)
class HandRevealed(Event):
    """Physical showdown: one seat's hand, with the arrangement it declared if any."""

    TYPE: ClassVar[str] = "HandRevealed"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT, "cards": c.CARDS, "melds": c.OPT_MELDS}
    seat: int
    cards: tuple[Card, ...]
    melds: tuple[tuple[Card, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class HandResultRecorded(Event):
    """Physical quick path: who knocked (None: the stock ran out) and either the final
    ``hands`` (verified, scored by the engine) or only announced ``deadwood`` counts
    (unverified)."""

    TYPE: ClassVar[str] = "HandResultRecorded"
    FIELDS: ClassVar[dict[str, c.Codec]] = {
        "hand_number": c.INT,
        "dealer": c.INT,
        "knocker": c.OPT_INT,
        "hands": c.OPT_HANDS,
        "deadwood": c.OPT_COUNTS,
    }
    hand_number: int
    dealer: int
    knocker: int | None
    hands: dict[int, tuple[Card, ...]] | None
    deadwood: dict[int, int] | None

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
    FIELDS: ClassVar[dict[str, c.Codec]] = {
        "hand_number": c.INT,
        "outcome": c.STR,
        "knocker": c.OPT_INT,
        "deadwood": c.COUNTS,
        "points": c.POINTS,
        "winners": c.INTS,
        "rum_seats": c.INTS,
        "verified": c.BOOL,
        "detail": c.JSON,
    }
    hand_number: int
    outcome: str
    knocker: int | None
    deadwood: dict[int, int]
    points: dict[int, Fraction]
    winners: tuple[int, ...]
    rum_seats: tuple[int, ...]
    verified: bool
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReentryDecided(Event):
    """Knock-rami: an eliminated seat re-enters (paying ``paid`` into the pool, its
    score set to ``score``) or stays out."""

    TYPE: ClassVar[str] = "ReentryDecided"
    FIELDS: ClassVar[dict[str, c.Codec]] = {
        "seat": c.INT,
        "reenter": c.BOOL,
        "paid": c.FRACTION,
        "score": c.FRACTION,
    }
    seat: int
    reenter: bool
    paid: Fraction
    score: Fraction


@dataclass(frozen=True, slots=True)
class ScoreAdjusted(Event):
    """A director's penalty (negative) or correction, with the reason."""

    TYPE: ClassVar[str] = "ScoreAdjusted"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT, "points": c.FRACTION, "reason": c.STR}
    seat: int
    points: Fraction
    reason: str


@dataclass(frozen=True, slots=True)
class SeatReplaced(Event):
    """A substitute (``bot`` None) or a bot takes over a seat."""

    TYPE: ClassVar[str] = "SeatReplaced"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"seat": c.INT, "name": c.STR, "bot": c.OPT_STR}
    seat: int
    name: str
    bot: str | None


@dataclass(frozen=True, slots=True)
class Retracted(Event):
    """Undoes the latest ``count`` events still in effect; they stay in the log."""

    TYPE: ClassVar[str] = "Retracted"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"count": c.INT, "reason": c.STR}
    count: int
    reason: str


@dataclass(frozen=True, slots=True)
class GameAbandoned(Event):
    TYPE: ClassVar[str] = "GameAbandoned"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"reason": c.STR}
    reason: str


@dataclass(frozen=True, slots=True)
class GameFinished(Event):
    """The game is over; ``result`` is what the league turns into standings."""

    TYPE: ClassVar[str] = "GameFinished"
    FIELDS: ClassVar[dict[str, c.Codec]] = {"result": c.RESULT}
    result: MatchResult


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
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
    )
}
