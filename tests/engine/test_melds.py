"""Melds: validation, canonical order, what jokers stand for, serialisation."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import InvalidHand
from engine.melds import Meld, build_meld, make_meld
from engine.rules import get_ruleset


def codes(cards: tuple[object, ...]) -> str:
    return " ".join(str(card) for card in cards)


@pytest.mark.parametrize(
    ("cards", "kind", "ordered", "represents"),
    [
        ("7H 7C 7S", "set", "7C 7H 7S", "7C 7H 7S"),
        ("KD KC KS KH", "set", "KC KD KH KS", "KC KD KH KS"),
        ("3C AC 2C", "run", "AC 2C 3C", "AC 2C 3C"),
        ("9S TS JS QS KS", "run", "9S TS JS QS KS", "9S TS JS QS KS"),
        ("X1 5D 5S", "set", "5D 5S X1", "5D 5S 5C"),
        ("5C 5D 5H X2", "set", "5C 5D 5H X2", "5C 5D 5H 5S"),
        ("5C X1 3C", "run", "3C X1 5C", "3C 4C 5C"),
        ("3C 4C X1", "run", "3C 4C X1", "3C 4C 5C"),
        ("QS KS X1", "run", "X1 QS KS", "JS QS KS"),
        ("AH 2H X2", "run", "AH 2H X2", "AH 2H 3H"),
        ("4D 5D 6D X1 8D", "run", "4D 5D 6D X1 8D", "4D 5D 6D 7D 8D"),
    ],
)
def test_make_meld_orders_cards_and_resolves_jokers(
    cards: str, kind: str, ordered: str, represents: str
) -> None:
    meld = make_meld(parse_cards(cards), get_ruleset("rami"))
    assert (meld.kind, codes(meld.cards), codes(meld.represents)) == (kind, ordered, represents)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("QS KS AS", "QS KS AS is not a legal set or run (aces are low)"),
        ("KH AH 2H", "KH AH 2H is not a legal set or run (aces are low)"),
        ("7C 7D", "7C 7D is not a legal set or run (aces are low)"),
        ("7C 8D 9C", "7C 8D 9C is not a legal set or run (aces are low)"),
        ("7C 7D X1 X2", "7C 7D X1 X2 holds 2 jokers; a meld holds at most one"),
        ("7C 7D 7H 7S X1", "7C 7D 7H 7S X1 is not a legal set or run (aces are low)"),
        ("3C 6C X1", "3C 6C X1 is not a legal set or run (aces are low)"),
        ("5C X1", "5C X1 is not a legal set or run (aces are low)"),
    ],
)
def test_make_meld_rejects_illegal_melds(cards: str, message: str) -> None:
    with pytest.raises(InvalidHand) as caught:
        make_meld(parse_cards(cards), get_ruleset("rami"))
    assert (caught.value.code, caught.value.message) == ("invalid_meld", message)


def test_a_run_through_every_rank_cannot_take_a_joker() -> None:
    suit = parse_cards("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC")
    assert make_meld(suit).kind == "run"
    assert build_meld(suit, parse_cards("X1")[0]) is None


@pytest.mark.parametrize(
    ("cards", "ruleset", "message"),
    [
        ("7C 7D 7C", "knock", "duplicate card 7C: a deck holds each card once"),
        ("7C 7D X1", "knock", "X1 is not in play: this rule set uses no jokers"),
        ("7C 7D X2", "rami", None),
        ("7C 7D X2", "knock", "X2 is not in play: this rule set uses no jokers"),
    ],
)
def test_make_meld_checks_the_deck(cards: str, ruleset: str, message: str | None) -> None:
    if message is None:
        assert make_meld(parse_cards(cards), get_ruleset(ruleset)).kind == "set"
        return
    with pytest.raises(InvalidHand) as caught:
        make_meld(parse_cards(cards), get_ruleset(ruleset))
    assert (caught.value.code, caught.value.message) == ("invalid_hand", message)


def test_one_joker_deck_rejects_x2() -> None:
    with pytest.raises(InvalidHand) as caught:
        make_meld(parse_cards("7C 7D X2"), get_ruleset("rami", jokers=1))
    assert caught.value.message == "X2 is not in play: this rule set uses only one joker (X1)"


def test_make_meld_without_ruleset_accepts_jokers() -> None:
    assert str(make_meld(parse_cards("8H X2 TH"))) == "8H X2 TH"


@pytest.mark.parametrize("cards", ["7H 7C 7S", "X1 QS KS", "5C 5D X2", "AD 2D 3D 4D"])
def test_meld_round_trips_through_dict(cards: str) -> None:
    meld = make_meld(parse_cards(cards))
    assert Meld.from_dict(meld.to_dict()) == meld


def test_to_dict_shape() -> None:
    assert make_meld(parse_cards("QS KS X1")).to_dict() == {
        "kind": "run",
        "cards": ["X1", "QS", "KS"],
        "represents": ["JS", "QS", "KS"],
    }


def test_from_dict_keeps_a_stored_joker_position() -> None:
    stored = {"kind": "run", "cards": ["3C", "4C", "X1"], "represents": ["3C", "4C", "5C"]}
    low = {"kind": "run", "cards": ["X1", "3C", "4C"], "represents": ["2C", "3C", "4C"]}
    assert codes(Meld.from_dict(stored).represents) == "3C 4C 5C"
    assert codes(Meld.from_dict(low).represents) == "2C 3C 4C"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"kind": "run", "cards": ["3C", "4C", "6C"], "represents": ["3C", "4C", "6C"]},
            "not a legal meld (a run is in consecutive ascending rank, aces low)",
        ),
        (
            {"kind": "set", "cards": ["3C", "3D", "X1"], "represents": ["3C", "3D", "3D"]},
            "not a legal meld (a set holds each suit at most once)",
        ),
        (
            {"kind": "set", "cards": ["3C", "3D", "X1"], "represents": ["3C", "3D", "4D"]},
            "not a legal meld (a set is 3 or 4 cards of one rank)",
        ),
        (
            {"kind": "set", "cards": ["3D", "3C", "3H"], "represents": ["3D", "3C", "3H"]},
            "not a legal meld (set cards go in suit order, joker last)",
        ),
        (
            {"kind": "pair", "cards": ["3D", "3C"], "represents": ["3D", "3C"]},
            "not a legal meld (kind must be 'set' or 'run', not 'pair')",
        ),
        (
            {"kind": "run", "cards": ["3C", "4C"]},
            "a stored meld needs kind, cards and represents: 'represents'",
        ),
        (
            {"kind": "run", "cards": ["3C", "4C", "5C"], "represents": ["3C", "4C", "6C"]},
            "not a legal meld (5C cannot stand for 6C)",
        ),
    ],
)
def test_from_dict_rejects_illegal_melds(data: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidHand) as caught:
        Meld.from_dict(data)
    assert (caught.value.code, caught.value.message) == ("invalid_meld", message)
