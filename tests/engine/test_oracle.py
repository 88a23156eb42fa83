"""The engine against the hand-worked oracle files in ``tests/engine/oracle/``.

Every expected value in those files was reasoned out from RULES.md by hand (each
case says why), never produced by running the engine; see ``oracle/README.md``.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from engine import errors
from engine.arrangement import Arrangement, best_arrangement, best_discard, deadwood
from engine.cards import Card, parse_cards
from engine.layoffs import best_defence
from engine.rules import RuleSet, get_ruleset
from engine.scoring import score_showdown

ORACLE = Path(__file__).parent / "oracle"


def load(name: str) -> list[Any]:
    data = json.loads((ORACLE / name).read_text())
    assert data["format"] == 1
    return [pytest.param(case, id=case["id"]) for case in data["cases"]]


def ruleset_of(case: dict[str, Any]) -> RuleSet:
    spec = case["ruleset"]
    return get_ruleset(spec["preset"], **spec.get("options", {}))


def meld_codes(arrangement: Arrangement) -> list[list[str]]:
    return sorted(sorted(str(card) for card in meld.cards) for meld in arrangement.melds)


def check_consistent(arrangement: Arrangement, hand: tuple[Card, ...]) -> None:
    """The melds and unmatched cards partition the hand and the deadwood adds up."""
    used = [card for meld in arrangement.melds for card in meld.cards] + list(arrangement.unmatched)
    assert sorted(used) == sorted(hand)
    assert arrangement.deadwood == sum(card.value for card in arrangement.unmatched)


def test_oracle_has_enough_cases() -> None:
    total = sum(len(json.loads(path.read_text())["cases"]) for path in ORACLE.glob("*.json"))
    assert total >= 100


def test_oracle_ids_are_unique() -> None:
    ids = [case["id"] for path in ORACLE.glob("*.json") for case in json.loads(path.read_text())["cases"]]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case", load("arrangements.json"))
def test_arrangement(case: dict[str, Any]) -> None:
    ruleset = ruleset_of(case)
    hand = parse_cards(case["hand"])
    if "error" in case:
        with pytest.raises(getattr(errors, case["error"])):
            best_arrangement(hand, ruleset)
        return
    arrangement = best_arrangement(hand, ruleset)
    assert arrangement.deadwood == case["deadwood"]
    assert deadwood(hand, ruleset) == case["deadwood"]
    check_consistent(arrangement, hand)
    if "melds" in case:
        assert meld_codes(arrangement) == sorted(sorted(meld) for meld in case["melds"])


@pytest.mark.parametrize("case", load("discards.json"))
def test_discard(case: dict[str, Any]) -> None:
    ruleset = ruleset_of(case)
    hand = parse_cards(case["hand"])
    allowed = set(parse_cards(case["discards"]))
    card, arrangement = best_discard(hand, ruleset)
    assert card in allowed
    assert arrangement.deadwood == case["deadwood"]
    check_consistent(arrangement, tuple(c for c in hand if c != card))
    # The listed discards are exactly the ones that reach the minimum.
    for candidate in hand:
        rest = [c for c in hand if c != candidate]
        reaches = deadwood(rest, ruleset) == case["deadwood"]
        assert reaches == (candidate in allowed), str(candidate)


@pytest.mark.parametrize("case", load("layoffs.json"))
def test_layoffs(case: dict[str, Any]) -> None:
    ruleset = ruleset_of(case)
    knocker = best_arrangement(parse_cards(case["knocker"]), ruleset)
    assert knocker.deadwood == case["knocker_deadwood"]
    defender = parse_cards(case["defender"])
    defence = best_defence(defender, knocker.melds, ruleset)
    assert defence.arrangement.deadwood == case["deadwood"]
    laid_off = sorted(str(layoff.card) for layoff in defence.layoffs)
    assert laid_off == sorted(case["laid_off"])
    kept = [c for c in defender if str(c) not in laid_off]
    check_consistent(defence.arrangement, tuple(kept))


@pytest.mark.parametrize("case", load("showdowns.json"))
def test_showdown(case: dict[str, Any]) -> None:
    ruleset = ruleset_of(case)
    hands = {int(seat): parse_cards(cards) for seat, cards in case["hands"].items()}
    if "error" in case:
        with pytest.raises(getattr(errors, case["error"]["type"])) as raised:
            score_showdown(ruleset, hands, case["knocker"])
        assert raised.value.code == case["error"]["code"]
        return
    result = score_showdown(ruleset, hands, case["knocker"])
    expect = case["expect"]
    assert result.deadwood == {int(seat): value for seat, value in expect["deadwood"].items()}
    assert result.points == {int(seat): Fraction(value) for seat, value in expect["points"].items()}
    assert list(result.winners) == expect["winners"]
    assert result.outcome == expect["outcome"]
    if "rum_seats" in expect:
        assert list(result.rum_seats) == expect["rum_seats"]
    if "pair_results" in expect:
        assert result.pair_results == {int(seat): value for seat, value in expect["pair_results"].items()}
    for seat, cards in expect.get("laid_off", {}).items():
        assert sorted(str(layoff.card) for layoff in result.layoffs[int(seat)]) == sorted(cards)
    assert list(result.points) == list(hands)
    json.dumps(result.to_dict())
