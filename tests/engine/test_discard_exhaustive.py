"""best_discard and mask_discard against the exhaustive answer on many seeded hands.

The exhaustive answer tries every discard: the least deadwood of what is left
(``deadwood``, the set-choice search checked against the plain reference in
test_arrangement_properties), and among the discards leaving it the highest card
(rank, then suit S > H > D > C; a joker only when strictly better, X2 before X1).
"""

from __future__ import annotations

import random

import pytest

from engine.arrangement import best_discard, deadwood, mask_discard
from engine.cards import ALL_CARDS, Card, cards_to_mask
from engine.errors import InvalidHand
from engine.melds import check_hand
from engine.rules import RuleSet, get_ruleset

GIN = get_ruleset("gin")
RAMI = get_ruleset("rami")
NATURALS = ALL_CARDS[:52]
JOKERS = ALL_CARDS[52:]


def preference(card: Card) -> int:
    if card.is_joker:
        return card.index - 54
    return card.rank * 4 + "CDHS".index(card.suit)


def exhaustive(hand: tuple[Card, ...], ruleset: RuleSet) -> tuple[int, Card]:
    left = {card: deadwood(tuple(c for c in hand if c is not card), ruleset) for card in hand}
    least = min(left.values())
    return least, max((card for card in hand if left[card] == least), key=preference)


def seeded_hands(seed: int, count: int) -> list[tuple[Card, ...]]:
    """Uniform hands, meld-dense ones (11 of 5 consecutive ranks), hands from a few
    ranks (many sets, fours of a kind, isolated cards) and other sizes."""
    rng = random.Random(seed)
    hands = []
    for n in range(count):
        kind = n % 4
        if kind == 0:
            pool = list(NATURALS)
        elif kind == 1:
            low = rng.randint(1, 9)
            pool = [c for c in NATURALS if low <= c.rank < low + 5]
        elif kind == 2:
            ranks = rng.sample(range(1, 14), rng.randint(3, 5))
            pool = [c for c in NATURALS if c.rank in ranks]
        else:
            pool = [c for c in NATURALS if c.rank % 2 or rng.random() < 0.2]
        size = 11 if n % 5 else rng.choice((2, 3, 4, 7, 8, 10, 12, 13, 14))
        hands.append(tuple(rng.sample(pool, min(size, len(pool)))))
    return hands


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_best_discard_is_the_exhaustive_answer(seed: int) -> None:
    for hand in seeded_hands(seed, 5000):
        card, rest = best_discard(hand, GIN)
        assert (rest.deadwood, card) == exhaustive(hand, GIN), hand
        assert mask_discard(cards_to_mask(hand), GIN.joker_value) == (rest.deadwood, card.index)
        kept = [c for meld in rest.melds for c in meld.cards] + list(rest.unmatched)
        assert sorted(kept) == sorted(set(hand) - {card})


def test_best_discard_with_jokers_is_the_exhaustive_answer() -> None:
    rng = random.Random(5)
    for n in range(1500):
        jokers = JOKERS[: 1 + n % 2]
        size = 11 if n % 3 else rng.choice((3, 6, 10, 12))
        hand = list(rng.sample(NATURALS, size - len(jokers))) + list(jokers)
        rng.shuffle(hand)
        card, rest = best_discard(hand, RAMI)
        assert (rest.deadwood, card) == exhaustive(tuple(hand), RAMI), hand
        assert mask_discard(cards_to_mask(hand), RAMI.joker_value) == (rest.deadwood, card.index)


def test_eleven_bad_cards_are_refused_like_any_hand() -> None:
    """The 11-card path checks its hand by the suits' card counts: a duplicate or a joker
    the rule set lacks is refused with the same error as by the general check."""
    rng = random.Random(6)
    for _ in range(300):
        hand = rng.sample(NATURALS, 10)
        extra = rng.choice([*hand, *JOKERS])
        for cards in ((*hand, extra), (extra, *hand)):
            with pytest.raises(InvalidHand) as refused:
                best_discard(cards, GIN)
            with pytest.raises(InvalidHand) as expected:
                check_hand(cards, GIN)
            assert (refused.value.code, str(refused.value)) == (expected.value.code, str(expected.value))
            assert refused.value.params["problem"] in {"duplicate", "joker"}
    twice = (JOKERS[1],) * 11
    with pytest.raises(InvalidHand):
        best_discard(twice, RAMI)
