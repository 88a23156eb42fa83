"""Plain exhaustive reference for arrangements, discards and layoffs: the test oracle.

Deliberately simple and independent of the engine's code: it checks every subset
of a hand against the meld rules directly and tries every partition into melds
(memoised on the cards left), and for layoffs every assignment of the defender's
cards to "keep" or a knocker meld. Slow; obviously correct.

A key is ``(deadwood, unmatched cards, cards in sets, natural set-card mask)``:
keys add up meld by meld, so the smallest total is the engine's documented
tie-break (``engine.arrangement`` docstring).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from itertools import combinations, product

from engine.cards import Card
from engine.melds import Meld

Key = tuple[int, int, int, int]


def is_meld(cards: Sequence[Card]) -> bool:
    """A legal set or run: 3+ cards, at most one joker standing for any missing card."""
    jokers = [c for c in cards if c.is_joker]
    naturals = [c for c in cards if not c.is_joker]
    if len(cards) < 3 or len(jokers) > 1:
        return False
    ranks = [c.rank for c in naturals]
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if len({c.suit for c in naturals}) != 1 or len(set(ranks)) != len(ranks):
        return False
    candidates = [r for r in range(1, 14) if r not in ranks] if jokers else [None]
    for extra in candidates:
        positions = sorted(ranks + ([extra] if extra is not None else []))
        if positions == list(range(positions[0], positions[0] + len(positions))):
            return True
    return False


def is_set(cards: Iterable[Card]) -> bool:
    return len({c.rank for c in cards if not c.is_joker}) == 1


def card_value(card: Card, joker_value: int) -> int:
    return joker_value if card.is_joker else card.value


def meld_key(meld: Iterable[Card]) -> Key:
    cards = list(meld)
    if not is_set(cards):
        return (0, 0, 0, 0)
    return (0, 0, len(cards), sum(c.mask for c in cards if not c.is_joker))


def add(a: Key, b: Key) -> Key:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


@lru_cache(maxsize=200_000)
def reference_key(hand: frozenset[Card], joker_value: int) -> Key:
    """The best key over every partition of ``hand`` into melds and unmatched cards."""
    melds = [frozenset(combo) for size in range(3, len(hand) + 1) for combo in combinations(hand, size)]
    melds = [meld for meld in melds if is_meld(sorted(meld))]

    @cache
    def best(rest: frozenset[Card]) -> Key:
        if not rest:
            return (0, 0, 0, 0)
        low = min(rest)
        options = [add((card_value(low, joker_value), 1, 0, 0), best(rest - {low}))]
        for meld in melds:
            if low in meld and meld <= rest:
                options.append(add(meld_key(meld), best(rest - meld)))
        return min(options)

    return best(hand)


def discard_preference(card: Card) -> int:
    if card.is_joker:
        return card.index - 54
    return card.rank * 4 + "CDHS".index(card.suit)


def reference_discard(hand: Iterable[Card], joker_value: int) -> tuple[int, Card]:
    """(least deadwood after one discard, the preferred card among the best discards)."""
    cards = frozenset(hand)
    best = min(
        (reference_key(cards - {card}, joker_value)[0], -discard_preference(card), card) for card in cards
    )
    return best[0], best[2]


def extension_ok(meld: Meld, added: Sequence[Card]) -> bool:
    """Whether ``added`` may be laid off onto ``meld`` (a run's joker keeps its rank)."""
    if not added:
        return True
    all_cards = [*meld.cards, *added]
    if sum(c.is_joker for c in all_cards) > 1:
        return False
    naturals = [c for c in added if not c.is_joker]
    if meld.kind == "set":
        rank = meld.represents[0].rank
        return all(c.rank == rank for c in naturals) and len(all_cards) <= 4
    suit = meld.represents[0].suit
    if any(c.suit != suit for c in naturals):
        return False
    positions = [c.rank for c in meld.represents] + [c.rank for c in naturals]
    if len(set(positions)) != len(positions):
        return False
    extras = [r for r in range(1, 14) if r not in positions] if any(c.is_joker for c in added) else [None]
    for extra in extras:
        ranks = sorted(positions + ([extra] if extra is not None else []))
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return True
    return False


def reference_defence(hand: Iterable[Card], melds: Sequence[Meld], joker_value: int) -> tuple[int, int, int]:
    """(deadwood, unmatched cards, cards laid off) of the best defence, by brute force."""
    cards = sorted(hand)
    choices = []
    for card in cards:
        targets = [-1]
        for index, meld in enumerate(melds):
            first = meld.represents[0]
            fits = first.rank == card.rank if meld.kind == "set" else first.suit == card.suit
            if card.is_joker or fits:
                targets.append(index)
        choices.append(targets)
    best: tuple[int, int, int] | None = None
    for assignment in product(*choices):
        groups: dict[int, list[Card]] = {}
        for card, target in zip(cards, assignment, strict=True):
            groups.setdefault(target, []).append(card)
        if not all(extension_ok(melds[i], group) for i, group in groups.items() if i >= 0):
            continue
        kept = frozenset(groups.get(-1, []))
        key = reference_key(kept, joker_value)
        candidate = (key[0], key[1], len(cards) - len(kept))
        if best is None or candidate < best:
            best = candidate
    assert best is not None
    return best
