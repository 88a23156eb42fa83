"""Properties of score_showdown over random legal deals."""

from __future__ import annotations

from fractions import Fraction
from random import Random

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from engine.arrangement import best_arrangement
from engine.cards import Card, full_deck
from engine.errors import InvalidShowdown
from engine.rules import RuleSet, get_ruleset
from engine.scoring import Showdown, score_showdown

Hands = dict[int, tuple[Card, ...]]

SETTLEMENT = [
    get_ruleset("knock-rummy"),
    get_ruleset("knock-rummy", knocker_loss="double"),
    get_ruleset("knock-rummy", knocker_loss="penalty_each_lower", rum_bonus_for="any_player"),
    get_ruleset("knock-rummy-hoyle"),
]
CUMULATIVE = [get_ruleset("knock-rami")]
# Random hands rarely hold 10 or less, so the gin properties lift the knock limit.
GIN = [
    get_ruleset("gin-rummy"),
    get_ruleset("gin-rummy", knock_max_deadwood=None),
    get_ruleset("gin-rummy", knock_max_deadwood=None, undercut_on_tie=False),
]


@st.composite
def showdowns(
    draw: st.DrawFn, rulesets: list[RuleSet], knock: bool = False
) -> tuple[RuleSet, Hands, int | None]:
    """A legal deal: from the full deck; or from only the lowest ranks, so that hands
    are dense with melds and ties and undercuts are common; or with one hand (the
    knocker's, if any) a single run, so that it has no deadwood."""
    ruleset = draw(st.sampled_from(rulesets))
    players = draw(st.integers(ruleset.min_players, ruleset.max_players))
    size = ruleset.cards_per_player(players)
    seats = st.integers(0, players - 1)
    knocker = draw(seats if knock else st.none() | seats)
    pool = full_deck(ruleset.jokers)
    shape = draw(st.sampled_from(["full", "dense", "zero"]))
    if shape == "dense":
        top_rank = -(-players * size // 4) + 1
        pool = tuple(card for card in pool if card.rank <= top_rank)
    deck = list(draw(st.permutations(pool)))
    if shape == "zero":
        suit = draw(st.sampled_from("CDHS"))
        start = draw(st.integers(1, 14 - size))
        run = [Card.of(rank, suit) for rank in range(start, start + size)]
        rest = [card for card in deck if card not in run]
        holder = 0 if knocker is None else knocker
        deck = rest[: holder * size] + run + rest[holder * size :]
    hands = {seat: tuple(deck[seat * size : (seat + 1) * size]) for seat in range(players)}
    return ruleset, hands, knocker


def check_relabelled(result: Showdown, other: Showdown, relabel: dict[int, int]) -> None:
    assert other.outcome == result.outcome
    assert other.knocker == (None if result.knocker is None else relabel[result.knocker])
    assert other.deadwood == {relabel[seat]: value for seat, value in result.deadwood.items()}
    assert other.points == {relabel[seat]: value for seat, value in result.points.items()}
    assert set(other.winners) == {relabel[seat] for seat in result.winners}
    assert set(other.rum_seats) == {relabel[seat] for seat in result.rum_seats}


@settings(max_examples=300, deadline=None)
@given(showdowns(SETTLEMENT))
def test_settlement_is_zero_sum(case: tuple[RuleSet, Hands, int | None]) -> None:
    ruleset, hands, knocker = case
    result = score_showdown(ruleset, hands, knocker)
    event(result.outcome)
    assert sum(result.points.values()) == 0
    assert result.deadwood == {
        seat: best_arrangement(cards, ruleset).deadwood for seat, cards in hands.items()
    }
    low = min(result.deadwood.values())
    if result.outcome == "rum":
        assert knocker is not None and result.deadwood[knocker] == 0
        assert result.winners == (knocker,)
        others = [count for seat, count in result.deadwood.items() if seat != knocker]
        assert result.points[knocker] == sum(others) + ruleset.rum_bonus * len(others)
    else:
        assert result.winners
        assert all(result.deadwood[seat] == low for seat in result.winners)
        assert all(result.points[seat] > 0 or low == max(result.deadwood.values()) for seat in result.winners)
        assert (knocker in result.winners) == (result.outcome == "knock_won")
    for seat, value in result.points.items():
        if seat not in result.winners and seat != knocker and ruleset.knocker_loss != "penalty_each_lower":
            assert value <= 0


@settings(max_examples=60, deadline=None)
@given(showdowns(SETTLEMENT + CUMULATIVE + GIN, knock=True), st.randoms(use_true_random=False))
def test_renumbering_and_reordering_seats_renumbers_the_result(
    case: tuple[RuleSet, Hands, int | None], rng: Random
) -> None:
    ruleset, hands, knocker = case
    labels = rng.sample(range(100), len(hands))
    relabel = dict(zip(hands, labels, strict=True))
    order = list(hands)
    rng.shuffle(order)
    moved = {relabel[seat]: hands[seat] for seat in order}
    moved_knocker = None if knocker is None else relabel[knocker]
    try:
        result = score_showdown(ruleset, hands, knocker)
    except InvalidShowdown as error:
        with pytest.raises(InvalidShowdown) as raised:
            score_showdown(ruleset, moved, moved_knocker)
        assert raised.value.code == error.code
        return
    other = score_showdown(ruleset, moved, moved_knocker)
    check_relabelled(result, other, relabel)
    assert list(other.points) == [relabel[seat] for seat in order]


@settings(max_examples=60, deadline=None)
@given(showdowns(CUMULATIVE))
def test_cumulative_adds_deadwood_or_subtracts_the_bonus(case: tuple[RuleSet, Hands, int | None]) -> None:
    ruleset, hands, knocker = case
    result = score_showdown(ruleset, hands, knocker)
    for seat, count in result.deadwood.items():
        assert result.points[seat] == (count if count else -ruleset.zero_deadwood_bonus)
    assert set(result.rum_seats) == {seat for seat, count in result.deadwood.items() if count == 0}
    assert result.outcome == ("no_knock" if knocker is None else "knock")


@settings(max_examples=200, deadline=None)
@given(showdowns(GIN, knock=True))
def test_gin_scores_knocker_against_each_opponent(case: tuple[RuleSet, Hands, int | None]) -> None:
    ruleset, hands, knocker = case
    assert knocker is not None
    limit = ruleset.knock_max_deadwood
    if limit is not None and best_arrangement(hands[knocker], ruleset).deadwood > limit:
        with pytest.raises(InvalidShowdown) as raised:
            score_showdown(ruleset, hands, knocker)
        assert raised.value.code == "deadwood_too_high_to_knock"
        return
    result = score_showdown(ruleset, hands, knocker)
    event(result.outcome)
    mine = result.deadwood[knocker]
    expected = {seat: Fraction(0) for seat in hands}
    for seat, outcome in result.pair_results.items():
        theirs = result.deadwood[seat]
        # Layoffs never cost a defender anything.
        assert theirs <= best_arrangement(hands[seat], ruleset).deadwood
        if mine == 0:
            assert outcome == "gin"
            assert result.layoffs[seat] == ()
            expected[knocker] += theirs + ruleset.gin_bonus
        elif theirs < mine or (theirs == mine and ruleset.undercut_on_tie):
            assert outcome == "undercut"
            expected[seat] += mine - theirs + ruleset.undercut_bonus
        elif theirs == mine:
            assert outcome == "tie"
        else:
            assert outcome == "knock"
            expected[knocker] += theirs - mine
    assert result.points == expected
    assert set(result.pair_results) == set(hands) - {knocker}
    assert all(value >= 0 for value in result.points.values())
    assert set(result.winners) == {seat for seat, value in result.points.items() if value > 0}
