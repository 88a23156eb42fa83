"""The steady and expert bots: pure functions of the view, reading only public moves."""

from __future__ import annotations

import random

from engine import Card, Discard, DrawFromDiscard, DrawFromStock, Knock, PassUpcard, get_ruleset, view
from engine.bots import LEVELS, get_bot
from engine.bots.expert import _after_layoffs
from engine.bots.reading import read, sample_hands
from engine.cards import cards_to_mask, parse_cards
from tests.support.table import Table

C = Card.parse
GIN_HANDS = ["2C 3C 4C 5H 5D 5S 9D TD JD 8S", "7H 8H 9H KC KS KD 6C 6D 6H 4S"]


def test_every_level_is_a_registered_bot_weakest_first() -> None:
    assert list(LEVELS) == ["easy", "normal", "expert"]
    assert [get_bot(bot).__name__ for bot in LEVELS.values()] == ["greedy_bot", "steady_bot", "expert_bot"]


def test_a_discard_is_taken_only_to_meld_it() -> None:
    table = Table(get_ruleset("gin"), ["A", "B"])
    table.deal(GIN_HANDS, "QD", "KH")
    rng = random.Random(0)
    for name in ("steady", "expert"):
        bot = get_bot(name)
        assert bot(view(table.s, 1), rng) == DrawFromDiscard(1)  # QD extends 9-T-J of diamonds
    table.do(PassUpcard(1))
    for name in ("steady", "expert"):
        assert get_bot(name)(view(table.s, 0), rng) == PassUpcard(0)  # QD melds nothing of seat 0's


def test_the_expert_is_a_pure_function_of_its_view_and_random() -> None:
    table = Table(get_ruleset("knock-rummy"), ["A", "B", "C", "D"])
    table.deal(
        ["AS 2S 3S 9D TC JH KD", "KC KH 2C 3C 4C 9C 5D", "QC QD QH 7H 8H 9H 6S", "4D 6D 7D 8D 2H 3H 5S"], "TD"
    )
    table.do(DrawFromStock(1))
    seen = view(table.s, 1)
    expert = get_bot("expert")
    first = expert(seen, random.Random(5))
    assert first in seen.legal_commands
    assert all(expert(seen, random.Random(5)) == first for _ in range(3))


def test_a_hand_without_deadwood_knocks() -> None:
    table = Table(get_ruleset("gin"), ["A", "B"])
    table.deal(["AS 2S 3S 4S 5S 6S 7S 8S 9S KD", "AC 2C 3C 4C 5C 6C 7C 8C 9C KH"], "QD", "TS")
    table.do(PassUpcard(1))
    table.do(PassUpcard(0))
    table.do(DrawFromStock(1))
    for name in ("steady", "expert"):
        assert get_bot(name)(view(table.s, 1), random.Random(0)) == Knock(1, C("KD"))  # gin


def test_the_reading_follows_the_public_moves() -> None:
    table = Table(get_ruleset("gin"), ["A", "B"])
    table.deal(GIN_HANDS, "QD", "KH 3D")
    table.do(DrawFromDiscard(1))
    table.do(Discard(1, C("8S")))
    table.do(DrawFromStock(0))  # seat 0 passes over 8S
    reading = read(view(table.s, 0))
    assert reading.known[1] == C("QD").mask  # taken from the pile, still held
    assert reading.taken[1] == C("QD").mask and reading.shunned[1] == C("8S").mask
    assert reading.shunned[0] == C("8S").mask  # passed over
    own = cards_to_mask(view(table.s, 0).hand or ())
    assert not reading.unseen & (own | C("QD").mask | C("8S").mask)
    assert reading.unseen.bit_count() == 52 - 11 - 1 - 1  # seat 0 holds 11 cards now
    for guess in sample_hands(reading, random.Random(1), 20):
        assert guess[1].bit_count() == 10 and guess[1] & C("QD").mask
        assert not guess[1] & own


def test_a_defender_lays_off_onto_the_knockers_melds() -> None:
    kept = cards_to_mask(parse_cards("6H 7H 8H 2C 2D 2S AS"))
    defender = cards_to_mask(parse_cards("9H TH 2H KC KD 4S 5D"))
    # 9H and TH go onto the run, 2H onto the set: only KC KD 4S 5D stay
    assert _after_layoffs(kept, defender, 41, 25) == 29
