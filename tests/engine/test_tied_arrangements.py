"""tied_arrangements: every arrangement of least deadwood, against a brute force over
every partition of the hand into melds (tests/engine/arrangement_reference.py's meld test)."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings

from engine.arrangement import best_arrangement, tied_arrangements
from engine.cards import Card, parse_cards
from engine.errors import InvalidHand
from engine.rules import RuleSet, get_ruleset
from tests.engine.arrangement_reference import is_meld
from tests.engine.test_arrangement_properties import hands as arrangement_hands

P = parse_cards
GIN = get_ruleset("gin")
GIN_JOKERS = get_ruleset("gin", jokers=2)

Shape = frozenset[tuple[frozenset[Card], bool]]


def shape(melds: list[tuple[Card, ...]]) -> Shape:
    """Melds as (natural cards, holds a joker), adjacent natural runs of a suit joined."""
    runs: list[list[Card]] = []
    others = set()
    for meld in melds:
        naturals = sorted(card for card in meld if not card.is_joker)
        if len(naturals) < len(meld) or len({card.rank for card in naturals}) == 1:
            others.add((frozenset(naturals), len(naturals) < len(meld)))
        else:
            runs.append(naturals)
    runs.sort(key=lambda run: (run[0].suit, run[0].rank))
    joined: list[list[Card]] = []
    for run in runs:
        if joined and joined[-1][-1].suit == run[0].suit and joined[-1][-1].rank + 1 == run[0].rank:
            joined[-1] += run
        else:
            joined.append(run)
    return frozenset(others | {(frozenset(run), False) for run in joined})


def brute_force_ties(hand: tuple[Card, ...], joker_value: int) -> set[Shape]:
    """The shapes of every partition of ``hand`` into melds with the least deadwood."""
    cards = frozenset(hand)
    melds = [combo for size in range(3, len(hand) + 1) for combo in combinations(sorted(hand), size)]
    melds = [combo for combo in melds if is_meld(combo)]

    @cache
    def best(rest: frozenset[Card]) -> tuple[int, frozenset[tuple[tuple[Card, ...], ...]]]:
        if not rest:
            return 0, frozenset({()})
        low = min(rest)
        value, ways = best(rest - {low})
        options = [(value + (joker_value if low.is_joker else low.value), ways)]
        for meld in melds:
            if low in meld and cards.issuperset(meld) and rest.issuperset(meld):
                value, ways = best(rest - set(meld))
                options.append((value, frozenset((meld, *way) for way in ways)))
        least = min(value for value, _ in options)
        return least, frozenset(way for value, ways in options if value == least for way in ways)

    return {shape(list(way)) for way in best(cards)[1]}


def engine_shapes(hand: tuple[Card, ...], ruleset: RuleSet) -> list[Shape]:
    return [shape([meld.cards for meld in tied.melds]) for tied in tied_arrangements(hand, ruleset)]


@settings(max_examples=300, deadline=None)
@given(arrangement_hands(max_size=11))
def test_tied_arrangements_are_every_least_deadwood_partition(hand: tuple[Card, ...]) -> None:
    tied = tied_arrangements(hand, GIN)
    assert tied[0] == best_arrangement(hand, GIN)
    assert {arrangement.deadwood for arrangement in tied} == {tied[0].deadwood}
    shapes = engine_shapes(hand, GIN)
    assert len(set(shapes)) == len(shapes)
    assert set(shapes) == brute_force_ties(hand, 25)
    for arrangement in tied:
        melded = [card for meld in arrangement.melds for card in meld.cards]
        assert sorted(melded + list(arrangement.unmatched)) == sorted(hand)
        assert sum(card.value for card in arrangement.unmatched) == arrangement.deadwood


@settings(max_examples=150, deadline=None)
@given(arrangement_hands(max_size=10, jokers=True))
def test_tied_arrangements_with_jokers_are_every_least_deadwood_partition(hand: tuple[Card, ...]) -> None:
    tied = tied_arrangements(hand, GIN_JOKERS)
    assert tied[0] == best_arrangement(hand, GIN_JOKERS)
    assert {arrangement.deadwood for arrangement in tied} == {tied[0].deadwood}
    shapes = engine_shapes(hand, GIN_JOKERS)
    assert len(set(shapes)) == len(shapes)
    assert set(shapes) == brute_force_ties(hand, 25)
    for arrangement in tied:
        melded = [card for meld in arrangement.melds for card in meld.cards]
        assert sorted(melded + list(arrangement.unmatched)) == sorted(hand)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("JC QC KC JD JH", [["JC QC KC"], ["JC JD JH"]]),
        ("3C 4C 5C 6C 7C 8C 9D", [["3C 4C 5C 6C 7C 8C"]]),  # never split in two
        ("3C 4C 5C 6C 7C 8C 9D 9H X1", [["9D 9H X1", "3C 4C 5C 6C 7C 8C"]]),
        # the joker may stand for 5C, held in the set
        ("4C 5C 6C 5D 5H X1", [["5D 5H X1", "4C 5C 6C"], ["5C 5D 5H", "4C X1 6C"]]),
        (
            "9C TC JC 9H TH JH 9S TS JS 2D",
            [["9C TC JC", "9H TH JH", "9S TS JS"], ["9C 9H 9S", "TC TH TS", "JC JH JS"]],
        ),
        (
            "5C 5D 5H 6H 7H 5S 6S 7S X1",
            [
                ["5C 5D X1", "5H 6H 7H", "5S 6S 7S"],
                ["5C 5D 5H", "6H 7H X1", "5S 6S 7S"],
                ["5C 5D 5S", "5H 6H 7H", "6S 7S X1"],
            ],
        ),
    ],
)
def test_tied_arrangements_examples(hand: str, expected: list[list[str]]) -> None:
    assert [[str(meld) for meld in tied.melds] for tied in tied_arrangements(P(hand), GIN_JOKERS)] == expected


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("AS AS 2S", "duplicate card AS: a deck holds each card once"),
        ("AS 2S X1", "X1 is not in play: this rule set uses no jokers"),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 2D", "a hand holds at most 14 cards, not 15"),
    ],
)
def test_tied_arrangements_refuse_what_best_arrangement_refuses(hand: str, message: str) -> None:
    with pytest.raises(InvalidHand) as refused:
        tied_arrangements(P(hand), GIN)
    assert refused.value.message == message
    with pytest.raises(InvalidHand) as same:
        best_arrangement(P(hand), GIN)
    assert (same.value.code, same.value.message) == (refused.value.code, refused.value.message)
