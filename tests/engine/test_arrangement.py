"""best_arrangement, deadwood and best_discard on worked examples, tie-breaks and errors."""

from __future__ import annotations

import pytest

from engine.arrangement import Arrangement, best_arrangement, best_discard, deadwood
from engine.cards import parse_cards
from engine.errors import InvalidHand
from engine.melds import make_meld
from engine.rules import get_ruleset

KNOCK = get_ruleset("knock")
GIN = get_ruleset("gin")
RAMI = get_ruleset("rami")


def shown(arrangement: Arrangement) -> tuple[list[str], str, int]:
    return (
        [str(meld) for meld in arrangement.melds],
        " ".join(str(card) for card in arrangement.unmatched),
        arrangement.deadwood,
    )


@pytest.mark.parametrize(
    ("hand", "melds", "unmatched", "value"),
    [
        # RULES.md §1, seed 000 hand C: the run beats the set of sixes.
        ("6H 6D 6C 7C 8C 2H 7S", ["6C 7C 8C"], "6D 2H 6H 7S", 21),
        ("", [], "", 0),
        ("KS", [], "KS", 10),
        ("AS 2S 3S", ["AS 2S 3S"], "", 0),
        ("QS KS AS", [], "AS QS KS", 21),
        ("KH AH 2H", [], "AH 2H KH", 13),
        ("7C 7D 7H 7S 8S", ["7C 7D 7H 7S"], "8S", 8),
        ("7C 7D 7H 7S 5C 6C", ["7D 7H 7S", "5C 6C 7C"], "", 0),
        ("3C 4C 5C 6C 7C 8C", ["3C 4C 5C 6C 7C 8C"], "", 0),
        ("TC JC QC KC TD TH", ["TC TD TH", "JC QC KC"], "", 0),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC", ["AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"], "", 0),
        ("AC AD AH 2C 2D 2H 3C 3D 3H KS KD KC", ["KC KD KS", "AC 2C 3C", "AD 2D 3D", "AH 2H 3H"], "", 0),
    ],
)
def test_best_arrangement_examples(hand: str, melds: list[str], unmatched: str, value: int) -> None:
    cards = parse_cards(hand)
    assert shown(best_arrangement(cards, KNOCK)) == (melds, unmatched, value)
    assert deadwood(cards, KNOCK) == value


@pytest.mark.parametrize(
    ("hand", "melds", "unmatched"),
    [
        # 2. fewest unmatched cards: 5D AS 5S (11) beats 2D 6C AS 2S (11).
        ("2C 3C 4C 5C 6C 2D 5D AS 2S 5S", ["2C 2D 2S", "3C 4C 5C 6C"], "5D AS 5S"),
        # 3. fewest cards in sets: the run of clubs beats the set of jacks (both leave 20).
        ("JC QC KC JD JH", ["JC QC KC"], "JD JH"),
        ("AC 2C 3C 2D 2H", ["AC 2C 3C"], "2D 2H"),
        # 4. lowest set-card mask: the set without 5S, so the spades make the run.
        ("5C 5D 5H 5S 3C 4C 3S 4S", ["5C 5D 5H", "3S 4S 5S"], "3C 4C"),
    ],
)
def test_tie_break(hand: str, melds: list[str], unmatched: str) -> None:
    arrangement = best_arrangement(parse_cards(hand), KNOCK)
    assert shown(arrangement)[:2] == (melds, unmatched)


@pytest.mark.parametrize(
    ("hand", "melds", "unmatched", "value"),
    [
        ("X1", [], "X1", 25),
        ("5C 5D X1", ["5C 5D X1"], "", 0),
        ("5C 5D X1 3H 4H X2 9S", ["5C 5D X1", "3H 4H X2"], "9S", 9),
        ("3C 5C X2", ["3C X2 5C"], "", 0),
        ("3C 4C 5C X1", ["3C 4C 5C X1"], "", 0),
        ("3C 4C 5C X1 X2", ["3C 4C 5C X1"], "X2", 25),
        ("3C 4C 5C 6C X1 X2", ["3C 4C X1", "5C 6C X2"], "", 0),
        ("QS KS X1 X2 2D", ["X1 QS KS"], "2D X2", 27),
        ("3C 3D 3H 3S X1 X2", ["3C 3D X1", "3H 3S X2"], "", 0),
        ("3C 3D 3H 3S X2", ["3C 3D 3H X2"], "3S", 3),
        ("3C 3D 3H X2 4C 5C", ["3D 3H X2", "3C 4C 5C"], "", 0),
        # A joker may stand for a card held in another meld (the project's ruling).
        ("5C 5D 5H 6H 7H 5S 6S 7S X1", ["5C 5D X1", "5H 6H 7H", "5S 6S 7S"], "", 0),
        (
            "AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC X1",
            ["AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC", "X1 QC KC"],
            "",
            0,
        ),
    ],
)
def test_jokers(hand: str, melds: list[str], unmatched: str, value: int) -> None:
    cards = parse_cards(hand)
    assert shown(best_arrangement(cards, RAMI)) == (melds, unmatched, value)
    assert deadwood(cards, RAMI) == value


def test_unmatched_joker_counts_the_rule_sets_value() -> None:
    assert best_arrangement(parse_cards("X1 KD"), RAMI.replace(joker_value=15)).deadwood == 25


def test_joker_represents_in_arrangement() -> None:
    (meld,) = best_arrangement(parse_cards("9H JH X2"), RAMI).melds
    assert [str(card) for card in meld.represents] == ["9H", "TH", "JH"]


@pytest.mark.parametrize(
    ("hand", "ruleset", "code", "message"),
    [
        ("7C 8C 7C", "knock", "invalid_hand", "duplicate card 7C: a deck holds each card once"),
        ("7C X1", "knock", "invalid_hand", "X1 is not in play: this rule set uses no jokers"),
        ("7C X1 X2", "rami-1", "invalid_hand", "X2 is not in play: this rule set uses only one joker (X1)"),
    ],
)
def test_invalid_hands(hand: str, ruleset: str, code: str, message: str) -> None:
    rules = RAMI.replace(jokers=1) if ruleset == "rami-1" else get_ruleset(ruleset)
    for function in (best_arrangement, deadwood, best_discard):
        with pytest.raises(InvalidHand) as caught:
            function(parse_cards(hand), rules)
        assert (caught.value.code, caught.value.message) == (code, message)


def test_accepts_any_iterable() -> None:
    cards = parse_cards("6H 6D 6C 7C 8C 2H 7S")
    assert best_arrangement(iter(cards), KNOCK) == best_arrangement(list(cards), KNOCK)
    assert deadwood(iter(cards), KNOCK) == 21


@pytest.mark.parametrize(
    ("hand", "discard", "melds", "value"),
    [
        # REFERENCES.md: OpenSpiel's 11-card min_deadwood gets these wrong (1, 4, 2).
        ("2S AC 2C AD 2D 3D 4D 5D AH 2H 3H", "3H", ["AC AD AH", "2C 2H 2S", "2D 3D 4D 5D"], 0),
        ("AS 3S 4S 5S 3C 5C AD AH 3H 4H 5H", "5C", ["AD AH AS", "3H 4H 5H", "3S 4S 5S"], 3),
        ("2S 2C 3C 4C 5C 2D 3D 4D 5D 2H 5H", "5H", ["2C 2H 2S", "3C 4C 5C", "2D 3D 4D 5D"], 0),
        # Equal discards: the highest rank goes, then the highest suit.
        ("AC 2C 3C 4C KD KS", "KS", ["AC 2C 3C 4C"], 10),
        ("AC 2C 3C 4C 5C", "5C", ["AC 2C 3C 4C"], 0),
        ("9D", "9D", [], 0),
        # A joker goes only when strictly better.
        ("3C 4C 5C X1 KD", "KD", ["3C 4C 5C X1"], 0),
        ("3C 4C 5C X1 X2", "X2", ["3C 4C 5C X1"], 0),
    ],
)
def test_best_discard(hand: str, discard: str, melds: list[str], value: int) -> None:
    card, rest = best_discard(parse_cards(hand), RAMI)
    assert (str(card), [str(meld) for meld in rest.melds], rest.deadwood) == (discard, melds, value)


def test_best_discard_of_an_empty_hand() -> None:
    with pytest.raises(InvalidHand) as caught:
        best_discard((), KNOCK)
    assert (caught.value.code, caught.value.message) == (
        "invalid_hand",
        "an empty hand has no card to discard",
    )


def test_arrangement_to_dict() -> None:
    arrangement = best_arrangement(parse_cards("5C 5D X1 9S"), RAMI)
    assert arrangement.to_dict() == {
        "melds": [{"kind": "set", "cards": ["5C", "5D", "X1"], "represents": ["5C", "5D", "5H"]}],
        "unmatched": ["9S"],
        "deadwood": 9,
    }
    assert Arrangement.from_dict(arrangement.to_dict()) == arrangement


def test_arrangement_equality_hash_and_explicit_construction() -> None:
    built = Arrangement([make_meld(parse_cards("6C 7C 8C"))], parse_cards("6D 2H 6H 7S"), 21)
    computed = best_arrangement(parse_cards("7S 6H 6D 6C 7C 8C 2H"), KNOCK)
    assert built == computed
    assert hash(built) == hash(computed)
    assert built != best_arrangement(parse_cards("6C 7C 8C"), KNOCK)


def test_arrangement_is_immutable() -> None:
    arrangement = best_arrangement(parse_cards("6H 6D 6C"), KNOCK)
    with pytest.raises(AttributeError):
        arrangement.deadwood = 3  # type: ignore[misc]
    with pytest.raises(AttributeError):
        arrangement.extra = 1  # type: ignore[attr-defined]
    assert isinstance(arrangement.melds, tuple)
    assert isinstance(arrangement.unmatched, tuple)


def test_repr() -> None:
    assert repr(best_arrangement(parse_cards("AS 2S 3S KD"), KNOCK)) == (
        "<Arrangement melds=[AS 2S 3S] unmatched=[KD] deadwood=10>"
    )


def test_arrangement_from_dict_rejects_bad_data() -> None:
    with pytest.raises(InvalidHand) as caught:
        Arrangement.from_dict({"melds": [], "unmatched": ["ZZ"], "deadwood": 0})
    assert (caught.value.code, caught.value.message) == (
        "invalid_hand",
        "a stored arrangement needs melds, unmatched and deadwood: invalid card 'ZZ'",
    )
