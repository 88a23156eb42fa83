"""Playing cards: parsing, formatting and decks.

Every card is one of 54 interned values, identified by an ``index``: the 52
natural cards are ``suit * 13 + (rank - 1)`` with suits in ``C D H S`` order and
ranks ``A``..``K`` as 1..13; the jokers ``X1`` and ``X2`` are 52 and 53.
``1 << card.index`` is the card's bit in a hand mask, which is what the fast
deadwood code works on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from engine.errors import EngineError

SUITS = "CDHS"
RANKS = "A23456789TJQK"
JOKER_INDICES = (52, 53)


class InvalidCard(EngineError):
    """A card code that cannot be parsed (code ``invalid_card``); ``token`` is the offending text."""

    default_code = "invalid_card"

    def __init__(self, token: str, reason: str = "") -> None:
        self.token = token
        detail = f": {reason}" if reason else ""
        shown = token if len(token) <= 20 else token[:17] + "..."
        super().__init__(f"invalid card {shown!r}{detail}")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card, ordered by ``index`` (clubs, diamonds, hearts, spades, then jokers).

    >>> Card.parse("10h")
    Card('TH')
    >>> str(Card.parse("qs")), Card.parse("QS").rank, Card.parse("QS").value
    ('QS', 12, 10)
    >>> Card.parse("*2").is_joker
    True
    """

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < 54:
            raise InvalidCard(str(self.index), "index out of range 0..53")

    @staticmethod
    def of(rank: int, suit: str) -> Card:
        """The natural card of ``rank`` (1..13) and ``suit`` (one of ``CDHS``)."""
        if not 1 <= rank <= 13 or suit not in SUITS or len(suit) != 1:
            raise InvalidCard(f"{rank}{suit}", "rank must be 1..13 and suit one of C D H S")
        return ALL_CARDS[SUITS.index(suit) * 13 + rank - 1]

    @staticmethod
    def joker(number: int) -> Card:
        """Joker ``X1`` or ``X2``."""
        if number not in (1, 2):
            raise InvalidCard(f"X{number}", "jokers are X1 and X2")
        return ALL_CARDS[51 + number]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card code, case-insensitively (``10`` accepted for ``T``)."""
        card = _BY_CODE.get(text.strip().upper())
        if card is None:
            raise InvalidCard(text)
        return card

    @property
    def is_joker(self) -> bool:
        return self.index >= 52

    @property
    def rank(self) -> int:
        """1 (ace) .. 13 (king); 0 for a joker."""
        return 0 if self.index >= 52 else self.index % 13 + 1

    @property
    def suit(self) -> str:
        """``C``, ``D``, ``H`` or ``S``; empty for a joker."""
        return "" if self.index >= 52 else SUITS[self.index // 13]

    @property
    def value(self) -> int:
        """Deadwood value when unmatched: A=1, 2-10 face value, J/Q/K=10, joker 25."""
        return CARD_VALUES[self.index]

    @property
    def mask(self) -> int:
        return 1 << self.index

    @property
    def code(self) -> str:
        return _CODES[self.index]

    def __str__(self) -> str:
        return _CODES[self.index]

    def __repr__(self) -> str:
        return f"Card({_CODES[self.index]!r})"


_CODES = (*tuple(r + s for s in SUITS for r in RANKS), "X1", "X2")
CARD_VALUES = (*tuple(min(i % 13 + 1, 10) for i in range(52)), 25, 25)
ALL_CARDS = tuple(object.__new__(Card) for _ in range(54))
for _i, _card in enumerate(ALL_CARDS):
    object.__setattr__(_card, "index", _i)
del _i, _card

_BY_CODE: dict[str, Card] = {code: ALL_CARDS[i] for i, code in enumerate(_CODES)}
for _i, _code in enumerate(_CODES[:52]):
    if _code[0] == "T":
        _BY_CODE["10" + _code[1]] = ALL_CARDS[_i]
for _n in (1, 2):
    for _prefix in ("X", "*", "JK"):
        _BY_CODE[f"{_prefix}{_n}"] = ALL_CARDS[51 + _n]
del _code, _n, _prefix

_SEPARATORS = re.compile(r"[\s,;]+")


def card_of_code(code: str) -> Card | None:
    """The card whose code is exactly ``code`` (as stored: upper case, no spaces), or
    None; the fast path of reading stored events. :meth:`Card.parse` is lenient."""
    return _BY_CODE.get(code)


def cards_of_codes(codes: Iterable[object]) -> tuple[Card, ...] | None:
    """The cards whose codes are exactly ``codes`` (as :func:`card_of_code` reads them),
    or None if any is not such a code: the fast path of reading a stored deck or hand."""
    try:
        return tuple(map(_BY_CODE.__getitem__, codes))  # type: ignore[arg-type]
    except (KeyError, TypeError):
        return None


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse card codes separated by spaces or commas (or an iterable of codes).

    >>> parse_cards("AS 10d, kh x1")
    (Card('AS'), Card('TD'), Card('KH'), Card('X1'))
    >>> parse_cards("AS ZZ")
    Traceback (most recent call last):
    ...
    engine.cards.InvalidCard: invalid card 'ZZ'
    """
    tokens = [t for t in _SEPARATORS.split(text) if t] if isinstance(text, str) else list(text)
    return tuple(Card.parse(token) for token in tokens)


def format_cards(cards: Iterable[Card]) -> str:
    """Canonical codes joined by spaces; the inverse of :func:`parse_cards`.

    >>> format_cards(parse_cards("as td"))
    'AS TD'
    """
    return " ".join(str(card) for card in cards)


def cards_to_mask(cards: Iterable[Card]) -> int:
    """The bitmask of a collection of distinct cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def mask_to_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, in index order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(cards)


def full_deck(jokers: int = 0) -> tuple[Card, ...]:
    """The 52 natural cards in index order, followed by ``jokers`` (0..2) jokers.

    >>> len(full_deck()), len(full_deck(2)), str(full_deck(2)[-1])
    (52, 54, 'X2')
    """
    if not 0 <= jokers <= 2:
        raise ValueError(f"a deck holds 0, 1 or 2 jokers, not {jokers}")
    return ALL_CARDS[: 52 + jokers]
