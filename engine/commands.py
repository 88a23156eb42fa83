"""Commands: what a player, scorekeeper or director asks for, in the imperative.

:func:`engine.decide` turns a command into events or raises ``IllegalMove``. The wire
form is flat: ``{"type": "Discard", "seat": 0, "card": "QS"}``.

>>> cmd = command_from_dict({"type": "Discard", "seat": 0, "card": "qs"})
>>> cmd
Discard(seat=0, card=Card('QS'))
>>> command_to_dict(cmd)
{'type': 'Discard', 'seat': 0, 'card': 'QS'}
>>> command_from_dict({"type": "Discard", "seat": 0, "card": "QZ"})
Traceback (most recent call last):
...
engine.errors.IllegalMove: Discard: 'card' is not a card: invalid card 'QZ'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from engine import codec as c
from engine.cards import Card, InvalidCard, parse_cards
from engine.codec import InputPoints, Name, Reason, SeatIndex
from engine.errors import IllegalMove
from engine.rules import RuleSet, get_ruleset
from engine.values import Seat


class Command:
    """Base of all commands: ``TYPE`` and the dataclass fields; ``FIELDS``, the codec of
    each field, is read off their annotations when the class is registered."""

    __slots__ = ()
    TYPE: ClassVar[str] = ""
    FIELDS: ClassVar[dict[str, c.Codec]] = {}

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.TYPE}
        for name, codec in self.FIELDS.items():
            data[name] = codec.encode(getattr(self, name))
        return data


def _set(obj: object, name: str, value: Any) -> None:
    object.__setattr__(obj, name, value)


def _cards_or_none(value: Any) -> tuple[Card, ...] | None:
    if value is None:
        return None
    return parse_cards(value) if isinstance(value, str) else tuple(value)


def _hands(value: Any) -> dict[int, tuple[Card, ...]]:
    return {
        seat: parse_cards(cards) if isinstance(cards, str) else tuple(cards) for seat, cards in value.items()
    }


def _ruleset_arg(value: Any) -> RuleSet:
    if isinstance(value, str):
        return get_ruleset(value)
    return c.RULESET.decode(value)  # type: ignore[no-any-return]


# On the wire a command may name a preset instead of giving a whole rule set.
_BY_ANNOTATION = {**c.BY_ANNOTATION, "RuleSet": c.Codec(lambda v: v.to_dict(), _ruleset_arg)}


@dataclass(frozen=True, slots=True)
class StartGame(Command):
    """Open a game: rule set (a preset name is accepted on the wire), seats (names or
    ``{"name", "bot"}``), ``digital`` or ``physical``, first dealer, stake per player."""

    TYPE: ClassVar[str] = "StartGame"
    ruleset: RuleSet
    seats: tuple[Seat, ...]
    mode: str = "digital"
    first_dealer: SeatIndex = 0
    stake: InputPoints = Fraction(0)

    def __post_init__(self) -> None:
        try:
            _set(self, "seats", c.SEATS.decode(list(self.seats)))
        except (TypeError, ValueError) as exc:  # built in Python: the same refusal as on the wire
            raise IllegalMove(f"StartGame: bad 'seats': {exc}", "malformed_command") from exc
        if not isinstance(self.stake, Fraction):
            _set(self, "stake", Fraction(self.stake))


@dataclass(frozen=True, slots=True)
class DealHand(Command):
    """Deal the next hand. Digital: ``deck``, the whole deck in the order used (from
    :func:`engine.shuffled_deck`). Physical: the ``upcard`` and any ``hands`` known."""

    TYPE: ClassVar[str] = "DealHand"
    deck: tuple[Card, ...] | None = None
    upcard: Card | None = None
    hands: dict[SeatIndex, tuple[Card, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _set(self, "deck", _cards_or_none(self.deck))
        if isinstance(self.upcard, str):
            _set(self, "upcard", Card.parse(self.upcard))
        _set(self, "hands", _hands(self.hands or {}))


@dataclass(frozen=True, slots=True)
class PassUpcard(Command):
    """Decline gin's first upcard."""

    TYPE: ClassVar[str] = "PassUpcard"
    seat: SeatIndex


@dataclass(frozen=True, slots=True)
class DrawFromStock(Command):
    """Draw the top stock card. Physical: ``card`` only if the public knows it."""

    TYPE: ClassVar[str] = "DrawFromStock"
    seat: SeatIndex
    card: Card | None = None


@dataclass(frozen=True, slots=True)
class DrawFromDiscard(Command):
    """Take the top card of the discard pile (gin's first upcard included)."""

    TYPE: ClassVar[str] = "DrawFromDiscard"
    seat: SeatIndex


@dataclass(frozen=True, slots=True)
class Discard(Command):
    TYPE: ClassVar[str] = "Discard"
    seat: SeatIndex
    card: Card


@dataclass(frozen=True, slots=True)
class Knock(Command):
    """Knock, discarding ``card`` face down. ``lay_down``: a hoyle rum laid down
    without discarding (``card`` None). Physical: ``card`` None if not seen."""

    TYPE: ClassVar[str] = "Knock"
    seat: SeatIndex
    card: Card | None = None
    lay_down: bool = False


@dataclass(frozen=True, slots=True)
class Restock(Command):
    """The stock is empty: turn the discard pile over (or reshuffle it, by the rule set)
    as a new stock. ``order`` optionally gives a digital reshuffle's new order."""

    TYPE: ClassVar[str] = "Restock"
    seat: SeatIndex
    order: tuple[Card, ...] | None = None

    def __post_init__(self) -> None:
        _set(self, "order", _cards_or_none(self.order))


@dataclass(frozen=True, slots=True)
class DeclineDraw(Command):
    """The stock is empty and the player does not take the discard: play ends."""

    TYPE: ClassVar[str] = "DeclineDraw"
    seat: SeatIndex


@dataclass(frozen=True, slots=True)
class RevealHand(Command):
    """Physical showdown: the cards one seat shows, optionally arranged into melds."""

    TYPE: ClassVar[str] = "RevealHand"
    seat: SeatIndex
    cards: tuple[Card, ...]
    melds: tuple[tuple[Card, ...], ...] | None = None

    def __post_init__(self) -> None:
        _set(self, "cards", _cards_or_none(self.cards))
        if self.melds is not None:
            _set(self, "melds", tuple(_cards_or_none(m) or () for m in self.melds))


@dataclass(frozen=True, slots=True)
class RecordHandResult(Command):
    """Physical quick path: who knocked (None: stock ran out) and either every seat's
    final ``hands`` (verified) or its announced ``deadwood`` (unverified)."""

    TYPE: ClassVar[str] = "RecordHandResult"
    knocker: SeatIndex | None = None
    hands: dict[SeatIndex, tuple[Card, ...]] | None = None
    deadwood: dict[SeatIndex, int] | None = None

    def __post_init__(self) -> None:
        if self.hands is not None:
            _set(self, "hands", _hands(self.hands))
        if self.deadwood is not None:
            _set(self, "deadwood", dict(self.deadwood))


@dataclass(frozen=True, slots=True)
class DecideReentry(Command):
    """Knock-rami: an eliminated seat re-enters (paying half the pool) or not."""

    TYPE: ClassVar[str] = "DecideReentry"
    seat: SeatIndex
    reenter: bool


@dataclass(frozen=True, slots=True)
class AdjustScore(Command):
    """A director's penalty (negative points) or correction; a reason is required."""

    TYPE: ClassVar[str] = "AdjustScore"
    seat: SeatIndex
    points: InputPoints
    reason: Reason

    def __post_init__(self) -> None:
        if not isinstance(self.points, Fraction):
            _set(self, "points", Fraction(self.points))


@dataclass(frozen=True, slots=True)
class CorrectHand(Command):
    """A director replaces the recorded result of hand ``hand_number`` of a physical game
    (between hands, or once the game is over): who knocked (None: the stock ran out) and
    every seat's final ``hands`` or announced ``deadwood``, as on the quick path. The game
    is scored again from that hand on; a reason is required."""

    TYPE: ClassVar[str] = "CorrectHand"
    hand_number: int
    reason: Reason
    knocker: SeatIndex | None = None
    hands: dict[SeatIndex, tuple[Card, ...]] | None = None
    deadwood: dict[SeatIndex, int] | None = None

    def __post_init__(self) -> None:
        if self.hands is not None:
            _set(self, "hands", _hands(self.hands))
        if self.deadwood is not None:
            _set(self, "deadwood", dict(self.deadwood))


@dataclass(frozen=True, slots=True)
class ReplaceSeat(Command):
    """Give a seat to a substitute (``bot`` None) or a bot."""

    TYPE: ClassVar[str] = "ReplaceSeat"
    seat: SeatIndex
    name: Name
    bot: Name | None = None


@dataclass(frozen=True, slots=True)
class Retract(Command):
    """Undo the latest ``count`` events still in effect (a correction; they stay logged)."""

    TYPE: ClassVar[str] = "Retract"
    count: int = 1
    reason: Reason = ""


@dataclass(frozen=True, slots=True)
class AbandonGame(Command):
    TYPE: ClassVar[str] = "AbandonGame"
    reason: Reason = ""


def _registered(*classes: type[Command]) -> dict[str, type[Command]]:
    for cls in classes:
        cls.FIELDS = c.codecs_of(cls, _BY_ANNOTATION)
    return {cls.TYPE: cls for cls in classes}


COMMAND_TYPES: dict[str, type[Command]] = _registered(
    StartGame,
    DealHand,
    PassUpcard,
    DrawFromStock,
    DrawFromDiscard,
    Discard,
    Knock,
    Restock,
    DeclineDraw,
    RevealHand,
    RecordHandResult,
    DecideReentry,
    AdjustScore,
    ReplaceSeat,
    Retract,
    AbandonGame,
    CorrectHand,
)


def command_from_dict(data: Mapping[str, Any]) -> Command:
    """Parse a flat command ``{"type": ..., field: value, ...}``; raises ``IllegalMove``
    with code ``unknown_command``, ``malformed_command`` or ``invalid_card``.

    >>> command_from_dict({"type": "Knock", "seat": 1, "card": "7h"})
    Knock(seat=1, card=Card('7H'), lay_down=False)
    >>> command_from_dict({"type": "Shuffle"})
    Traceback (most recent call last):
    ...
    engine.errors.IllegalMove: unknown command type 'Shuffle'
    """
    if not isinstance(data, Mapping):
        raise IllegalMove(f"a command is an object, not {c.short(data)}", "malformed_command")
    name = data.get("type")
    cls = COMMAND_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        if name is None:
            known = ", ".join(sorted(COMMAND_TYPES))
            raise IllegalMove(f"a command needs a 'type' (one of {known})", "malformed_command")
        raise IllegalMove(f"unknown command type {c.short(name)}", "unknown_command")
    unknown = set(data) - set(cls.FIELDS) - {"type"}
    if unknown:
        listed = c.listed(unknown)
        raise IllegalMove(f"{name}: unknown field(s) {listed}", "malformed_command")
    defaults = {
        f.name
        for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
    }
    values = {}
    for key, codec in cls.FIELDS.items():
        if key not in data:
            if key in defaults:
                continue
            raise IllegalMove(f"{name}: missing field {key!r}", "malformed_command")
        try:
            values[key] = codec.decode(data[key])
        except InvalidCard as exc:
            raise IllegalMove(f"{name}: {key!r} is not a card: {exc}", "invalid_card") from exc
        except (TypeError, ValueError, KeyError) as exc:
            raise IllegalMove(f"{name}: bad {key!r}: {exc}", "malformed_command") from exc
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:  # pragma: no cover - the codecs catch these first
        raise IllegalMove(f"{name}: {exc}", "malformed_command") from exc


def command_to_dict(command: Command) -> dict[str, Any]:
    """The flat wire form of ``command``, JSON-ready; the inverse of :func:`command_from_dict`.

    >>> command_to_dict(DrawFromStock(seat=1))
    {'type': 'DrawFromStock', 'seat': 1, 'card': None}
    """
    return command.to_dict()
