"""Melds: sets and runs of natural cards, each holding at most one joker.

A *set* is 3 or 4 cards of one rank; a *run* is 3 or more cards of one suit in
consecutive rank, aces low (``A-2-3`` is a run, ``Q-K-A`` is not). A joker may
stand in for one card of a meld; :attr:`Meld.represents` records which.

Joker rulings (RULES.md leaves them open; they are the project's own):

- A joker stands for a natural card missing from *its own* meld. That card may
  be held elsewhere in the hand (``5C 5D X1`` is a set of fives even when the
  hand's 5H and 5S are in runs): no rule forbids it.
- In a set the joker stands for the lowest suit (``C D H S`` order) the set lacks.
- In a run the joker fills the one gap between the naturals; with no gap it
  extends the run upward, or downward when the run already reaches the king.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.cards import ALL_CARDS, SUITS, Card, InvalidCard
from engine.errors import InvalidHand
from engine.rules import RuleSet

SET = "set"
RUN = "run"
JOKER_BITS = 3 << 52
NATURAL_BITS = (1 << 52) - 1
_MASKS = tuple(1 << i for i in range(54))


@dataclass(frozen=True)
class Meld:
    """A legal set or run: the cards in display order and the card each stands for.

    >>> from engine.cards import parse_cards
    >>> meld = make_meld(parse_cards("5C X1 3C"))
    >>> str(meld), meld.kind, [str(c) for c in meld.represents]
    ('3C X1 5C', 'run', ['3C', '4C', '5C'])
    >>> Meld.from_dict(meld.to_dict()) == meld
    True
    """

    kind: str
    cards: tuple[Card, ...]
    represents: tuple[Card, ...]

    def __post_init__(self) -> None:
        problem = _meld_problem(self.kind, self.cards, self.represents)
        if problem:
            raise InvalidHand(f"not a legal meld ({problem})", code="invalid_meld")

    @property
    def joker(self) -> Card | None:
        """The meld's joker, if it has one."""
        for card in self.cards:
            if card.is_joker:
                return card
        return None

    @property
    def mask(self) -> int:
        """Bitmask of the meld's physical cards (jokers included)."""
        mask = 0
        for card in self.cards:
            mask |= _MASKS[card.index]
        return mask

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "cards": [str(card) for card in self.cards],
            "represents": [str(card) for card in self.represents],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Meld:
        """Rebuild a stored meld; a stored joker's stood-for card is kept as stored."""
        try:
            kind = str(data["kind"])
            cards = tuple(Card.parse(code) for code in data["cards"])
            represents = tuple(Card.parse(code) for code in data["represents"])
        except (KeyError, TypeError, InvalidCard) as exc:
            raise InvalidHand(
                f"a stored meld needs kind, cards and represents: {exc}", "invalid_meld"
            ) from exc
        return cls(kind, cards, represents)


def _meld_problem(kind: str, cards: tuple[Card, ...], represents: tuple[Card, ...]) -> str:
    """Why ``(kind, cards, represents)`` is not a legal meld, or '' when it is."""
    if kind not in (SET, RUN):
        return f"kind must be 'set' or 'run', not {kind!r}"
    if len(cards) != len(represents):
        return "cards and represents differ in length"
    if len(cards) < 3:
        return "a meld has at least 3 cards"
    if len({card.index for card in cards}) != len(cards):
        return "a card appears twice"
    if sum(card.is_joker for card in cards) > 1:
        return "a meld holds at most one joker"
    for card, stood in zip(cards, represents, strict=True):
        if stood.is_joker or (not card.is_joker and stood.index != card.index):
            return f"{card} cannot stand for {stood}"
    if kind == SET:
        if len(cards) > 4 or len({c.rank for c in represents}) != 1:
            return "a set is 3 or 4 cards of one rank"
        if len({c.suit for c in represents}) != len(cards):
            return "a set holds each suit at most once"
        naturals = sorted(c for c in cards if not c.is_joker)
        if list(cards) != naturals + [c for c in cards if c.is_joker]:
            return "set cards go in suit order, joker last"
        return ""
    if len({c.suit for c in represents}) != 1:
        return "a run is of one suit"
    ranks = [c.rank for c in represents]
    if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
        return "a run is in consecutive ascending rank, aces low"
    return ""


def build_meld(naturals: Iterable[Card], joker: Card | None = None) -> Meld | None:
    """The canonical meld of ``naturals`` (distinct natural cards) plus an optional
    joker, or ``None`` when they form no legal set or run.

    >>> from engine.cards import parse_cards
    >>> str(build_meld(parse_cards("9D 9S"), Card.joker(1))), build_meld(parse_cards("9D TS JS"))
    ('9D 9S X1', None)
    """
    cards = sorted(naturals)
    extra = 1 if joker is not None else 0
    if len(cards) + extra < 3 or len(cards) < 2:
        return None
    if all(c.rank == cards[0].rank for c in cards):
        if len(cards) + extra > 4:
            return None
        held = {c.suit for c in cards}
        represents = list(cards)
        if joker is not None:
            missing = next(s for s in SUITS if s not in held)
            represents.append(Card.of(cards[0].rank, missing))
            return Meld(SET, (*cards, joker), tuple(represents))
        return Meld(SET, tuple(cards), tuple(represents))
    suit = cards[0].suit
    if any(c.suit != suit for c in cards):
        return None
    low, high = cards[0].rank, cards[-1].rank
    span = high - low + 1
    if span == len(cards):
        if joker is None:
            return Meld(RUN, tuple(cards), tuple(cards))
        if span == 13:
            return None
        position = high + 1 if high < 13 else low - 1
    elif span == len(cards) + 1 and joker is not None:
        held_ranks = {c.rank for c in cards}
        position = next(r for r in range(low, high) if r not in held_ranks)
    else:
        return None
    stood = Card.of(position, suit)
    represents = sorted([*cards, stood], key=lambda c: c.rank)
    ordered = tuple(joker if c is stood else c for c in represents)
    return Meld(RUN, ordered, tuple(represents))


def check_hand(cards: Iterable[Card], ruleset: RuleSet | None) -> int:
    """The bitmask of ``cards``; raises :class:`InvalidHand` naming a duplicate card,
    or a joker the rule set's deck lacks (any joker is accepted when ``ruleset`` is None).

    >>> from engine.cards import parse_cards
    >>> check_hand(parse_cards("AC 2C X1"), None) == 1 | 2 | 1 << 52
    True
    >>> check_hand(parse_cards("AC AC"), None)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidHand: duplicate card AC: a deck holds each card once
    """
    mask = 0
    for card in cards:
        if not isinstance(card, Card):
            raise InvalidHand(f"not a card: {card!r}")
        bit = _MASKS[card.index]
        if mask & bit:
            raise InvalidHand(
                f"duplicate card {card}: a deck holds each card once",
                params={"card": card.code, "problem": "duplicate"},
            )
        mask |= bit
    if ruleset is not None and mask & JOKER_BITS:
        allowed = ruleset.jokers
        for index in (52, 53):
            if mask >> index & 1 and index - 52 >= allowed:
                deck = "no jokers" if allowed == 0 else "only one joker (X1)"
                raise InvalidHand(
                    f"{ALL_CARDS[index]} is not in play: this rule set uses {deck}",
                    params={"card": ALL_CARDS[index].code, "problem": "joker", "jokers": allowed},
                )
    return mask


def make_meld(cards: Iterable[Card], ruleset: RuleSet | None = None) -> Meld:
    """Validate ``cards`` as one set or run and return it in canonical order.

    Raises :class:`~engine.errors.InvalidHand` (code ``invalid_meld``) when the
    cards are no legal meld, and (code ``invalid_hand``) for a duplicate card or a
    joker ``ruleset`` does not use.

    >>> from engine.cards import parse_cards
    >>> str(make_meld(parse_cards("7H 7C X2")))
    '7C 7H X2'
    >>> [str(c) for c in make_meld(parse_cards("QS KS X1")).represents]
    ['JS', 'QS', 'KS']
    >>> make_meld(parse_cards("QS KS AS"))
    Traceback (most recent call last):
    ...
    engine.errors.InvalidHand: QS KS AS is not a legal set or run (aces are low)
    """
    cards = tuple(cards)
    check_hand(cards, ruleset)
    jokers = [c for c in cards if c.is_joker]
    naturals = [c for c in cards if not c.is_joker]
    text = " ".join(str(c) for c in cards)
    if len(jokers) > 1:
        raise InvalidHand(f"{text} holds {len(jokers)} jokers; a meld holds at most one", "invalid_meld")
    meld = build_meld(naturals, jokers[0] if jokers else None)
    if meld is None:
        raise InvalidHand(f"{text} is not a legal set or run (aces are low)", "invalid_meld")
    return meld


def meld_sort_key(meld: Meld) -> tuple[int, int, int]:
    """Display order of an arrangement's melds: sets by rank, then runs by suit and rank."""
    first = meld.represents[0]
    if meld.kind == SET:
        return (0, first.rank, 0)
    return (1, SUITS.index(first.suit), first.rank)
