"""Shuffling and dealing. Only callers shuffle: the deck order then travels inside a
``DealHand`` command and the ``HandDealt`` event, so replay never draws a random number.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card, full_deck
from engine.rules import RuleSet


def shuffled_deck(ruleset: RuleSet, seed: int | float | str | bytes | None = None) -> tuple[Card, ...]:
    """The rule set's deck (jokers included) in an order given by ``random.Random(seed)``.

    >>> from engine.rules import get_ruleset
    >>> deck = shuffled_deck(get_ruleset("knock-rami"), seed=7)
    >>> len(deck), len(set(deck)), deck == shuffled_deck(get_ruleset("knock-rami"), seed=7)
    (54, 54, True)
    """
    cards = list(full_deck(ruleset.jokers))
    random.Random(seed).shuffle(cards)
    return tuple(cards)


def stacked_deck(
    ruleset: RuleSet, hands: Sequence[Sequence[Card]], upcard: Card, stock: Sequence[Card] = ()
) -> tuple[Card, ...]:
    """A deck order that deals ``hands`` (in turn order: the dealer's left first), then
    ``upcard``, then ``stock`` on top of the stock; the remaining cards follow in index
    order. For tests and worked examples.

    >>> from engine.cards import parse_cards
    >>> from engine.rules import get_ruleset
    >>> deck = stacked_deck(get_ruleset("knock-rummy"), [parse_cards("AS 2S"), parse_cards("AH 2H")],
    ...                     Card.parse("KD"))
    >>> [str(c) for c in deck[:5]]
    ['AS', 'AH', '2S', '2H', 'KD']
    """
    size = len(hands[0])
    if any(len(hand) != size for hand in hands):
        raise ValueError("stacked hands must all have the same size")
    order: list[Card] = [hand[i] for i in range(size) for hand in hands]
    order.append(upcard)
    order.extend(stock)
    if len(set(order)) != len(order):
        raise ValueError("a stacked deck repeats a card")
    chosen = set(order)
    order.extend(card for card in full_deck(ruleset.jokers) if card not in chosen)
    return tuple(order)
