"""JSON codecs for the fields of events and commands.

Each codec is an ``(encode, decode)`` pair: cards become canonical codes, fractions
exact strings (``"20/3"``), seat-keyed mappings objects with string keys. Decoders
raise ``ValueError``/``TypeError`` (``InvalidCard`` for a bad card) on bad input; the
callers turn that into their own error with the field's name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from engine.cards import Card, card_of_code, cards_of_codes, parse_cards
from engine.rules import RuleSet
from engine.values import MatchResult, Seat


@dataclass(frozen=True, slots=True)
class Codec:
    encode: Callable[[Any], Any]
    decode: Callable[[Any], Any]


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {value!r}")
    return int(value)


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {value!r}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value


def _card(value: Any) -> Card:
    if type(value) is str:
        card = card_of_code(value)  # a stored code: one lookup
        if card is not None:
            return card
    if isinstance(value, Card):
        return value
    return Card.parse(_str(value))


def _cards(value: Any) -> tuple[Card, ...]:
    if type(value) is list:
        cards = cards_of_codes(value)  # stored codes: one lookup each, no call per card
        if cards is not None:
            return cards
    if isinstance(value, str):
        return parse_cards(value)
    if not isinstance(value, Iterable):
        raise TypeError(f"expected a list of cards, got {value!r}")
    return tuple([_card(v) for v in value])


def _fraction(value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, str, Fraction)):
        raise TypeError(f"expected an exact number (integer or 'p/q' string), got {value!r}")
    return Fraction(value)


def _seat_key(key: Any) -> int:
    if isinstance(key, str) and key.strip().isdigit():
        return int(key)
    return _int(key)


def _seat_map(decode_value: Callable[[Any], Any]) -> Callable[[Any], dict[int, Any]]:
    def decode(value: Any) -> dict[int, Any]:
        if type(value) is not dict and not isinstance(value, Mapping):
            raise TypeError(f"expected an object keyed by seat, got {value!r}")
        return {_seat_key(k): decode_value(v) for k, v in value.items()}

    return decode


def _optional(codec: Codec) -> Codec:
    return Codec(
        lambda v: None if v is None else codec.encode(v),
        lambda v: None if v is None else codec.decode(v),
    )


def _seats(value: Any) -> tuple[Seat, ...]:
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"expected a list of seats, got {value!r}")
    seats = []
    for item in value:
        if isinstance(item, Seat):
            seats.append(item)
        elif isinstance(item, str):
            seats.append(Seat(item))
        elif isinstance(item, Mapping):
            bot = item.get("bot")
            seats.append(Seat(_str(item.get("name")), None if bot is None else _str(bot)))
        else:
            raise TypeError(f"a seat is a name or {{'name': ..., 'bot': ...}}, not {item!r}")
    return tuple(seats)


def _ruleset(value: Any) -> RuleSet:
    if isinstance(value, RuleSet):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"expected a stored rule set, got {value!r}")
    return RuleSet.from_dict(value)


def _melds(value: Any) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"expected a list of melds, got {value!r}")
    return tuple(_cards(meld) for meld in value)


INT = Codec(lambda v: v, _int)
OPT_INT = _optional(INT)
STR = Codec(lambda v: v, _str)
OPT_STR = _optional(STR)
BOOL = Codec(lambda v: v, _bool)
CARD = Codec(str, _card)
OPT_CARD = _optional(CARD)
CARDS = Codec(lambda v: [str(c) for c in v], _cards)
OPT_CARDS = _optional(CARDS)
FRACTION = Codec(str, _fraction)
SEATS = Codec(lambda v: [s.to_dict() for s in v], _seats)
RULESET = Codec(lambda v: v.to_dict(), _ruleset)
INTS = Codec(list, lambda v: tuple(_int(x) for x in v))
MELDS = Codec(lambda v: [[str(c) for c in meld] for meld in v], _melds)
OPT_MELDS = _optional(MELDS)
HANDS = Codec(lambda v: {str(seat): [str(c) for c in cards] for seat, cards in v.items()}, _seat_map(_cards))
OPT_HANDS = _optional(HANDS)
COUNTS = Codec(lambda v: {str(seat): n for seat, n in v.items()}, _seat_map(_int))
OPT_COUNTS = _optional(COUNTS)
POINTS = Codec(lambda v: {str(seat): str(p) for seat, p in v.items()}, _seat_map(_fraction))
JSON = Codec(lambda v: v, lambda v: v)
RESULT = Codec(lambda v: v.to_dict(), lambda v: v if isinstance(v, MatchResult) else MatchResult.from_dict(v))
