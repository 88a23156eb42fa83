"""JSON codecs for the fields of events and commands, and the limits they enforce.

Each codec is an ``(encode, decode)`` pair: cards become canonical codes, fractions
exact strings (``"20/3"``), seat-keyed mappings objects with string keys. Decoders
raise ``ValueError``/``TypeError`` (``InvalidCard`` for a bad card) on bad input; the
callers turn that into their own error (``malformed_command``, ``invalid_event``)
naming the field.

A field's codec follows from its annotation (:func:`codecs_of`), so each field is
declared once, on the dataclass. Parsed dicts are the engine's boundary; these are
its limits (docs/api.md, "Limits"):

- a seat is a whole number ``0 .. MAX_SEAT``; a hand number, count or deadwood
  ``0 .. MAX_NUMBER``; booleans are never numbers;
- an exact number is an integer or a ``"p/q"`` string of at most 20 digits a side,
  with ``|value| <=`` :data:`MAX_POINTS` (commands: :data:`MAX_INPUT_POINTS`) and a
  denominator of at most :data:`MAX_DENOMINATOR`;
- a name (a seat's, a bot's) is at most :data:`MAX_NAME` characters, a reason
  :data:`MAX_REASON`, any other string :data:`MAX_WORD`; no string holds NUL or a
  lone surrogate;
- a list of cards holds at most :data:`MAX_CARDS`.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.cards import ALL_CARDS, Card, card_of_code, cards_of_codes, parse_cards
from engine.rules import MAX_PLAYERS, RuleSet
from engine.values import MatchResult, Seat

MAX_SEAT = MAX_PLAYERS - 1
MAX_NUMBER = 1_000_000
MAX_INPUT_POINTS = 1_000_000  # what a command may give: a stake, an adjustment
MAX_POINTS = 10**12  # what an event may hold: sums of many hands and adjustments
MAX_DENOMINATOR = 1_000_000
MAX_NAME = 80  # the games layer's seat names are 1 to 80 characters
MAX_REASON = 500
MAX_WORD = 64
MAX_CARDS = 2 * 54
MAX_DETAIL_DEPTH = 8

# Annotation aliases: the field's type for mypy, its limits for the codec.
SeatIndex = int
Name = str
Reason = str
InputPoints = Fraction

_EXACT = re.compile(r"-?[0-9]{1,20}(/[0-9]{1,20})?")


@dataclass(frozen=True, slots=True)
class Codec:
    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


def _whole(value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {short(value)}")
    if not low <= value <= high:
        raise ValueError(f"expected a whole number {low}..{high}, got {short(value)}")
    return int(value)


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def listed(keys: Iterable[Any]) -> str:
    """Unknown field names for a message: the first few, each cut short."""
    names = sorted(key if isinstance(key, str) and len(key) <= 40 else short(key) for key in keys)
    return ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")


def _seat(value: Any) -> int:
    return _whole(value, 0, MAX_SEAT)


def _number(value: Any) -> int:
    return _whole(value, 0, MAX_NUMBER)


def text(limit: int) -> Callable[[Any], str]:
    """A decoder of strings of at most ``limit`` characters, without NUL or lone surrogates."""

    def decode(value: Any) -> str:
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {short(value)}")
        if len(value) > limit:
            raise ValueError(f"expected at most {limit} characters, got {len(value)}")
        if "\x00" in value:
            raise ValueError("a string may not contain NUL")
        if not value.isascii():  # the common case skips the encoding test
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise ValueError("a string may not contain a lone surrogate") from None
        return value

    return decode


_CARD_CODES = frozenset(card.code for card in ALL_CARDS)
_word = text(MAX_WORD)
_reason = text(MAX_REASON)


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {short(value)}")
    return value


def _card(value: Any) -> Card:
    if type(value) is str:
        card = card_of_code(value)  # a stored code: one lookup
        if card is not None:
            return card
    if isinstance(value, Card):
        return value
    return Card.parse(_word(value))


def _cards(value: Any) -> tuple[Card, ...]:
    if type(value) is list and len(value) <= MAX_CARDS:
        cards = cards_of_codes(value)  # stored codes: one lookup each, no call per card
        if cards is not None:
            return cards
    if isinstance(value, str):
        cards = parse_cards(_reason(value))
    elif isinstance(value, (list, tuple)):
        if len(value) > MAX_CARDS:
            raise ValueError(f"expected at most {MAX_CARDS} cards, got {len(value)}")
        cards = tuple([_card(v) for v in value])
    else:
        raise TypeError(f"expected a list of cards, got {short(value)}")
    if len(cards) > MAX_CARDS:
        raise ValueError(f"expected at most {MAX_CARDS} cards, got {len(cards)}")
    return cards


def exact(limit: int) -> Callable[[Any], Fraction]:
    """A decoder of exact numbers (an integer or a ``"p/q"`` string) with ``|value| <= limit``."""

    def decode(value: Any) -> Fraction:
        if isinstance(value, Fraction):
            number = value
        elif isinstance(value, int) and not isinstance(value, bool):
            number = Fraction(_whole(value, -limit, limit))
        elif isinstance(value, str):
            if not _EXACT.fullmatch(value.strip()):
                raise ValueError(f"expected an exact number like '7' or '-20/3', got {short(value)}")
            numerator, _, denominator = value.strip().partition("/")
            if denominator and int(denominator) == 0:
                raise ValueError(f"{value!r} divides by zero")
            number = Fraction(int(numerator), int(denominator or 1))
        else:
            raise TypeError(f"expected an exact number (integer or 'p/q' string), got {short(value)}")
        if abs(number) > limit or number.denominator > MAX_DENOMINATOR:
            raise ValueError(
                f"expected an exact number within ±{limit} (denominator at most {MAX_DENOMINATOR}), "
                f"got {short(value)}"
            )
        return number

    return decode


def _seat_key(key: Any) -> int:
    if isinstance(key, str) and key.isdigit() and len(key) <= 2:
        return _seat(int(key))
    return _seat(key)


def _seat_map(decode_value: Callable[[Any], Any]) -> Callable[[Any], dict[int, Any]]:
    def decode(value: Any) -> dict[int, Any]:
        if type(value) is not dict and not isinstance(value, Mapping):
            raise TypeError(f"expected an object keyed by seat, got {short(value)}")
        if len(value) > MAX_PLAYERS:
            raise ValueError(f"expected at most {MAX_PLAYERS} seats, got {len(value)}")
        return {_seat_key(k): decode_value(v) for k, v in value.items()}

    return decode


def _optional(codec: Codec) -> Codec:
    return Codec(
        lambda v: None if v is None else codec.encode(v),
        lambda v: None if v is None else codec.decode(v),
    )


def _list(value: Any, limit: int, what: str) -> list[Any] | tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"expected a list of {what}, got {short(value)}")
    if len(value) > limit:
        raise ValueError(f"expected at most {limit} {what}, got {len(value)}")
    return value


_name = text(MAX_NAME)


def _seats(value: Any) -> tuple[Seat, ...]:
    seats = []
    for item in _list(value, MAX_PLAYERS, "seats"):
        if isinstance(item, Seat):
            seats.append(Seat(_name(item.name), None if item.bot is None else _name(item.bot)))
        elif isinstance(item, str):
            seats.append(Seat(_name(item)))
        elif isinstance(item, Mapping):
            bot = item.get("bot")
            seats.append(Seat(_name(item.get("name")), None if bot is None else _name(bot)))
        else:
            raise TypeError(f"a seat is a name or {{'name': ..., 'bot': ...}}, not {short(item)}")
    return tuple(seats)


def _ruleset(value: Any) -> RuleSet:
    if isinstance(value, RuleSet):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a stored rule set, got {short(value)}")
    return RuleSet.from_dict(value)


def _melds(value: Any) -> tuple[tuple[Card, ...], ...]:
    return tuple(_cards(meld) for meld in _list(value, MAX_CARDS, "melds"))


def _seat_list(value: Any) -> tuple[int, ...]:
    return tuple(_seat(x) for x in _list(value, MAX_PLAYERS, "seats"))


def _detail(value: Any, depth: int = 0) -> Any:
    """A scored hand's JSON detail: plain JSON within the limits, nested at most a few
    levels; checked in place (it is mostly card codes, read with every stored hand)."""
    kind = type(value)
    if kind is str:
        if len(value) <= MAX_WORD and value.isascii() and "\x00" not in value:
            return value
        return _reason(value)
    if kind is list or kind is dict:
        if depth >= MAX_DETAIL_DEPTH:
            raise ValueError(f"nested more than {MAX_DETAIL_DEPTH} levels deep")
        if len(value) > 4 * MAX_CARDS:
            raise ValueError(f"expected at most {4 * MAX_CARDS} items, got {len(value)}")
        if kind is list:
            try:
                if all(map(_CARD_CODES.__contains__, value)):  # a hand or a meld: the usual list
                    return value
            except TypeError:  # an unhashable item: checked one by one below
                pass
        if kind is dict:
            for key, item in value.items():
                _word(key)
                _detail(item, depth + 1)
        else:
            for item in value:
                _detail(item, depth + 1)
        return value
    if value is None or kind is bool:
        return value
    if kind is int:
        return _whole(value, -MAX_POINTS, MAX_POINTS)
    if kind is float:
        if not math.isfinite(value) or abs(value) > MAX_POINTS:
            raise ValueError(f"expected a finite number within ±{MAX_POINTS}, got {short(value)}")
        return value
    if isinstance(value, (list, tuple, Mapping)):  # built in Python rather than read from JSON
        return _detail(dict(value) if isinstance(value, Mapping) else list(value), depth)
    raise TypeError(f"expected JSON, got {short(value)}")


_points = exact(MAX_POINTS)


def _result(value: Any) -> MatchResult:
    if isinstance(value, MatchResult):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a match result, got {short(value)}")
    names = [f.name for f in dataclasses.fields(MatchResult)]
    if sorted(value) != sorted(names):
        raise ValueError(f"a match result has exactly the fields {', '.join(names)}")

    def fractions(key: str) -> tuple[Fraction, ...]:
        return tuple(_points(p) for p in _list(value[key], MAX_PLAYERS, key))

    def numbers(key: str) -> tuple[int, ...]:
        return tuple(_number(n) for n in _list(value[key], MAX_PLAYERS, key))

    return MatchResult(
        ranking=tuple(_seat_list(place) for place in _list(value["ranking"], MAX_PLAYERS, "places")),
        places=numbers("places"),
        points=fractions("points"),
        totals=fractions("totals"),
        hands_won=numbers("hands_won"),
        rums=numbers("rums"),
        hands_played=_number(value["hands_played"]),
        pool=_points(value["pool"]),
        winners=_seat_list(value["winners"]),
    )


def _same(v: Any) -> Any:
    return v


SEAT = Codec(_same, _seat)
NUMBER = Codec(_same, _number)
WORD = Codec(_same, _word)
NAME = Codec(_same, text(MAX_NAME))
REASON = Codec(_same, _reason)
BOOL = Codec(_same, _bool)
CARD = Codec(str, _card)
CARDS = Codec(lambda v: [str(c) for c in v], _cards)
FRACTION = Codec(str, _points)
INPUT_FRACTION = Codec(str, exact(MAX_INPUT_POINTS))
SEATS = Codec(lambda v: [s.to_dict() for s in v], _seats)
RULESET = Codec(lambda v: v.to_dict(), _ruleset)
SEAT_LIST = Codec(list, _seat_list)
MELDS = Codec(lambda v: [[str(c) for c in meld] for meld in v], _melds)
HANDS = Codec(lambda v: {str(seat): [str(c) for c in cards] for seat, cards in v.items()}, _seat_map(_cards))
COUNTS = Codec(lambda v: {str(seat): n for seat, n in v.items()}, _seat_map(_number))
POINTS = Codec(lambda v: {str(seat): str(p) for seat, p in v.items()}, _seat_map(_points))
DETAIL = Codec(_same, _detail)
RESULT = Codec(lambda v: v.to_dict(), _result)

# The codec of each annotation an event or command field may carry (see codecs_of).
BY_ANNOTATION: dict[str, Codec] = {
    "SeatIndex": SEAT,
    "int": NUMBER,
    "str": WORD,
    "Name": NAME,
    "Reason": REASON,
    "bool": BOOL,
    "Card": CARD,
    "tuple[Card, ...]": CARDS,
    "Fraction": FRACTION,
    "InputPoints": INPUT_FRACTION,
    "tuple[Seat, ...]": SEATS,
    "RuleSet": RULESET,
    "tuple[SeatIndex, ...]": SEAT_LIST,
    "tuple[tuple[Card, ...], ...]": MELDS,
    "dict[SeatIndex, tuple[Card, ...]]": HANDS,
    "dict[SeatIndex, int]": COUNTS,
    "dict[SeatIndex, Fraction]": POINTS,
    "dict[str, Any]": DETAIL,
    "MatchResult": RESULT,
}


def codecs_of(cls: type, by_annotation: Mapping[str, Codec] = BY_ANNOTATION) -> dict[str, Codec]:
    """Each field of the dataclass ``cls`` with its codec, in order, read off its annotation
    (``X | None`` is ``X``'s codec that also passes None). A field whose annotation has
    no codec is a programming error, raised at import."""
    codecs: dict[str, Codec] = {}
    for f in dataclasses.fields(cls):
        annotation = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", repr(f.type))
        base, optional = annotation, annotation.endswith(" | None")
        if optional:
            base = annotation.removesuffix(" | None")
        codec = by_annotation.get(base)
        if codec is None:
            raise TypeError(f"{cls.__name__}.{f.name}: no codec for the annotation {annotation!r}")
        codecs[f.name] = _optional(codec) if optional else codec
    return codecs
