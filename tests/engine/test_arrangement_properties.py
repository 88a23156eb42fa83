"""Property tests: the fast engine paths agree with the plain exhaustive reference."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arrangement import Arrangement, best_arrangement, best_discard, deadwood
from engine.cards import ALL_CARDS, Card
from engine.layoffs import best_defence
from engine.melds import Meld, build_meld, make_meld
from engine.rules import get_ruleset
from tests.engine.arrangement_reference import (
    extension_ok,
    is_meld,
    meld_key,
    reference_defence,
    reference_discard,
    reference_key,
)

KNOCK = get_ruleset("knock")
RAMI = get_ruleset("rami")
JOKERS = ALL_CARDS[52:]
NATURALS = ALL_CARDS[:52]


def hands(max_size: int = 11, jokers: bool = False) -> st.SearchStrategy[tuple[Card, ...]]:
    """Uniform hands, and meld-dense hands drawn from a few ranks or from runs in few suits."""

    @st.composite
    def build(draw: st.DrawFn) -> tuple[Card, ...]:
        kind = draw(st.sampled_from(["uniform", "ranks", "runs", "mixed"]))
        if kind == "uniform":
            pool = list(NATURALS)
        elif kind == "ranks":
            ranks = draw(st.sets(st.integers(1, 13), min_size=2, max_size=5))
            pool = [c for c in NATURALS if c.rank in ranks]
        elif kind == "runs":
            suits = draw(st.sets(st.sampled_from("CDHS"), min_size=1, max_size=2))
            low = draw(st.integers(1, 8))
            pool = [c for c in NATURALS if c.suit in suits and low <= c.rank < low + 6]
        else:
            low = draw(st.integers(1, 10))
            pool = [c for c in NATURALS if low <= c.rank < low + 4]
        joker_count = draw(st.integers(0, 2)) if jokers else 0
        size = draw(st.integers(0, min(max_size, len(pool) + joker_count)))
        naturals = draw(st.permutations(pool))[: size - joker_count] if size >= joker_count else []
        return tuple(naturals) + JOKERS[: min(joker_count, size)]

    return build()


def arrangement_key(arrangement: Arrangement) -> tuple[int, int, int, int]:
    key = (arrangement.deadwood, len(arrangement.unmatched), 0, 0)
    for meld in arrangement.melds:
        extra = meld_key(meld.cards)
        key = (key[0], key[1], key[2] + extra[2], key[3] + extra[3])
    return key


def assert_consistent(hand: tuple[Card, ...], arrangement: Arrangement, joker_value: int) -> None:
    melded = [card for meld in arrangement.melds for card in meld.cards]
    assert sorted(melded + list(arrangement.unmatched)) == sorted(hand)
    assert all(is_meld(meld.cards) for meld in arrangement.melds)
    values = [joker_value if c.is_joker else c.value for c in arrangement.unmatched]
    assert arrangement.deadwood == sum(values)
    assert list(arrangement.unmatched) == sorted(arrangement.unmatched)


@settings(max_examples=400, deadline=None)
@given(hands())
def test_natural_hands_match_the_reference_including_the_tie_break(hand: tuple[Card, ...]) -> None:
    arrangement = best_arrangement(hand, KNOCK)
    assert_consistent(hand, arrangement, 25)
    assert arrangement_key(arrangement) == reference_key(frozenset(hand), 25)
    assert deadwood(hand, KNOCK) == arrangement.deadwood


@settings(max_examples=250, deadline=None)
@given(hands(jokers=True))
def test_joker_hands_match_the_reference_including_the_tie_break(hand: tuple[Card, ...]) -> None:
    arrangement = best_arrangement(hand, RAMI)
    assert_consistent(hand, arrangement, 25)
    assert arrangement_key(arrangement) == reference_key(frozenset(hand), 25)
    assert deadwood(hand, RAMI) == arrangement.deadwood


@settings(max_examples=60, deadline=None)
@given(hands(max_size=13, jokers=True))
def test_big_hands_match_the_reference(hand: tuple[Card, ...]) -> None:
    arrangement = best_arrangement(hand, RAMI)
    assert arrangement.deadwood == reference_key(frozenset(hand), 25)[0]


@settings(max_examples=100, deadline=None)
@given(hands(jokers=True), st.randoms(use_true_random=False))
def test_the_result_does_not_depend_on_card_order(hand: tuple[Card, ...], rng: random.Random) -> None:
    shuffled = list(hand)
    rng.shuffle(shuffled)
    assert best_arrangement(shuffled, RAMI).to_dict() == best_arrangement(hand, RAMI).to_dict()


@settings(max_examples=250, deadline=None)
@given(hands(max_size=12).filter(lambda hand: len(hand) > 0))
def test_best_discard_is_exact_for_natural_hands(hand: tuple[Card, ...]) -> None:
    card, rest = best_discard(hand, KNOCK)
    assert (rest.deadwood, card) == reference_discard(hand, 25)
    kept = [c for meld in rest.melds for c in meld.cards] + list(rest.unmatched)
    assert sorted(kept) == sorted(set(hand) - {card})


@settings(max_examples=80, deadline=None)
@given(hands(jokers=True).filter(lambda hand: len(hand) > 0))
def test_best_discard_is_exact_with_jokers(hand: tuple[Card, ...]) -> None:
    card, rest = best_discard(hand, RAMI)
    assert (rest.deadwood, card) == reference_discard(hand, 25)


@st.composite
def showdowns(draw: st.DrawFn, jokers: bool = False) -> tuple[tuple[Card, ...], tuple[Meld, ...]]:
    """A knocker's melds (a run and maybe a set) and a small defender hand near them."""
    deck = list(NATURALS)
    suit = draw(st.sampled_from("CDHS"))
    low = draw(st.integers(1, 11))
    length = draw(st.integers(3, min(5, 14 - low)))
    run = [Card.of(rank, suit) for rank in range(low, low + length)]
    knocker_jokers = list(JOKERS) if jokers else []
    run_joker = None
    if knocker_jokers:
        with_joker: bool = draw(st.booleans())
        if with_joker:
            run.remove(draw(st.sampled_from(run)))
            run_joker = knocker_jokers.pop(0)
    first = build_meld(run, run_joker)
    assert first is not None
    melds = [first]
    used = set(run)
    if draw(st.booleans()):
        rank = draw(st.integers(1, 13).filter(lambda r: Card.of(r, suit) not in used))
        suits = draw(
            st.sets(st.sampled_from([s for s in "CDHS" if Card.of(rank, s) not in used]), min_size=2)
        )
        members = [Card.of(rank, s) for s in sorted(suits)][:3]
        set_joker = knocker_jokers.pop(0) if knocker_jokers and len(members) == 2 else None
        second = build_meld(members, set_joker)
        if second is not None:
            melds.append(second)
            used |= set(members)
    pool = [
        c
        for c in deck
        if c not in used and (c.suit == suit or any(c.rank == m.represents[0].rank for m in melds))
    ]
    pool += [c for c in deck if c not in used and c not in pool][:4]
    size = draw(st.integers(1, 6))
    defender = draw(st.permutations(pool))[:size]
    defender += knocker_jokers[: draw(st.integers(0, len(knocker_jokers)))]
    return tuple(defender), tuple(melds)


def check_defence(defender: tuple[Card, ...], melds: tuple[Meld, ...], ruleset_name: str) -> None:
    ruleset = get_ruleset(ruleset_name)
    defence = best_defence(defender, melds, ruleset)
    arrangement = defence.arrangement
    laid = [layoff.card for layoff in defence.layoffs]
    expected = reference_defence(defender, melds, ruleset.joker_value)
    assert (arrangement.deadwood, len(arrangement.unmatched), len(laid)) == expected
    kept = [card for meld in arrangement.melds for card in meld.cards] + list(arrangement.unmatched)
    assert sorted(kept + laid) == sorted(defender)
    assert len(defence.extended_melds) == len(melds)
    for index, (meld, extended) in enumerate(zip(melds, defence.extended_melds, strict=True)):
        added = [layoff.card for layoff in defence.layoffs if layoff.meld_index == index]
        assert extension_ok(meld, added)
        assert sorted(extended.cards) == sorted([*meld.cards, *added])
        assert make_meld(extended.cards).kind == meld.kind


@settings(max_examples=120, deadline=None)
@given(showdowns())
def test_best_defence_matches_brute_force(showdown: tuple[tuple[Card, ...], tuple[Meld, ...]]) -> None:
    check_defence(*showdown, "gin")


@settings(max_examples=80, deadline=None)
@given(showdowns(jokers=True))
def test_best_defence_matches_brute_force_with_jokers(
    showdown: tuple[tuple[Card, ...], tuple[Meld, ...]],
) -> None:
    check_defence(*showdown, "rami")


@settings(max_examples=300, deadline=None)
@given(hands(14, jokers=True))
def test_the_bots_mask_paths_agree_with_deadwood_and_best_discard(cards: tuple[Card, ...]) -> None:
    """``mask_deadwood`` and ``mask_discard`` (the bots' lean simulator) are exact."""
    from engine.arrangement import mask_deadwood, mask_discard
    from engine.cards import cards_to_mask

    mask = cards_to_mask(cards)
    assert mask_deadwood(mask, RAMI.joker_value) == deadwood(cards, RAMI)
    if len(cards) >= 2:
        card, rest = best_discard(cards, RAMI)
        assert mask_discard(mask, RAMI.joker_value) == (rest.deadwood, card.index)


@settings(max_examples=500, deadline=None)
@given(hands(11))
def test_the_fast_discard_path_is_the_search_it_replaces(cards: tuple[Card, ...]) -> None:
    """``best_discard``'s inlined path (11 cards, no rank held three times) gives what the
    set-choice search gives: the same card, the same arrangement of what is left."""
    from engine.arrangement import _natural_discard, arrange_mask
    from engine.cards import cards_to_mask

    if len(cards) < 2:
        return
    mask = cards_to_mask(cards)
    _, index = _natural_discard(mask)
    expected = arrange_mask(mask ^ 1 << index, 25)
    card, rest = best_discard(cards, KNOCK)
    assert card.index == index
    assert (rest.melds, rest.unmatched, rest.deadwood) == (
        expected.melds,
        expected.unmatched,
        expected.deadwood,
    )


def test_the_fast_discard_path_on_many_eleven_card_hands() -> None:
    from engine.arrangement import _natural_discard, arrange_mask
    from engine.cards import cards_to_mask

    rng = random.Random(11)
    fast = 0
    for n in range(3000):
        ranks = rng.sample(range(1, 14), 5)
        pool = list(NATURALS) if n % 2 else [c for c in NATURALS if c.rank in ranks]
        cards = tuple(rng.sample(pool, 11))
        mask = cards_to_mask(cards)
        _, index = _natural_discard(mask)
        expected = arrange_mask(mask ^ 1 << index, 25)
        card, rest = best_discard(cards, KNOCK)
        assert (card.index, rest.deadwood, rest.melds) == (index, expected.deadwood, expected.melds)
        c, d, h, s = (mask >> 13 * suit & 8191 for suit in range(4))
        fast += not (c & d & (h | s)) | (h & s & (c | d))
    assert fast > 500  # the inlined path was really taken
