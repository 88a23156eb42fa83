"""score_showdown: settlement, cumulative and gin scoring, and every error it raises."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import pytest

from engine.cards import Card, parse_cards
from engine.errors import EngineError, InvalidHand, InvalidShowdown
from engine.rules import RuleSet, get_ruleset
from engine.scoring import Showdown, score_showdown

KNOCK = get_ruleset("knock-rummy")
HOYLE = get_ruleset("knock-rummy-hoyle")
RAMI = get_ruleset("knock-rami")
GIN = get_ruleset("gin-rummy")

# Seed 000's worked example with a legal deal of the same deadwood counts.
SEED_000 = {
    0: "8H 9H TH JH QH 5C 7D",
    1: "2C 3C 3D 4D 5H 5S 6S",
    2: "6H 6D 6C 7C 8C 2H 7S",
    3: "AH AC 3S 5D 9D 9C 9S",
}
SEED_000_PRINTED = {
    0: "8H 9H TH JH QH 5C 7C",
    1: "2C 3C 3D 4D 5H 5S 6S",
    2: "6H 6D 6C 7C 8C 2H 7S",
    3: "AH AC 2S 6D 9D 9C 9S",
}
SEED_003 = {0: "7C 7D 7H JS QS KS AH 2D 2C 3S", 1: "KH KD KC TS QH 8D 6C 5H 2H AC"}


def deal(hands: Mapping[int, str]) -> dict[int, tuple[Card, ...]]:
    return {seat: parse_cards(text) for seat, text in hands.items()}


def score(ruleset: RuleSet, hands: Mapping[int, str], knocker: int | None) -> Showdown:
    return score_showdown(ruleset, deal(hands), knocker)


def points(result: Showdown) -> dict[int, str]:
    return {seat: str(value) for seat, value in result.points.items()}


def raises(
    kind: type[EngineError], ruleset: RuleSet, hands: Mapping[int, Any], knocker: int | None
) -> EngineError:
    cards = {seat: parse_cards(text) if isinstance(text, str) else text for seat, text in hands.items()}
    with pytest.raises(kind) as raised:
        score_showdown(ruleset, cards, knocker)
    return raised.value


def test_seed_000_worked_example() -> None:
    result = score(KNOCK, SEED_000, 0)
    assert result.deadwood == {0: 12, 1: 28, 2: 21, 3: 10}
    assert points(result) == {0: "-12", 1: "-18", 2: "-11", 3: "41"}
    assert result.winners == (3,)
    assert result.outcome == "knock_lost"
    assert result.knocker == 0
    assert result.rum_seats == ()


def test_seed_000_printed_deal_is_rejected() -> None:
    error = raises(InvalidHand, KNOCK, SEED_000_PRINTED, 0)
    assert error.code == "duplicate_card"
    assert str(error) == "7C appears twice (seats 0 and 2); one deck holds it once"


def test_duplicate_within_one_hand() -> None:
    hands = {0: "5H 5H 6H 7H 8D 9D TD", 1: "2C 3C 4C 9S 9D 9C 3H"}
    error = raises(InvalidHand, KNOCK, hands, 0)
    assert error.code == "duplicate_card"
    assert error.message == "5H appears twice (seat 0); one deck holds it once"


def test_joker_without_jokers() -> None:
    hands = {0: "X1 8H 8D 2C 5S 9D KH", 1: "AH 2H 3H 4H 5H 6H 7H"}
    error = raises(InvalidHand, KNOCK, {**hands, 2: "2S 3S 4S 6S 7S 8S 9S"}, 0)
    assert error.code == "joker_not_in_deck"
    assert error.message == "seat 0 holds X1, but knock-rummy is played with 0 joker(s)"


def test_second_joker_with_one_joker_deck() -> None:
    one_joker = RAMI.replace(jokers=1)
    hands = {0: "X2 8H 8D 2C 5S 9D KH", 1: "AH 2H 3H 4H 5H 6H 7H", 2: "2S 3S 4S 6S 7S 8S 9S"}
    assert raises(InvalidHand, one_joker, hands, 0).code == "joker_not_in_deck"
    hands[0] = "X1 8H 8D 2C 5S 9D KH"
    assert score(one_joker, hands, 0).deadwood[0] == 25


def test_not_a_card() -> None:
    error = raises(InvalidHand, KNOCK, {0: ["AS"] * 7, 1: parse_cards("2C 3C 4C 9S 9D 9C 3H")}, 0)
    assert error.code == "not_a_card"
    assert error.message == "seat 0 holds 'AS', which is not a card"


def test_too_few_hands() -> None:
    error = raises(InvalidShowdown, KNOCK, {0: "2C 3C 4C 9S 9D 9C 3H"}, 0)
    assert error.code == "too_few_hands"
    assert error.message == "a showdown needs at least 2 hands, got 1"
    assert raises(InvalidShowdown, KNOCK, {}, None).code == "too_few_hands"


def test_too_many_players() -> None:
    hands = {seat: " ".join(f"{rank}{suit}" for rank in "A234567") for seat, suit in enumerate("CDHS")}
    hands[4] = "8C 9C TC JC QC KC 8D"
    error = raises(InvalidShowdown, GIN, hands, 0)
    assert error.code == "wrong_player_count"
    assert error.message == "gin-rummy is for 2 to 4 players, not 5"


def test_unknown_knocker() -> None:
    hands = {0: "2C 3C 4C 9H 9D 9S 3H", 1: "KS QD JH 8C 6D 4S AD", 2: "5H 6H 7H TC TD 2S 4D"}
    error = raises(InvalidShowdown, KNOCK, hands, 7)
    assert error.code == "unknown_knocker"
    assert error.message == "knocker seat 7 holds no hand (seats: 0, 1, 2)"


def test_invalid_seat() -> None:
    hands: dict[Any, str] = {"a": "2C 3C 4C 9H 9D 9S 3H", 1: "KS QD JH 8C 6D 4S AD"}
    error = raises(InvalidShowdown, KNOCK, hands, None)
    assert error.code == "invalid_seat"


def test_wrong_hand_size() -> None:
    hands = {0: "2C 3C 4C 9H 9D 9S 3H", 1: "KS QD JH 8C 6D 4S AD", 2: "5H 6H 7H TC TD 2S"}
    error = raises(InvalidShowdown, KNOCK, hands, 0)
    assert error.code == "wrong_hand_size"
    assert error.message == "seat 2 shows 6 cards; with 3 players each hand holds 7"


def test_hoyle_wrong_size_mentions_laydown() -> None:
    hands = {0: "2C 3C 4C 9H 9D 9S", 1: "KS QD JH 8C 6D 4S AD", 2: "5H 6H 7H TC TD 2S 4H"}
    error = raises(InvalidShowdown, HOYLE, hands, 0)
    assert error.message == (
        "seat 0 shows 6 cards; with 3 players each hand holds 7 (or one more when laying down a rum)"
    )


def test_laydown_must_meld_everything() -> None:
    hands = {0: "2C 3C 4C 5C 9H 9D 9S KC", 1: "AS 2S 3S 7D 7C 7H 3D", 2: "KS QD JH 8C 6D 4S AD"}
    error = raises(InvalidShowdown, HOYLE, hands, 0)
    assert error.code == "laydown_not_all_melded"
    assert error.message == (
        "seat 0 laid down 8 cards without discarding, but only a hand that melds completely may do that "
        "(deadwood 10)"
    )


def test_hoyle_laydown_is_a_rum() -> None:
    hands = {0: "2C 3C 4C 5C 9H 9D 9S 9C", 1: "AS 2S 3S 7D 7C 7H 3D", 2: "KS QD JH 8C 6D 4S AD"}
    result = score(HOYLE, hands, 0)
    assert result.outcome == "rum"
    assert points(result) == {0: "102", 1: "-28", 2: "-74"}


def test_gin_knock_over_the_limit() -> None:
    hands = {0: "7D 8D 9D 2C 2H 2S KS AC 3H 4S", 1: "6D 6S 6H TD QC QH QS 5C 3D AD"}
    error = raises(InvalidShowdown, GIN, hands, 0)
    assert error.code == "deadwood_too_high_to_knock"
    assert error.message == "seat 0 knocked with 18 deadwood; gin-rummy allows at most 10"


def test_knock_limit_applies_to_any_preset_that_sets_it() -> None:
    strict = KNOCK.replace(knock_max_deadwood=10)
    assert raises(InvalidShowdown, strict, SEED_000, 0).code == "deadwood_too_high_to_knock"
    assert score(strict, SEED_000, 3).outcome == "knock_won"
    assert score(strict, SEED_000, None).outcome == "no_knock"


def test_gin_without_knock_is_void() -> None:
    error = raises(InvalidShowdown, GIN, SEED_003, None)
    assert error.code == "void_hand"
    assert error.message == "in gin a hand without a knock is void and is dealt again, not scored"


def test_errors_are_value_errors() -> None:
    assert issubclass(InvalidShowdown, ValueError)
    assert issubclass(InvalidHand, ValueError)


def test_hands_may_be_any_iterables() -> None:
    def cards(text: str) -> Iterator[Card]:
        yield from parse_cards(text)

    result = score_showdown(KNOCK, {seat: cards(text) for seat, text in SEED_000.items()}, 0)
    assert result.deadwood == {0: 12, 1: 28, 2: 21, 3: 10}


def test_results_follow_turn_order_and_seat_numbers() -> None:
    hands = {5: SEED_000[2], 2: SEED_000[3], 9: SEED_000[0], 0: SEED_000[1]}
    result = score(KNOCK, hands, 9)
    assert list(result.points) == [5, 2, 9, 0]
    assert points(result) == {5: "-11", 2: "41", 9: "-12", 0: "-18"}
    assert list(result.arrangements) == [5, 2, 9, 0]


def test_knock_won() -> None:
    hands = {0: "2C 3C 4C 9H 9D 9S 3H", 1: "KS QD JH 8C 6D 4S AD", 2: "5H 6H 7H TC TD 2S 4D"}
    result = score(KNOCK, hands, 0)
    assert (result.outcome, result.winners) == ("knock_won", (0,))
    assert points(result) == {0: "69", 1: "-46", 2: "-23"}


def test_knock_tied_knocker_neither_pays_nor_receives() -> None:
    hands = {0: "2C 3C 4C 9H 9D 9S 3H", 1: "AS 2S 3S 7D 7C 7H 3D", 2: "KS QD JH 8C 6D 4S AD"}
    for ruleset in (KNOCK, HOYLE, KNOCK.replace(knocker_loss="double")):
        result = score(ruleset, hands, 0)
        assert (result.outcome, result.winners) == ("knock_tied", (1,))
        assert points(result) == {0: "0", 1: "46", 2: "-46"}


def test_three_way_split_is_exact() -> None:
    hands = {
        0: "8H 9H TH JH QH 5C 7D",
        1: "AC 2C 3C 5S 6S 7S 2D",
        2: "4D 5D 6D KC KD KS 2H",
        3: "9C 9D 9S 3H 4H 5H 2S",
    }
    result = score(KNOCK, hands, 0)
    assert result.points == {0: Fraction(-20), 1: Fraction(20, 3), 2: Fraction(20, 3), 3: Fraction(20, 3)}
    assert result.to_dict()["points"] == {"0": "-20", "1": "20/3", "2": "20/3", "3": "20/3"}


def test_penalty_and_rum_bonus_options_are_used() -> None:
    assert points(score(KNOCK.replace(knocker_penalty=4), SEED_000, 0)) == {
        0: "-6",
        1: "-18",
        2: "-11",
        3: "35",
    }
    rum = {0: "2C 3C 4C 9H 9D 9S 3H", 1: "6D 7D 8D KS KH KC KD", 2: "5H 6H 7H TC TD 2S 4D"}
    assert points(score(KNOCK.replace(rum_bonus=10), rum, 1)) == {0: "-13", 1: "49", 2: "-36"}


def test_rum() -> None:
    hands = {0: "2C 3C 4C 9H 9D 9S 3H", 1: "6D 7D 8D KS KH KC KD", 2: "5H 6H 7H TC TD 2S 4D"}
    result = score(KNOCK, hands, 1)
    assert (result.outcome, result.winners, result.rum_seats) == ("rum", (1,), (1,))
    assert points(result) == {0: "-28", 1: "79", 2: "-51"}
    no_knock = score(KNOCK, hands, None)
    assert (no_knock.outcome, no_knock.rum_seats) == ("no_knock", ())
    assert points(no_knock) == {0: "-3", 1: "29", 2: "-26"}


def test_hoyle_non_knocker_rum() -> None:
    hands = {0: "2C 3C 4C 9C 9D 9S 5S", 1: "AH 2H 3H 4H 5H 6H 7H", 2: "6D 7D 8D TS JS 3D 4S"}
    result = score(HOYLE, hands, 0)
    assert (result.outcome, result.winners, result.rum_seats) == ("knock_lost", (1,), (1,))
    assert points(result) == {0: "-40", 1: "92", 2: "-52"}


def test_cumulative() -> None:
    hands = {0: "X1 8H 8D 2C 5S 9D KH", 1: "9C X2 JC 2D 3C 4S AS", 2: "AH 2H 3H 4H 5H 6H 7H"}
    result = score(RAMI, hands, 1)
    assert (result.outcome, result.winners, result.rum_seats) == ("knock", (2,), (2,))
    assert points(result) == {0: "25", 1: "10", 2: "-10"}
    assert points(score(RAMI.replace(zero_deadwood_bonus=5), hands, None)) == {0: "25", 1: "10", 2: "-5"}


def test_gin_knock_with_layoff() -> None:
    result = score(GIN, SEED_003, 0)
    assert (result.outcome, result.winners, result.pair_results) == ("knock", (0,), {1: "knock"})
    assert result.deadwood == {0: 8, 1: 32}
    assert points(result) == {0: "24", 1: "0"}
    assert [str(layoff.card) for layoff in result.layoffs[1]] == ["TS"]
    assert result.layoffs[0] == ()
    data = result.to_dict()
    assert data["layoffs"]["1"][0]["card"] == "TS"
    assert data["pair_results"] == {"1": "knock"}


def test_gin_opponents_in_turn_order_from_the_knockers_left() -> None:
    hands = {0: "TH KS KD KC 5D 6S 8C", 1: "JH QC QD QS 3S 9C AD", 2: "7H 8H 9H 4C 4D 4S 2C"}
    result = score(GIN, hands, 2)
    assert list(result.pair_results) == [0, 1]
    assert points(result) == {0: "0", 1: "0", 2: "38"}


def test_gin_undercut_on_tie_both_readings() -> None:
    hands = {0: "7D 8D 9D 2C 2H 2S AS AC 3H 4S", 1: "6D 6S 6H TD QC QH QS 5C 3D AD"}
    tie = score(GIN, hands, 0)
    assert (tie.outcome, points(tie)) == ("undercut", {0: "0", 1: "25"})
    strict = score(GIN.replace(undercut_on_tie=False), hands, 0)
    assert (strict.outcome, strict.winners, points(strict)) == ("tie", (), {0: "0", 1: "0"})


def test_gin_is_never_undercut_and_takes_no_layoffs() -> None:
    hands = {0: "2C 3C 4C 5C 9H 9D 9S JD QD KD", 1: "6C 9C TD AS 2S 4S 6H 8H 3D 7S"}
    result = score(GIN, hands, 0)
    assert (result.outcome, result.rum_seats) == ("gin", (0,))
    assert result.deadwood == {0: 0, 1: 56}
    assert result.layoffs == {0: (), 1: ()}
    assert points(result) == {0: "81", 1: "0"}


def test_to_dict_is_json_ready() -> None:
    data = score(KNOCK, SEED_000, 0).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["knocker"] == 0
    assert data["outcome"] == "knock_lost"
    assert data["winners"] == [3]
    assert data["deadwood"] == {"0": 12, "1": 28, "2": 21, "3": 10}
    assert data["points"] == {"0": "-12", "1": "-18", "2": "-11", "3": "41"}
    assert set(data["arrangements"]) == {"0", "1", "2", "3"}
    assert data["layoffs"] == {"0": [], "1": [], "2": [], "3": []}
    assert data["pair_results"] == {}
    no_knock = score(KNOCK, SEED_000, None).to_dict()
    assert no_knock["knocker"] is None


def test_showdown_is_frozen() -> None:
    result = score(KNOCK, SEED_000, 0)
    with pytest.raises(AttributeError):
        result.outcome = "rum"  # type: ignore[misc]


@pytest.mark.parametrize("ruleset", [KNOCK, HOYLE])
def test_settlement_is_zero_sum(ruleset: RuleSet) -> None:
    for knocker in (None, 0, 1, 2, 3):
        assert sum(score(ruleset, SEED_000, knocker).points.values()) == 0


def test_gin_knocker_may_declare_melds_that_block_a_layoff() -> None:
    """RULES.md §1: a declared arrangement is used where the rules let a player choose.
    Melded best, the knocker's run AS-4S (deadwood 6: AD 2H 3D) takes the defender's 5S.
    Declaring AS 2S 3S instead leaves 4S unmatched (deadwood 10, still a legal knock) and
    nothing for 5S to extend. The defender holds no meld: 5S KC KD QS QH JD 9H 8H 8D 6H = 86."""
    from engine.layoffs import Layoff
    from engine.melds import make_meld

    rs = get_ruleset("gin-rummy")
    hands = {0: parse_cards("AS 2S 3S 4S 5C 6C 7C AD 2H 3D"), 1: parse_cards("5S KC KD QS QH JD 9H 8H 8D 6H")}
    best = score_showdown(rs, hands, knocker=0)
    assert best.deadwood == {0: 6, 1: 81}
    assert best.layoffs[1] == (Layoff(Card.parse("5S"), 1),)
    assert best.points == {0: Fraction(75), 1: Fraction(0)}

    declared = [make_meld(parse_cards("AS 2S 3S")), make_meld(parse_cards("5C 6C 7C"))]
    blocked = score_showdown(rs, hands, knocker=0, knocker_melds=declared)
    assert blocked.deadwood == {0: 10, 1: 86}
    assert blocked.layoffs[1] == ()
    assert [str(card) for card in blocked.arrangements[0].unmatched] == ["4S", "AD", "2H", "3D"]
    assert blocked.points == {0: Fraction(76), 1: Fraction(0)}


def test_declared_melds_are_recorded_but_not_used_outside_gin() -> None:
    from engine.melds import make_meld

    rs = get_ruleset("knock-rummy")
    hands = {0: parse_cards("AS 2S 3S 4S 5C 6C 7C AD 2H 3D"), 1: parse_cards("5S KC KD QS QH JD 9H 8H 8D 6H")}
    declared = [make_meld(parse_cards("AS 2S 3S"))]
    assert score_showdown(rs, hands, knocker=0, knocker_melds=declared).deadwood[0] == 6


def test_declared_melds_must_use_the_knockers_own_cards() -> None:
    from engine.melds import make_meld

    rs = get_ruleset("gin-rummy")
    hands = {0: parse_cards("4H 5H 6H 7C 7D 7S 2S 3S AC AD"), 1: parse_cards("8H 9C TC JC QS QD 9S 9D 4C 4D")}
    with pytest.raises(InvalidShowdown) as info:
        score_showdown(rs, hands, knocker=0, knocker_melds=[make_meld(parse_cards("8H 9H TH"))])
    assert info.value.code == "invalid_declaration"
    assert str(info.value) == "seat 0 declared the meld 8H 9H TH using 8H but does not hold it"


def test_counts_over_the_knock_limit_say_who_and_how_much_in_params() -> None:
    """The quick path's refusal carries the seat, the deadwood and the limit, so that a
    page names the player (web.refusals) instead of rewording the message."""
    from engine.errors import IllegalMove
    from engine.match import score_counts
    from engine.rules import get_ruleset

    with pytest.raises(IllegalMove) as raised:
        score_counts(get_ruleset("gin-rummy"), {0: 18, 1: 40}, 0)
    assert raised.value.code == "deadwood_too_high_to_knock"
    assert raised.value.params == {"seat": 0, "deadwood": 18, "limit": 10}
