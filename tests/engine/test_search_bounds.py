"""Every search whose work grows with the hand refuses more cards than a hand can hold
(``MAX_HAND``) before searching, and the worst hand it allows answers at once.

The set search tries six choices per rank held four times: a 52-card "hand" was 6**13
choices (a request that never answered); 14 cards are at most 6**3."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

from engine import InvalidHand, best_arrangement, best_discard, deadwood, get_ruleset, parse_cards
from engine.arrangement import MAX_HAND
from engine.cards import ALL_CARDS
from engine.layoffs import best_defence
from engine.melds import make_meld
from engine.rules import MAX_DEALT

KNOCK = get_ruleset("knock-rummy")
RAMI = get_ruleset("knock-rami")
GIN = get_ruleset("gin-rummy")
DECK = ALL_CARDS[:52]
# The deck rank by rank: any n of its first cards hold n // 4 ranks four times, the set
# search's worst case.
FULL_RANKS = tuple(card for rank in range(13) for card in DECK[rank::13])

SEARCHES: list[tuple[str, Callable[[Any], Any]]] = [
    ("best_arrangement", lambda cards: best_arrangement(cards, KNOCK).melds),
    ("deadwood", lambda cards: deadwood(cards, KNOCK)),
    ("best_discard", lambda cards: best_discard(cards, KNOCK)),
    ("best_defence", lambda cards: best_defence(cards, [make_meld(parse_cards("5C 6C 7C"))], GIN)),
    ("best_arrangement with jokers", lambda cards: best_arrangement((*cards[:-2], *ALL_CARDS[52:]), RAMI)),
]


def test_a_hand_holds_at_most_the_largest_deal_and_the_card_drawn() -> None:
    assert MAX_HAND == MAX_DEALT + 1 == 14


@pytest.mark.parametrize(("name", "search"), SEARCHES, ids=[name for name, _ in SEARCHES])
@pytest.mark.parametrize("size", [MAX_HAND + 1, 20, 52])
def test_more_cards_than_a_hand_holds_are_refused_before_the_search(
    name: str, search: Callable[[Any], Any], size: int
) -> None:
    # best_defence's knocker holds 5C 6C 7C: leave them out of the defender's cards
    pool = [card for card in FULL_RANKS if name != "best_defence" or str(card) not in ("5C", "6C", "7C")]
    hand = tuple(pool[:size])
    started = time.perf_counter()
    with pytest.raises(InvalidHand) as error:
        search(hand)
    assert (error.value.code, error.value.message) == (
        "too_many_cards",
        f"a hand holds at most {MAX_HAND} cards, not {len(hand)}",
    )
    assert time.perf_counter() - started < 0.5


def test_the_knockers_melds_are_bounded_too() -> None:
    melds = [make_meld(DECK[rank::13]) for rank in range(4)]  # four sets of four: 16 cards
    with pytest.raises(InvalidHand) as error:
        best_defence(parse_cards("5C 6C 7C"), melds, GIN)
    assert error.value.code == "too_many_cards"


@pytest.mark.parametrize(
    ("cards", "ruleset"),
    [
        # the slowest 14-card hands found by a random search over few ranks: three ranks
        # of four (6**3 set choices), with and without both jokers
        ("2S 2D 7C KC KD KS 7H 7D KH 2C 7S 2H X1 X2", RAMI),
        ("2S 2D 7C KC KD KS 7H 7D KH 2C 7S 2H 3H 4H", KNOCK),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC X1", RAMI),
    ],
)
def test_the_worst_hands_allowed_answer_at_once(cards: str, ruleset: Any) -> None:
    hand = parse_cards(cards)
    assert len(hand) == MAX_HAND
    started = time.perf_counter()
    assert best_arrangement(hand, ruleset).melds
    deadwood(hand, ruleset)
    best_discard(hand, ruleset)
    knocker = [
        make_meld(parse_cards("9D TD JD")),
        make_meld(parse_cards("5S 6S 7S")),
        make_meld(parse_cards("QH QS QC")),
    ]
    defender = [c for c in hand if str(c) not in {"9D", "TD", "JD", "5S", "6S", "7S", "QH", "QS", "QC"}]
    best_defence(defender, knocker, ruleset)
    # a few tens of milliseconds on CI's machine; a second means the bound is gone
    assert time.perf_counter() - started < 1.0
