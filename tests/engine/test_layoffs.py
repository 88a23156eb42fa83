"""best_defence: the defender's melds and layoffs chosen together (RULES.md §5)."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import InvalidHand
from engine.layoffs import Defence, Layoff, best_defence
from engine.melds import Meld, make_meld
from engine.rules import get_ruleset

GIN = get_ruleset("gin")
JOKER_GIN = get_ruleset("gin", jokers=2)


def melds(*texts: str) -> list[Meld]:
    return [make_meld(parse_cards(text)) for text in texts]


def shown(defence: Defence) -> tuple[list[str], list[str], str, int, list[str]]:
    return (
        [f"{layoff.card}>{layoff.meld_index}" for layoff in defence.layoffs],
        [str(meld) for meld in defence.arrangement.melds],
        " ".join(str(card) for card in defence.arrangement.unmatched),
        defence.deadwood,
        [str(meld) for meld in defence.extended_melds],
    )


@pytest.mark.parametrize(
    ("knocker", "defender", "expected"),
    [
        # A run grows at both ends, card by card, in playing order.
        (["5C 6C 7C"], "3C 4C 8C KD", (["4C>0", "3C>0", "8C>0"], [], "KD", 10, ["3C 4C 5C 6C 7C 8C"])),
        # A 3-set takes the 4th card; a 4-set takes nothing.
        (["9H 9D 9S", "2C 2D 2H 2S"], "9C QH", (["9C>0"], [], "QH", 10, ["9C 9D 9H 9S", "2C 2D 2H 2S"])),
        # Keeping a set beats laying one of its cards off.
        (["5C 6C 7C"], "8C 8D 8H", ([], ["8C 8D 8H"], "", 0, ["5C 6C 7C"])),
        # Laying two cards off and keeping the rest as a set beats the 4-set of eights.
        (["5C 6C 7C"], "8C 9C 8D 8H 8S", (["8C>0", "9C>0"], ["8D 8H 8S"], "", 0, ["5C 6C 7C 8C 9C"])),
        # Equal deadwood: fewer layoffs, so the defender keeps the run of clubs.
        (["5C 6C 7C"], "4C 8C 9C TC", (["4C>0"], ["8C 9C TC"], "", 0, ["4C 5C 6C 7C"])),
        # Nothing fits.
        (["5C 6C 7C"], "9C JD", ([], [], "9C JD", 19, ["5C 6C 7C"])),
        ([], "9C JD", ([], [], "9C JD", 19, [])),
        (["5C 6C 7C"], "", ([], [], "", 0, ["5C 6C 7C"])),
    ],
)
def test_best_defence(knocker: list[str], defender: str, expected: tuple[object, ...]) -> None:
    assert shown(best_defence(parse_cards(defender), melds(*knocker), GIN)) == expected


def test_two_runs_of_one_suit_compete_for_a_card() -> None:
    defence = best_defence(parse_cards("5C 6C 7C"), melds("2C 3C 4C", "8C 9C TC"), GIN)
    assert shown(defence)[0] == [] and defence.arrangement.melds == tuple(melds("5C 6C 7C"))
    defence = best_defence(parse_cards("5C 7C"), melds("2C 3C 4C", "8C 9C TC"), GIN)
    assert shown(defence)[0] == ["5C>0", "7C>1"]


def test_a_knockers_joker_keeps_its_rank_in_a_run() -> None:
    knocker = melds("3C 4C X1")  # stands for 3-4-5 of clubs
    defence = best_defence(parse_cards("5C 6C 2C"), knocker, JOKER_GIN)
    assert shown(defence)[:4] == (["2C>0", "6C>0"], [], "5C", 5)
    assert [str(card) for card in defence.extended_melds[0].represents] == ["2C", "3C", "4C", "5C", "6C"]


def test_a_set_with_a_joker_takes_one_more_card() -> None:
    defence = best_defence(parse_cards("5H 5S"), melds("5C 5D X1"), JOKER_GIN)
    assert shown(defence)[0] == ["5H>0"]
    assert shown(defence)[2:] == ("5S", 5, ["5C 5D 5H X1"])


def test_a_defenders_joker_can_be_laid_off() -> None:
    defence = best_defence(parse_cards("X2 9C KD"), melds("5C 6C 7C"), JOKER_GIN)
    assert shown(defence) == (["X2>0", "9C>0"], [], "KD", 10, ["5C 6C 7C X2 9C"])


def test_a_meld_with_a_joker_takes_no_second_joker() -> None:
    defence = best_defence(parse_cards("X2 9C"), melds("5C X1 7C"), JOKER_GIN)
    assert shown(defence)[:4] == ([], [], "9C X2", 34)


def test_layoffs_from_one_defender_do_not_extend_melds_for_another() -> None:
    knocker = melds("5C 6C 7C")
    first = best_defence(parse_cards("8C"), knocker, GIN)
    second = best_defence(parse_cards("9C"), knocker, GIN)
    assert [str(meld) for meld in first.extended_melds] == ["5C 6C 7C 8C"]
    assert second.deadwood == 9 and second.layoffs == ()


def test_defence_to_dict() -> None:
    defence = best_defence(parse_cards("8C KD"), melds("5C 6C 7C"), GIN)
    assert defence.to_dict() == {
        "arrangement": {"melds": [], "unmatched": ["KD"], "deadwood": 10},
        "layoffs": [{"card": "8C", "meld_index": 0}],
        "extended_melds": [
            {"kind": "run", "cards": ["5C", "6C", "7C", "8C"], "represents": ["5C", "6C", "7C", "8C"]}
        ],
    }
    assert Layoff(parse_cards("8C")[0], 0).to_dict() == {"card": "8C", "meld_index": 0}


@pytest.mark.parametrize(
    ("knocker", "defender", "message"),
    [
        (["5C 6C 7C"], "7C 8C", "duplicate card 7C: a deck holds each card once"),
        (["5C 6C 7C", "7C 7D 7H"], "8C", "duplicate card 7C: a deck holds each card once"),
        (["5C 6C 7C"], "X1", "X1 is not in play: this rule set uses no jokers"),
    ],
)
def test_best_defence_rejects_impossible_deals(knocker: list[str], defender: str, message: str) -> None:
    with pytest.raises(InvalidHand) as caught:
        best_defence(parse_cards(defender), melds(*knocker), GIN)
    assert (caught.value.code, caught.value.message) == ("invalid_hand", message)
