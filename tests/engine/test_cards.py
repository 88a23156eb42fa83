"""Card codes: parsing and formatting are inverse; bad codes name themselves."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    ALL_CARDS,
    Card,
    InvalidCard,
    cards_of_codes,
    cards_to_mask,
    format_cards,
    full_deck,
    mask_to_cards,
    parse_cards,
)

any_card = st.sampled_from(ALL_CARDS)


@given(any_card)
def test_parse_inverts_str(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert Card.parse(str(card).lower()) is card
    assert Card.parse(f"  {card} ") is card


@given(st.lists(any_card, unique=True, max_size=54))
def test_format_cards_inverts_parse_cards(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert parse_cards(text) == tuple(cards)
    assert format_cards(parse_cards(text.lower())) == text


@given(st.lists(any_card, max_size=60))
def test_cards_of_codes_reads_stored_codes_as_parse_cards_does(cards: list[Card]) -> None:
    codes = [str(card) for card in cards]
    assert cards_of_codes(codes) == parse_cards(codes) == tuple(cards)


@pytest.mark.parametrize(
    "codes", [["AS", "ZZ"], ["AS", 7], ["AS", ["KH"]], ["as"], [" AS"], [Card.parse("AS")]]
)
def test_cards_of_codes_is_none_unless_every_item_is_a_stored_code(codes: list[object]) -> None:
    assert cards_of_codes(codes) is None  # the caller then takes the lenient path (Card.parse)


@given(st.lists(any_card, unique=True, max_size=54))
def test_mask_round_trip(cards: list[Card]) -> None:
    mask = cards_to_mask(cards)
    assert mask.bit_count() == len(cards)
    assert mask_to_cards(mask) == tuple(sorted(cards))
    assert all(mask & card.mask for card in cards)


def test_all_54_cards_have_distinct_codes() -> None:
    codes = [str(card) for card in ALL_CARDS]
    assert len(set(codes)) == 54
    assert codes[:3] == ["AC", "2C", "3C"]
    assert codes[-2:] == ["X1", "X2"]
    assert [card.index for card in ALL_CARDS] == list(range(54))


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10h", "TH"),
        ("10S", "TS"),
        ("th", "TH"),
        ("qs", "QS"),
        ("aD", "AD"),
        ("x1", "X1"),
        ("*1", "X1"),
        ("*2", "X2"),
        ("JK1", "X1"),
        ("jk2", "X2"),
    ],
)
def test_accepted_spellings(text: str, code: str) -> None:
    assert str(Card.parse(text)) == code


@pytest.mark.parametrize("token", ["ZZ", "1H", "11C", "TX", "X3", "*3", "JK", "", "A", "AHS", "10"])
def test_invalid_card_names_token(token: str) -> None:
    with pytest.raises(InvalidCard) as raised:
        Card.parse(token)
    assert raised.value.token == token
    assert str(raised.value) == f"invalid card {token!r}"
    assert isinstance(raised.value, ValueError)


def test_parse_cards_names_the_bad_token() -> None:
    with pytest.raises(InvalidCard) as raised:
        parse_cards("AS, KD, Q7")
    assert raised.value.token == "Q7"


def test_parse_cards_separators_and_iterables() -> None:
    assert parse_cards("as,td;  kh\nx2") == parse_cards(["AS", "TD", "KH", "X2"])
    assert parse_cards("") == ()
    assert parse_cards(" , ") == ()


def test_card_properties() -> None:
    queen = Card.parse("QH")
    assert (queen.rank, queen.suit, queen.value, queen.is_joker) == (12, "H", 10, False)
    ace = Card.parse("AS")
    assert (ace.rank, ace.suit, ace.value) == (1, "S", 1)
    ten = Card.parse("TD")
    assert (ten.rank, ten.value, ten.code) == (10, 10, "TD")
    joker = Card.parse("X2")
    assert (joker.rank, joker.suit, joker.value, joker.is_joker) == (0, "", 25, True)
    assert repr(queen) == "Card('QH')"
    assert queen.mask == 1 << queen.index


def test_values_by_rank() -> None:
    values = [Card.of(rank, "C").value for rank in range(1, 14)]
    assert values == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_of_and_joker_constructors() -> None:
    assert Card.of(1, "S") is Card.parse("AS")
    assert Card.of(13, "D") is Card.parse("KD")
    assert Card.joker(1) is Card.parse("X1")
    with pytest.raises(InvalidCard):
        Card.of(14, "S")
    with pytest.raises(InvalidCard):
        Card.of(0, "S")
    with pytest.raises(InvalidCard):
        Card.of(5, "X")
    with pytest.raises(InvalidCard):
        Card.joker(3)
    with pytest.raises(InvalidCard):
        Card(54)


def test_ordering_is_by_index() -> None:
    assert sorted(parse_cards("X1 AS KC 2C")) == list(parse_cards("2C KC AS X1"))


def test_full_deck() -> None:
    assert len(full_deck()) == 52
    assert not any(card.is_joker for card in full_deck())
    assert [str(c) for c in full_deck(2)[52:]] == ["X1", "X2"]
    assert len(full_deck(1)) == 53
    with pytest.raises(ValueError, match="0, 1 or 2 jokers"):
        full_deck(3)
