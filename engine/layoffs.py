"""Gin layoffs (RULES.md §5): a defender's best melds and layoffs, chosen together.

Each defender lays off onto the knocker's *original* melds as extended by their
own layoffs only: a run grows at either end, card by card; a 3-card set takes a
4th card. Rulings for jokers (gin uses none by default, a table may add them):

- a knocker's joker keeps the card it stands for in a run, so nobody lays off that
  card there (the run ``3C 4C X1`` stands for 3-4-5 and takes 2C or 6C, not 5C);
  in a set the joker stands for whichever suit is missing, so a set with a joker
  takes any natural card of its rank up to 4 cards;
- a defender's joker may be laid off onto a meld that has no joker, standing for
  the card at the end where it lands (or any missing suit of a set).

Among equally good defences the engine prefers: least deadwood, then fewest
unmatched cards, then fewest cards laid off, then the arrangement tie-break of
the cards kept (:mod:`engine.arrangement`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.arrangement import Arrangement, arrange_mask, check_hand_size, search_key
from engine.cards import ALL_CARDS, Card
from engine.melds import JOKER_BITS, RUN, Meld, build_meld, check_hand
from engine.rules import RuleSet


@dataclass(frozen=True)
class Layoff:
    """One card laid off onto the knocker's meld number ``meld_index``."""

    card: Card
    meld_index: int

    def to_dict(self) -> dict[str, Any]:
        return {"card": str(self.card), "meld_index": self.meld_index}


@dataclass(frozen=True)
class Defence:
    """A defender's result: own melds and unmatched cards (``arrangement``, its
    deadwood counted after layoffs), the layoffs in a valid playing order, and the
    knocker's melds as this defender's layoffs extended them."""

    arrangement: Arrangement
    layoffs: tuple[Layoff, ...]
    extended_melds: tuple[Meld, ...]

    @property
    def deadwood(self) -> int:
        return self.arrangement.deadwood

    def to_dict(self) -> dict[str, Any]:
        return {
            "arrangement": self.arrangement.to_dict(),
            "layoffs": [layoff.to_dict() for layoff in self.layoffs],
            "extended_melds": [meld.to_dict() for meld in self.extended_melds],
        }


# An extension of one knocker meld: (defender cards used as a mask, cards in laying order, new meld).
_Extension = tuple[int, tuple[Card, ...], Meld]


def best_defence(cards: Iterable[Card], knocker_melds: Sequence[Meld], ruleset: RuleSet) -> Defence:
    """The defender's melds and layoffs that leave them the least deadwood.

    Whether layoffs are allowed at all (not against gin) is the caller's concern.

    >>> from engine.cards import parse_cards
    >>> from engine.melds import make_meld
    >>> from engine.rules import get_ruleset
    >>> knocker = [make_meld(parse_cards("5C 6C 7C")), make_meld(parse_cards("9H 9D 9S"))]
    >>> defence = best_defence(parse_cards("4C 8C 9C TH JH QH KS"), knocker, get_ruleset("gin"))
    >>> [(str(l.card), l.meld_index) for l in defence.layoffs], defence.deadwood
    ([('4C', 0), ('8C', 0), ('9C', 1)], 10)
    >>> [str(m) for m in defence.extended_melds], [str(m) for m in defence.arrangement.melds]
    (['4C 5C 6C 7C 8C', '9C 9D 9H 9S'], ['TH JH QH'])
    """
    cards = tuple(cards)
    melds = tuple(knocker_melds)
    # the search tries every extension of every meld: both sides hold at most a hand
    check_hand_size(len(cards))
    check_hand_size(sum(len(meld.cards) for meld in melds))
    hand = check_hand(cards, ruleset)
    check_hand([*cards, *(card for meld in melds for card in meld.cards)], ruleset)
    joker_value = ruleset.joker_value

    best: list[Any] = []
    memo: dict[int, int] = {}

    def visit(index: int, used: int, chosen: tuple[_Extension | None, ...]) -> None:
        if index == len(melds):
            rest = hand ^ used
            key = memo.get(rest)
            if key is None:
                key = memo[rest] = search_key(rest, joker_value)
            laid = sum(len(extension[1]) for extension in chosen if extension is not None)
            candidate = (key >> 6, laid, key)
            if not best or candidate < best[0]:
                best[:] = [candidate, rest, chosen]
            return
        visit(index + 1, used, (*chosen, None))
        for extension in _extensions(melds[index], hand & ~used):
            visit(index + 1, used | extension[0], (*chosen, extension))

    visit(0, 0, ())
    _, rest, chosen = best
    layoffs = tuple(
        Layoff(card, index)
        for index, extension in enumerate(chosen)
        if extension is not None
        for card in extension[1]
    )
    extended = tuple(
        meld if extension is None else extension[2] for meld, extension in zip(melds, chosen, strict=True)
    )
    return Defence(arrange_mask(rest, joker_value), layoffs, extended)


def _extensions(meld: Meld, available: int) -> list[_Extension]:
    """Every non-empty way to extend ``meld`` with cards from ``available``."""
    joker = None
    if meld.joker is None and available & JOKER_BITS:
        joker = ALL_CARDS[52] if available >> 52 & 1 else ALL_CARDS[53]
    if meld.kind == RUN:
        return _run_extensions(meld, available, joker)
    return _set_extensions(meld, available, joker)


def _set_extensions(meld: Meld, available: int, joker: Card | None) -> list[_Extension]:
    rank = meld.represents[0].rank
    naturals = [card for card in meld.cards if not card.is_joker]
    own_joker = meld.joker
    candidates = [ALL_CARDS[suit * 13 + rank - 1] for suit in range(4)]
    candidates = [card for card in candidates if available >> card.index & 1]
    if joker is not None:
        candidates.append(joker)
    room = 4 - len(meld.cards)
    result: list[_Extension] = []
    for size in range(1, room + 1):
        for combo in _combinations(candidates, size):
            added_naturals = [card for card in combo if not card.is_joker]
            added_joker = next((card for card in combo if card.is_joker), own_joker)
            extended = build_meld([*naturals, *added_naturals], added_joker)
            if extended is not None:
                result.append((sum(card.mask for card in combo), combo, extended))
    return result


def _combinations(items: list[Card], size: int) -> list[tuple[Card, ...]]:
    if size == 0:
        return [()]
    return [(items[i], *rest) for i in range(len(items)) for rest in _combinations(items[i + 1 :], size - 1)]


def _run_extensions(meld: Meld, available: int, joker: Card | None) -> list[_Extension]:
    suit = meld.represents[0].index // 13
    low, high = meld.represents[0].rank, meld.represents[-1].rank
    result: list[_Extension] = []
    for below in range(low):
        for above in range(14 - high):
            if below == above == 0:
                continue
            positions = [*range(low - below, low), *range(high + 1, high + above + 1)]
            missing = [rank for rank in positions if not available >> (suit * 13 + rank - 1) & 1]
            if not missing:
                result.append(_run_extension(meld, suit, positions, None, 0))
            if joker is not None and len(missing) <= 1:
                for spot in missing or positions:
                    result.append(_run_extension(meld, suit, positions, joker, spot))
    return result


def _run_extension(meld: Meld, suit: int, positions: list[int], joker: Card | None, spot: int) -> _Extension:
    """Extend a run over ``positions`` (ranks), the joker (if any) standing at rank ``spot``."""
    placed = {
        rank: (joker if joker is not None and rank == spot else ALL_CARDS[suit * 13 + rank - 1])
        for rank in positions
    }
    low = meld.represents[0].rank
    below = sorted((rank for rank in positions if rank < low), reverse=True)
    above = sorted(rank for rank in positions if rank > low)
    order = tuple(placed[rank] for rank in [*below, *above])
    cards = [placed[rank] for rank in sorted(below)] + list(meld.cards) + [placed[rank] for rank in above]
    represents = [ALL_CARDS[suit * 13 + rank - 1] for rank in sorted(below)]
    represents += list(meld.represents) + [ALL_CARDS[suit * 13 + rank - 1] for rank in above]
    mask = sum(card.mask for card in order)
    return mask, order, Meld(RUN, tuple(cards), tuple(represents))
